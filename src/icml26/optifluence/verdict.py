"""The spec's claims, judged from the LiRA table (TPR at the operating FPR per canary type and architecture).

"Higher" means separated: the lower end of OptiFluence's 95 % interval on its TPR (a bootstrap over the audited
models and the canaries, so the threshold at the extreme FPR is redrawn too; ``tables.tpr_interval``) lies above
the upper end of the other type's, a fixed rule rather than a margin chosen after looking. As an interval on the
difference (OptiFluence minus the other) that is ``[low - other high, high - other low]``: above the practical
margin (one point of TPR, ``criteria.POINT``) holds, wholly below it does not hold, in between is inconclusive.

Premises (docs/papers/optifluence.md), each fixed before the rerun that introduced it: the best heuristic
canary's TPR is below :data:`CEILING` on the architecture judged -- where a heuristic is always detected, no
canary can beat it (2026-12-03, session 18); the optimised canaries' objective has converged, its mean over the
last quarter of the outer steps within :data:`CONVERGED` (relative) of the quarter before -- an optimisation
stopped while still climbing cannot show what the method reaches (2026-12-03, session 20). The
paper's numbers are on CIFAR-10 with ResNets (99.6 % TPR at 0.1 % FPR, 4x the in-distribution
canaries); ours are on the stand-in data and models of docs/papers/optifluence.md, so they stand beside
the paper's, not against them.
"""

from __future__ import annotations

import pandas as pd

from ..common.claims import Claim, Interval, Premise, decide, not_evaluated, premise
from ..common.criteria import POINT
from .canaries import HEURISTIC

PAPER_TPR = 0.996
PAPER_FACTOR = 4.0
EVIDENCE = ["tables/tpr.csv", "figures/roc.png", "figures/transfer.png"]
AGAINST_HEURISTICS = [*EVIDENCE, "figures/convergence.png"]
CEILING = 0.9  # ours: a heuristic detected at least nine times in ten leaves no room above it
WHY_CEILING = (
    "beating every heuristic canary presupposes room above the best one; the paper's heuristics sit far below the "
    "ceiling on CIFAR-10, and a heuristic detected nearly always cannot be beaten whatever the optimisation does"
)
CONVERGED = 0.05  # ours: the objective gains less than 5 % from one quarter of the outer steps to the next
WHY_CONVERGED = (
    "the claim is about optimised canaries; an optimisation stopped while its objective still climbs shows where "
    "the budget ran out, not what the method reaches (the paper optimises to convergence)"
)


