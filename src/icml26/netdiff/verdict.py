"""The spec's claims, judged from the tables.

The paper's numbers are on its own simulator; ours is documented in ``simulator`` and the criteria are ours,
fixed before the first quick run (``criteria`` in the config):
- *the simulator is calibrated* (the premise the spec asks to check first): at the configured sector count and
  side lobe and every test N, greedy and mutual nearest neighbour reach 75-90 % of the target's
  throughput and omnidirectional less than 40 % (``calibration.BANDS``);
- *NetDiff reaches over 95 % of the target*: the mean share of the target's throughput of NetDiff's (repaired)
  topologies is at least 0.95 at every test N (the largest beyond the training range);
- *it beats the heuristics and omni*: the 95 % interval of NetDiff's share minus each heuristic's lies above
  zero at every test N;
- *it improves over the graph-transformer baseline*: the same against the transformer without ACAM tokens
  (the key metric: share of the target; the raw samples' share and violations are in the details);
- *ACAM helps match graph-level counts*: NetDiff's absolute error in density and in sector usage (raw samples
  against the target) is below the baseline's, interval below zero, at every test N;
- *partial diffusion reaches near full-diffusion quality with a fraction of the steps*: some restart step
  ``k <= T / 4`` reaches a mean share within ``near`` of full diffusion's (ours: a quarter is "a fraction");
- *constant inference time* (wall clock, in ``timing/claims.json``): NetDiff's seconds per instance at the
  largest timed N over those at the smallest is at most ``flat`` (ours: 1.5).

Intervals: every share and difference is the table's 95 % interval over the NetDiff seeds and the test instances
(three seeds: Student's t with the instances' paired variance, ``common.bootstrap``); partial diffusion's on
Student's t over the seeds of the share at k = T/4 minus full diffusion's. The calibration is exact (heuristics
on the fixed test instances) and is the premise of every claim on NetDiff (the spec: check it first): on an
uncalibrated simulator the target is not hard to approach and the comparisons mean nothing.
"""

from __future__ import annotations

import pandas as pd

from ..common import intervals
from ..common.claims import WALL_CLOCK, Claim, Interval, Premise, decide, not_evaluated
from ..common.criteria import POINT
from ..common.tolerance import Tolerance
from .calibration import BANDS

TARGET_SHARE = 0.95  # the paper: "over 95 % of target performance"
FRACTION = 0.25  # ours: a restart at a quarter of T or fewer steps is "a fraction of the steps"

PAPER_TARGET = "over 95 % of target performance"
PAPER_HEURISTICS = "outperforms heuristic and omnidirectional baselines"
PAPER_TRANSFORMER = "improves over a strong diffusion graph-transformer baseline on key metrics"
PAPER_COUNTS = "ACAM tokens help the model match graph-level counts (e.g. density and sector usage)"
PAPER_PARTIAL = "partial diffusion updates a topology with a small number of denoising steps"
PAPER_TIME = "constant inference time"
PAPER_CALIBRATION = "(the spec) simple heuristics must not come within a few percent of the target"