def convergence(trace: pd.DataFrame) -> dict:
    """The objective's relative change between the last two quarters of the outer steps (``trace``: one row per
    step with ``gap_mean``). Each step draws fresh inner models, so single steps are noisy: windows, not points."""
    gaps = trace.sort_values("step")["gap_mean"].to_numpy()
    if len(gaps) < 2:
        raise ValueError(f"convergence needs at least 2 outer steps, the trace has {len(gaps)}")
    window = max(len(gaps) // 4, 1)
    last, before = float(gaps[-window:].mean()), float(gaps[-2 * window : -window].mean())
    return {
        "window": window,
        "steps": len(gaps),
        "last_quarter": last,
        "quarter_before": before,
        "relative_change": (last - before) / max(abs(before), 1e-12),
    }


def _converged(trace: pd.DataFrame) -> Premise:
    m = convergence(trace)
    return premise(
        f"optimisation converged (relative change of the objective over the last {m['window']} of {m['steps']} "
        "outer steps)",
        m["relative_change"],
        CONVERGED,
        "<",
        WHY_CONVERGED,
    )


def _bootstrap(row: pd.Series) -> str:
    """The intervals' method, naming their units: the canaries of a type (the unit more of which narrows them; the
    audited models are resampled with them) -- what would decide an undecided claim counts them."""
    models = int((row["n_in"] + row["n_out"]) // row["canaries"])
    return f"ends of the two bootstrap intervals over {int(row['canaries'])} canaries and {models} models"


def _separation(arch: str, m: dict, tpr: pd.DataFrame) -> Interval:
    """OptiFluence's TPR minus the best heuristic's, with the conservative interval from the two intervals."""
    (low, high), (other_low, other_high) = m["optifluence_interval"], m["best_heuristic_interval"]
    return Interval(
        f"{arch}/optifluence_minus_best",
        m["optifluence"] - m["best_heuristic_tpr"],
        low - other_high,
        high - other_low,
        0.0,
        ">",
        _bootstrap(_row(tpr, arch, "optifluence")),
        margin=POINT,
    )


def _ceiling(arch: str, m: dict) -> Premise:
    return premise(
        f"{arch}: best heuristic TPR ({m['best_heuristic']})", m["best_heuristic_tpr"], CEILING, "<", WHY_CEILING
    )


def _row(tpr: pd.DataFrame, arch: str, kind: str) -> pd.Series:
    rows = tpr[(tpr["architecture"] == arch) & (tpr["type"] == kind)]
    if len(rows) != 1:
        raise ValueError(f"tables/tpr.csv: expected one row for {arch}/{kind}, found {len(rows)}")
    return rows.iloc[0]


def _against_heuristics(tpr: pd.DataFrame, arch: str) -> dict:
    ours, heuristics = _row(tpr, arch, "optifluence"), {k: _row(tpr, arch, k) for k in HEURISTIC}
    best = max(heuristics.values(), key=lambda r: r["tpr"])
    return {
        "optifluence": float(ours["tpr"]),
        "optifluence_interval": [float(ours["tpr_low"]), float(ours["tpr_high"])],
        "best_heuristic": str(best["type"]),
        "best_heuristic_tpr": float(best["tpr"]),
        "best_heuristic_interval": [float(best["tpr_low"]), float(best["tpr_high"])],
        "separated": bool(ours["tpr_low"] > best["tpr_high"]),
        "heuristics": {k: float(r["tpr"]) for k, r in heuristics.items()},
        "optifluence_minus_best": float(ours["tpr"] - best["tpr"]),
    }


def beats_heuristics(tpr: pd.DataFrame, target: str, fpr: float, trace: pd.DataFrame) -> Claim:
    m = _against_heuristics(tpr, target)
    found, premises = [_separation(target, m, tpr)], [_ceiling(target, m), _converged(trace)]
    return Claim(
        id="optimised_canaries_beat_heuristics",
        statement=f"OptiFluence canaries reach a higher TPR at {fpr:.1%} FPR than every heuristic canary type "
        "(in-distribution, mislabeled, out-of-distribution) on the model they were optimised for "
        f"(95 % bootstrap intervals separated by at least the practical margin, {POINT:g})",
        paper_value={"optifluence_tpr": PAPER_TPR, "dataset": "CIFAR-10"},
        measured={target: m},
        comparator=">",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        headline=f"OptiFluence TPR {m['optifluence']:.3f} vs best heuristic ({m['best_heuristic']}) "
        f"{m['best_heuristic_tpr']:.3f} at {fpr:.1%} FPR on {target}; paper: {PAPER_TPR:.1%} on CIFAR-10",
        evidence=AGAINST_HEURISTICS,
    )


WHY_DETECTED = (
    "a factor over in-distribution canaries measures the optimisation only where the attack detects them at all; "
    "at chance (a TPR no higher than the FPR) the factor is the ratio to the attack's noise floor, however large "
    "(the paper's in-distribution canaries sit near a quarter of its 99.6 %; premise added 2026-12-07, issue 78, "
    "before the rerun that judges it)"
)


def _detected(base: pd.Series, fpr: float) -> Premise:
    return premise(
        "in-distribution canaries detected above chance (lower end of their TPR interval)",
        base["tpr_low"],
        fpr,
        ">",
        WHY_DETECTED,
    )


def times_in_distribution(tpr: pd.DataFrame, target: str, fpr: float) -> Claim:
    """Premise: the in-distribution canaries are detected above chance (:data:`WHY_DETECTED`)."""
    ours, base = _row(tpr, target, "optifluence"), _row(tpr, target, "random_in")
    premises = [_detected(base, fpr)]
    floor = 1.0 / base["n_in"]  # a TPR of 0 means "below one detected member", not exactly 0
    ratio = float(ours["tpr"] / max(base["tpr"], floor))
    found = [
        Interval(
            "ratio",
            ratio,
            float(ours["tpr_low"] / max(base["tpr_high"], floor)),
            float(ours["tpr_high"] / max(base["tpr_low"], floor)),
            PAPER_FACTOR,
            ">=",
            _bootstrap(ours),
        )
    ]
    return Claim(
        id="four_times_in_distribution",
        statement=f"OptiFluence canaries reach at least {PAPER_FACTOR:g}x the TPR at {fpr:.1%} FPR of "
        "in-distribution canaries",
        paper_value={"factor": PAPER_FACTOR, "optifluence_tpr": PAPER_TPR},
        measured={
            "ratio": ratio,
            "optifluence": float(ours["tpr"]),
            "random_in": float(base["tpr"]),
            "resolution": floor,
        },
        comparator=">=",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        note="an in-distribution TPR below the resolution (one member in n_in) counts as the resolution",
        headline=f"OptiFluence TPR {ours['tpr']:.3f} vs in-distribution "
        + (
            f"{base['tpr']:.4f}: {ratio:.1f}x"
            if base["tpr"] >= floor
            else f"0 (no member found of {int(base['n_in'])}): at least {ratio:.0f}x"
        )
        + f" (paper: {PAPER_FACTOR:g}x)",
        evidence=EVIDENCE,
    )


def transfers(tpr: pd.DataFrame, transfer: list[str], fpr: float, trace: pd.DataFrame) -> Claim:
    if not transfer:
        return not_evaluated(
            "canaries_transfer_across_architectures",
            "OptiFluence canaries transfer",
            "transfer without re-optimising",
            "no transfer architecture configured",
            EVIDENCE,
        )
    per_arch = {arch: _against_heuristics(tpr, arch) for arch in transfer}
    found = [_separation(arch, m, tpr) for arch, m in per_arch.items()]
    premises = [*(_ceiling(arch, m) for arch, m in per_arch.items()), _converged(trace)]
    return Claim(
        id="canaries_transfer_across_architectures",
        statement="Canaries optimised on the target architecture, inserted unchanged into other architectures, "
        f"still reach a higher TPR at {fpr:.1%} FPR than every heuristic canary type there (intervals separated by at "
        f"least {POINT:g})",
        paper_value="transfer across architectures without re-optimising (qualitative)",
        measured=per_arch,
        comparator="all",
        state=decide(found, premises=premises),
        interval=found,
        premises=premises,
        headline="; ".join(
            f"{arch}: OptiFluence {m['optifluence']:.3f} vs {m['best_heuristic']} {m['best_heuristic_tpr']:.3f}"
            for arch, m in per_arch.items()
        )
        + f" (TPR at {fpr:.1%} FPR); paper: transfers",
        evidence=AGAINST_HEURISTICS,
    )