# How far the committed numbers may move on another machine (make verify): the trained models' numbers by one
# standard error of the three-seed mean over the quick seeds (largest over N = 16, 20; sqrt(2) x for a
# difference of two models), the heuristics, the target, the MILP and the calibration exactly (numpy and HiGHS,
# no training). Partial diffusion: its share's and churn's largest standard deviation over the seeds' models
# (0.024 and 0.118, at k = 5 and 25), over sqrt(3).
_SEEDS = "spread over the three quick seeds (verdict.py)"
SHARE_SE = 0.007  # NetDiff's share (0.0066); no_aux's is 0.010, the graph transformer's 0.024
PARTIAL_SHARE, PARTIAL_CHURN = 0.014, 0.068
TOLERANCES = [
    ("metrics/*/*_raw/*", Tolerance(abs=0.17, why=_SEEDS + ": raw samples (connectivity 0.16, share 0.075)")),
    ("metrics/share/netdiff/*", Tolerance(abs=SHARE_SE, why=_SEEDS)),
    ("metrics/share/no_aux/*", Tolerance(abs=0.010, why=_SEEDS)),
    ("metrics/share/graph_transformer/*", Tolerance(abs=0.024, why=_SEEDS)),
    ("metrics/connected/netdiff/*", Tolerance(abs=0.012, why=_SEEDS)),
    ("metrics/connected/no_aux/*", Tolerance(abs=0.012, why=_SEEDS)),
    ("metrics/connected/graph_transformer/*", Tolerance(abs=0.012, why=_SEEDS)),
    ("metrics/share/*", Tolerance(rel=1e-9, why="round-off in the SINR sums (heuristics, target)")),
    ("metrics/target_vs_milp/*", Tolerance(rel=1e-9, why="round-off in the SINR sums")),
    ("metrics/count_error/*", Tolerance(abs=0.01, why=_SEEDS + ": raw samples' density and sector usage")),
    ("metrics/partial_share/*", Tolerance(abs=PARTIAL_SHARE, why=_SEEDS)),
    ("metrics/partial_churn/*", Tolerance(abs=PARTIAL_CHURN, why=_SEEDS)),
    ("claims/reaches_95_percent_of_target/measured/*", Tolerance(abs=SHARE_SE, why=_SEEDS)),
    ("claims/reaches_95_percent_of_target/details/interval/*", Tolerance(abs=SHARE_SE, why=_SEEDS)),
    ("claims/reaches_95_percent_of_target/details/*", Tolerance(abs=0.17, why=_SEEDS + ": raw samples")),
    ("claims/beats_heuristics/*", Tolerance(abs=SHARE_SE, why=_SEEDS + " (the heuristics are exact)")),
    ("claims/improves_over_graph_transformer/*/raw_share/*", Tolerance(abs=0.09, why=_SEEDS + ", sqrt(2) x")),
    ("claims/improves_over_graph_transformer/*/raw_violations/*", Tolerance(abs=1.0, why=_SEEDS + ", sqrt(2) x")),
    ("claims/improves_over_graph_transformer/*", Tolerance(abs=0.025, why=_SEEDS + ", sqrt(2) x")),
    ("claims/acam_matches_counts/*", Tolerance(abs=0.01, why=_SEEDS + ": raw samples' counts")),
    ("claims/partial_diffusion_near_full/measured/fewest_steps", Tolerance(abs=20, why="per seed 5, 10, 5")),
    ("claims/partial_diffusion_near_full/measured/fraction", Tolerance(abs=0.2, why="per seed 5, 10, 5 steps")),
    ("claims/partial_diffusion_near_full/details/churn*", Tolerance(abs=PARTIAL_CHURN, why=_SEEDS)),
    ("claims/partial_diffusion_near_full/details/*", Tolerance(abs=PARTIAL_SHARE, why=_SEEDS)),
]


WHY_CALIBRATED = (
    "the spec's premise: on a simulator where simple heuristics come within a few percent of the target, reaching "
    "or beating them says nothing about the method"
)


def calibration_premise(calibrated: Claim) -> Premise:
    return Premise(
        name="simulator calibrated (heuristics inside their bands at every test N)",
        measured=calibrated.state,
        threshold="holds",
        comparator="==",
        met=calibrated.state == "holds",
        why=WHY_CALIBRATED,
    )


def _intervals(rows, name, threshold: float, side: str, margin: float | None = None) -> list:
    """Each table row (``difference`` or ``share``, ``low``, ``high``, ``interval``) as an Interval on the measured key
    ``name(row)``."""
    out = []
    for r in rows.itertuples():
        estimate = float(getattr(r, "difference", None) if hasattr(r, "difference") else r.share)
        interval = Interval(
            name(r), estimate, float(r.low), float(r.high), threshold, side, str(r.interval), margin=margin
        )
        out.append(interval)
    return out


def simulator_calibrated(calibration: pd.DataFrame, channel: dict, nodes: list[int]) -> Claim:
    statement = (
        f"At the configured setting (K = {channel['sectors']}, side lobe {channel['side_db']} dB) and every test N "
        f"({', '.join(map(str, nodes))}), greedy and mutual nearest neighbour reach 75-90 % of the target's "
        "throughput and omnidirectional < 40 %"
    )
    evidence = ["tables/calibration.csv", "figures/calibration.png"]
    rows = calibration[
        (calibration["sectors"] == channel["sectors"])
        & (calibration["side_db"] == channel["side_db"])
        & calibration["nodes"].isin(nodes)
    ].sort_values("nodes")
    if len(rows) < len(nodes):
        return not_evaluated("simulator_calibrated", statement, PAPER_CALIBRATION, "setting not swept", evidence)
    measured = {f"{name}/N{r.nodes}": float(getattr(r, name)) for r in rows.itertuples() for name in BANDS}
    return Claim(
        id="simulator_calibrated",
        statement=statement,
        paper_value=PAPER_CALIBRATION,
        measured=measured,
        comparator="all",
        state=decide(exact=bool(rows["admissible"].all())),
        premises_note="the calibration is itself the premise of the other claims (heuristics on fixed instances)",
        details={"bands": {k: list(v) for k, v in BANDS.items()}},
        headline="share of the target at the configured setting: "
        + "; ".join(
            f"N={r.nodes} " + ", ".join(f"{name} {getattr(r, name):.2f}" for name in BANDS) for r in rows.itertuples()
        )
        + " (bands: greedy and mutual NN 0.75-0.90, omni < 0.40)",
        evidence=evidence,
    )


def reaches_target(results: pd.DataFrame, premises: list[Premise]) -> Claim:
    statement = (
        f"NetDiff's repaired topologies reach a mean share >= {TARGET_SHARE} of the target's throughput at every test N"
    )
    evidence = ["tables/results.csv", "tables/repair.csv", "figures/shares.png"]
    rows = results[results["method"] == "netdiff"].sort_values("nodes")
    if rows.empty:
        return not_evaluated("reaches_95_percent_of_target", statement, PAPER_TARGET, "netdiff was not run", evidence)
    shares = {int(r.nodes): float(r.share) for r in rows.itertuples()}
    raw = results[results["method"] == "netdiff_raw"].set_index("nodes")
    found = _intervals(rows, lambda r: f"N{int(r.nodes)}", TARGET_SHARE, ">=")
    return Claim(
        id="reaches_95_percent_of_target",
        statement=statement,
        paper_value=TARGET_SHARE,
        measured={f"N{n}": v for n, v in shares.items()},
        comparator=">=",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        details={
            "interval": {f"N{int(r.nodes)}": [float(r.low), float(r.high)] for r in rows.itertuples()},
            "raw_share": {f"N{n}": float(raw.loc[n, "share"]) for n in shares if n in raw.index},
            "raw_connected": {f"N{n}": float(raw.loc[n, "connected"]) for n in shares if n in raw.index},
            "raw_violations": {f"N{n}": float(raw.loc[n, "violations"]) for n in shares if n in raw.index},
        },
        headline="NetDiff share of the target after repair "
        + ", ".join(f"N={n} {i.estimate:.3f} [{i.low:.3f}, {i.high:.3f}]" for n, i in zip(shares, found))
        + f" (paper: over {TARGET_SHARE:.2f}); before repair "
        + ", ".join(
            f"N={n} share {raw.loc[n, 'share']:.2f}, {raw.loc[n, 'connected']:.0%} connected, "
            f"{raw.loc[n, 'violations']:.1f} violations"
            for n in shares
            if n in raw.index
        ),
        evidence=evidence,
    )


def _ahead(comparisons: pd.DataFrame, baselines: list[str], metric: str = "share") -> tuple[dict, dict, list]:
    rows = comparisons[(comparisons["metric"] == metric) & comparisons["baseline"].isin(baselines)]
    measured = {f"{r.baseline}/N{r.nodes}": float(r.difference) for r in rows.itertuples()}
    bounds = {f"{r.baseline}/N{r.nodes}": [float(r.low), float(r.high)] for r in rows.itertuples()}
    return measured, bounds, _intervals(rows, lambda r: f"{r.baseline}/N{r.nodes}", 0.0, ">", POINT)


def beats_heuristics(comparisons: pd.DataFrame, premises: list[Premise]) -> Claim:
    heuristics = ["greedy", "mutual_nearest", "random_feasible", "omnidirectional"]
    statement = (
        "NetDiff's share of the target exceeds every heuristic's and omnidirectional's (95 % interval of the "
        f"paired difference above the practical margin {POINT:g}) at every test N"
    )
    evidence = ["tables/comparisons.csv", "tables/results.csv", "figures/shares.png"]
    measured, bounds, found = _ahead(comparisons, heuristics)
    if not measured:
        return not_evaluated("beats_heuristics", statement, PAPER_HEURISTICS, "netdiff was not run", evidence, ">")
    closest = min(measured, key=measured.get)
    return Claim(
        id="beats_heuristics",
        statement=statement,
        paper_value=PAPER_HEURISTICS,
        measured=measured,
        comparator=">",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        headline=f"closest heuristic {closest}: NetDiff ahead by {measured[closest]:+.3f} "
        f"[{bounds[closest][0]:+.3f}, {bounds[closest][1]:+.3f}] of the target (paper: NetDiff ahead)",
        evidence=evidence,
    )


def improves_over_graph_transformer(comparisons: pd.DataFrame, premises: list[Premise]) -> Claim:
    """A claim on the generator, so judged before repair (the repair step does most of the work behind the repaired
    shares): NetDiff's raw samples have fewer constraint violations than the same transformer's without ACAM."""
    statement = (
        "NetDiff's raw samples (before repair) have fewer constraint violations per sample than those of the same "
        "graph transformer without ACAM tokens (DiGress-style; 95 % interval of the difference over seeds and "
        f"instances below -{POINT:g}, the practical margin: one violation per hundred samples) at every test N"
    )
    evidence = ["tables/comparisons.csv", "tables/repair.csv", "figures/shares.png"]
    rows = comparisons[(comparisons["metric"] == "raw_violations") & (comparisons["baseline"] == "graph_transformer")]
    if rows.empty:
        note = "graph_transformer was not run"
        return not_evaluated("improves_over_graph_transformer", statement, PAPER_TRANSFORMER, note, evidence, "<")
    found = _intervals(rows, lambda r: f"raw_violations/N{r.nodes}", 0.0, "<", POINT)
    measured = {i.statistic: i.estimate for i in found}
    repaired, bounds, _ = _ahead(comparisons, ["graph_transformer"])
    by_n = [f"N={k.split('/N')[1]} {i.estimate:+.2f} [{i.low:+.2f}, {i.high:+.2f}]" for k, i in zip(measured, found)]
    after = [f"N={k.split('/N')[1]} {v:+.3f} [{bounds[k][0]:+.3f}, {bounds[k][1]:+.3f}]" for k, v in repaired.items()]
    return Claim(
        id="improves_over_graph_transformer",
        statement=statement,
        paper_value=PAPER_TRANSFORMER,
        measured=measured,
        comparator="<",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        details={"repaired_share_difference": repaired, "repaired_share_interval": bounds},
        headline=f"violations per raw sample, NetDiff minus the graph transformer without ACAM: {', '.join(by_n)}; "
        f"after repair, share of the target {', '.join(after)} (paper: NetDiff ahead on key metrics)",
        evidence=evidence,
    )


def acam_matches_counts(counts: pd.DataFrame, premises: list[Premise]) -> Claim:
    statement = (
        "ACAM tokens help match graph-level counts: NetDiff's absolute error in density and in sector usage "
        "(raw samples vs the target) is below the graph transformer's without them (95 % interval of the "
        f"difference below -{POINT:g}, the practical margin) at every test N"
    )
    evidence = ["tables/counts.csv", "figures/counts.png"]
    rows = counts[counts["model"] == "graph_transformer"]
    if rows.empty:
        note = "graph_transformer was not run"
        return not_evaluated("acam_matches_counts", statement, PAPER_COUNTS, note, evidence, "<")
    key = lambda r: f"{r.count}/N{r.nodes}"  # noqa: E731
    measured = {key(r): float(r.netdiff_minus) for r in rows.itertuples()}
    errors = counts.pivot_table(index=["count", "nodes"], columns="model", values="error")
    found = _intervals(rows.rename(columns={"netdiff_minus": "difference"}), key, 0.0, "<", POINT)
    return Claim(
        id="acam_matches_counts",
        statement=statement,
        paper_value=PAPER_COUNTS,
        measured=measured,
        comparator="<",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        details={
            "errors": {f"{c}/N{n}": {m: float(v) for m, v in row.items()} for (c, n), row in errors.iterrows()},
        },
        headline="count error NetDiff minus no-ACAM: "
        + ", ".join(f"{k} {v:+.4f}" for k, v in measured.items())
        + " (negative: ACAM closer to the target; paper: ACAM helps)",
        evidence=evidence,
    )


def partial_diffusion(partial: pd.DataFrame, near: float, premises: list[Premise]) -> Claim:
    statement = (
        f"Partial diffusion: restarting from the previous topology at some k <= T/4 reaches a mean share of the "
        f"target within {near} of full diffusion's, over the mobility traces (95 % interval over the seeds of the "
        "share at the largest such k minus full diffusion's above -near)"
    )
    evidence = ["tables/partial.csv", "figures/partial.png"]
    steps = int(partial["denoising_steps"].max())
    full = partial[partial["restart"] >= steps]
    if full.empty or len(partial) < 2:
        note = "needs full diffusion and at least one partial restart"
        return not_evaluated("partial_diffusion_near_full", statement, PAPER_PARTIAL, note, evidence, ">=")
    reference = float(full["share"].iloc[0])
    close = partial[(partial["restart"] < steps) & (partial["share"] >= reference - near)]
    fewest = int(close["restart"].min()) if len(close) else None
    by_k = {int(r.restart): float(r.share) for r in partial.itertuples()}
    churn = {int(r.restart): float(r.churn) for r in partial.itertuples()}
    found = f"fewest steps within {near}: {fewest}" if fewest else f"no restart came within {near}"
    seeds = [c for c in partial.columns if c.startswith("share_seed")]
    allowed = partial[partial["restart"] <= FRACTION * steps]
    judged = allowed.iloc[-1] if len(allowed) else partial.iloc[0]  # the largest k within a fraction
    gap = judged[seeds].to_numpy(float) - full.iloc[0][seeds].to_numpy(float)
    interval = [intervals.over_seeds(f"share_at_k{int(judged['restart'])}_minus_full", gap, -near, ">=")]
    return Claim(
        id="partial_diffusion_near_full",
        statement=statement,
        paper_value=PAPER_PARTIAL,
        measured={
            "fewest_steps": fewest,
            "fraction": None if fewest is None else fewest / steps,
            interval[0].statistic: interval[0].estimate,
        },
        comparator="<=",
        state=decide(interval, premises=premises),
        interval=interval,
        premises=premises,
        details={"share_by_restart": by_k, "churn_by_restart": churn, "full_share": reference, "steps": steps},
        headline=f"full diffusion ({steps} steps) share {reference:.3f}; "
        + ", ".join(f"k={k} {v:.3f}" for k, v in by_k.items() if k < steps)
        + f"; {found} (needs <= {FRACTION * steps:g}); at k={int(judged['restart'])} minus full "
        f"{interval[0].estimate:+.3f} [{interval[0].low:+.3f}, {interval[0].high:+.3f}] over seeds (needs >= -{near}); "
        f"churn full {churn[max(churn)]:.2f} vs k={min(churn)} {churn[min(churn)]:.2f}",
        evidence=evidence,
    )


def constant_inference_time(inference: pd.DataFrame, flat: float, machine: dict) -> Claim:
    statement = (
        f"NetDiff's inference time per instance at a fixed number of denoising steps is independent of N: "
        f"seconds at the largest timed N over those at the smallest <= {flat}"
    )
    evidence = ["timing/inference.csv", "timing/figures/inference.png"]
    rows = inference[inference["method"] == "netdiff"].sort_values("nodes")
    if len(rows) < 2:
        return not_evaluated("constant_inference_time", statement, PAPER_TIME, "netdiff timed at < 2 N", evidence)
    first, last = rows.iloc[0], rows.iloc[-1]
    ratio = float(last["seconds"] / first["seconds"])
    target = inference[inference["method"] == "target"].set_index("nodes")["seconds"]
    return Claim(
        id="constant_inference_time",
        statement=statement,
        paper_value=PAPER_TIME,
        measured={"ratio": ratio, **{f"N{int(r.nodes)}": float(r.seconds) for r in rows.itertuples()}},
        comparator="<=",
        state=decide(exact=ratio <= flat),
        interval=WALL_CLOCK,
        premises_note="a wall-clock ratio of one model at a fixed number of denoiser calls: nothing presupposed",
        details={
            "machine": machine,
            "denoiser_calls": int(first["denoiser_calls"]),
            "target_ratio": float(target.iloc[-1] / target.iloc[0]) if len(target) > 1 else None,
        },
        headline=f"NetDiff {first['seconds'] * 1000:.0f} ms at N={int(first['nodes'])} vs "
        f"{last['seconds'] * 1000:.0f} ms at N={int(last['nodes'])} ({int(first['denoiser_calls'])} denoiser calls "
        f"each): ratio {ratio:.2f} "
        f"(needs <= {flat}; paper: constant)",
        evidence=evidence,
    )
