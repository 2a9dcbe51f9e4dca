"""Config validation messages, claim records (states, intervals, premises) and the summary table."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml

from icml26.common import intervals
from icml26.common.claims import (
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NOT_EVALUATED,
    PREMISE_NOT_MET,
    WALL_CLOCK,
    Claim,
    Interval,
    decide,
    is_stand_in,
    premise,
    read_claims,
    substitution_text,
    write_claims,
)
from icml26.common.config import ConfigError, merged, paper_section, validate
from icml26.common.device import resolve_device
from icml26.common.registry import SCALES, papers
from icml26.common.summary import build_summary

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"


def load(name):
    return yaml.safe_load((ROOT / "config" / name).read_text())


def section(slug, scale="quick"):
    return paper_section(ROOT / "config" / "papers" / f"{slug}.yaml", scale)


@pytest.mark.parametrize("schema", sorted(SCHEMAS.glob("*.schema.yaml")), ids=lambda p: p.name)
def test_every_schema_is_a_valid_json_schema(schema):
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(yaml.safe_load(schema.read_text()))


@pytest.mark.parametrize("scale", SCALES)
def test_shipped_configs_are_valid_for_every_paper_and_scale(scale):
    top = {**load("config.yaml"), **load(f"{scale}.yaml")}
    assert top["scale"] == scale
    validate(top, SCHEMAS / "config.schema.yaml")
    for paper in papers(ROOT):
        validate(section(paper.slug, scale), SCHEMAS / f"{paper.slug}.schema.yaml", prefix=paper.slug)


def test_paper_sections_merge_like_snakemake_config_files(tmp_path):
    assert merged({"a": {"x": 1, "y": [1, 2]}, "b": 1}, {"a": {"y": [3]}, "c": 2}) == {
        "a": {"x": 1, "y": [3]},
        "b": 1,
        "c": 2,
    }
    path = tmp_path / "p.yaml"
    path.write_text("quick: {n: 10, grid: {low: 1, high: 5}}\nsmoke: {n: 2}\n")
    assert paper_section(path, "smoke") == {"n": 2, "grid": {"low": 1, "high": 5}}
    assert paper_section(path, "paper") == {"n": 10, "grid": {"low": 1, "high": 5}}  # no paper overlay
    assert paper_section(path, "smoke", {"grid": {"high": 9}}) == {"n": 2, "grid": {"low": 1, "high": 9}}
    path.write_text("quick: {n: 10}\nsmok: {n: 2}\n")
    with pytest.raises(ConfigError, match="smok"):
        paper_section(path, "smoke")


def test_errors_name_the_offending_keys():
    cfg = section("ski_rental")
    cfg["B_values"] = [1, 20]
    cfg["lambdas"] = [0.5, 1.5]
    with pytest.raises(ConfigError) as err:
        validate(cfg, SCHEMAS / "ski_rental.schema.yaml", prefix="ski_rental")
    assert "ski_rental.B_values[0]" in str(err.value)
    assert "ski_rental.lambdas[1]" in str(err.value)


def test_a_paper_section_that_is_not_a_mapping_is_named():
    with pytest.raises(ConfigError, match=r"^invalid config: netdiff: must be a mapping of its settings .* "
                       r"got str 'fast'$"):  # fmt: skip
        paper_section(ROOT / "config" / "papers" / "netdiff.yaml", "quick", "fast")


def test_unknown_keys_are_rejected():
    cfg = load("config.yaml")
    cfg["scael"] = "smoke"
    with pytest.raises(ConfigError, match="scael"):
        validate(cfg, SCHEMAS / "config.schema.yaml")


NONE = {"premises_note": "closed form: nothing presupposed"}


def test_claims_round_trip_and_reject_bad_records(tmp_path):
    readable = {"headline": "0.5 vs the paper's 1.0", "evidence": ["tables/t.csv", "figures/f.png"], **NONE}
    interval = [Interval("x", 0.5, 0.4, 0.6, 1.0, "<=", "t over 3 seeds", dof=2)]
    claims = [
        Claim("a", "x <= 1", 1.0, {"x": 0.5}, "<=", HOLDS, interval=interval, **readable),
        Claim("b", "y", None, {"k": 2}, "all", FAILS, note="why", **readable),
        Claim(
            "c",
            "z",
            None,
            {"k": 2},
            "all",
            PREMISE_NOT_MET,
            premises=[premise("skill", 0.01, 0.05, ">=", "learns from its successes")],
            headline="h",
            evidence=["tables/t.csv"],
        ),
    ]
    write_claims(tmp_path / "claims.json", claims, substitution="none")
    assert read_claims(tmp_path / "claims.json") == [replace(c, substitution="none") for c in claims]
    records = json.loads((tmp_path / "claims.json").read_text())
    assert [r["holds"] for r in records] == [True, False, None]  # old readers: derived from the state
    assert [r["state"] for r in records] == [HOLDS, FAILS, PREMISE_NOT_MET]
    with pytest.raises(ValueError, match="headline"):
        write_claims(
            tmp_path / "c.json",
            [Claim("c", "s", 1, 1, "<=", HOLDS, evidence=["tables/t.csv"], **NONE)],
            substitution="none",
        )
    with pytest.raises(ValueError, match="evidence"):
        write_claims(
            tmp_path / "c.json", [Claim("c", "s", 1, 1, "<=", HOLDS, headline="h", **NONE)], substitution="none"
        )
    with pytest.raises(ValueError, match="must be a path under"):
        write_claims(
            tmp_path / "c.json",
            [Claim("c", "s", 1, 1, "<=", HOLDS, headline="h", evidence=["../x.csv"], **NONE)],
            substitution="none",
        )
    assert not (tmp_path / "c.json").exists()
    with pytest.raises(ValueError, match="comparator"):
        Claim("c", "s", 1, 1, "~", HOLDS, **NONE)
    with pytest.raises(ValueError, match="state must be one of"):
        Claim("c", "s", 1, 1, "<=", "maybe", **NONE)
    with pytest.raises(ValueError, match="note"):
        Claim("c", "s", 1, None, "<=", NOT_EVALUATED, **NONE)
    with pytest.raises(ValueError, match="premises_note"):
        Claim("c", "s", 1, 1, "<=", HOLDS)
    with pytest.raises(ValueError, match="duplicate"):
        write_claims(tmp_path / "dup.json", [claims[0], claims[0]], substitution="none")


def test_every_written_claim_carries_the_runs_substitution(tmp_path):
    claim = Claim("c", "s", 1, 1, "<=", HOLDS, headline="h", evidence=["tables/t.csv"], **NONE)
    write_claims(tmp_path / "c.json", [claim, replace(claim, id="d")], substitution="simulated EEG stands in")
    assert [c.substitution for c in read_claims(tmp_path / "c.json")] == ["simulated EEG stands in"] * 2
    with pytest.raises(ValueError, match="substitution"):
        write_claims(tmp_path / "e.json", [claim], substitution=" ")
    assert not (tmp_path / "e.json").exists()
    assert is_stand_in("simulated EEG stands in") and not is_stand_in("none (synthetic by design)")
    assert substitution_text("a model trained here", {"model.checkpoint": None}) == "a model trained here"
    assert substitution_text("a model trained here", {"model.checkpoint": "/m", "data.source": None}) == (
        "a model trained here (by default; this run used the user's own model.checkpoint = /m)"
    )


def test_a_state_that_contradicts_its_intervals_or_premises_is_refused():
    straddles = [Interval("auroc", 0.522, 0.31, 0.73, 0.5, ">", "t over 3 seeds")]
    with pytest.raises(ValueError, match="contradicts its intervals"):  # 'holds' on a coin flip
        Claim("c", "s", 1, 1, ">", HOLDS, interval=straddles, **NONE)
    assert Claim("c", "s", 1, 1, ">", INCONCLUSIVE, interval=straddles, **NONE).holds is None
    unmet = [premise("copying", -0.01, 0.1, ">=", "nothing to transfer")]
    with pytest.raises(ValueError, match="premises not met"):  # refuted, though untestable
        Claim("c", "s", 1, 1, ">", FAILS, premises=unmet)
    with pytest.raises(ValueError, match="premises not met"):  # premise not met, though every premise is met
        Claim("c", "s", 1, 1, ">", PREMISE_NOT_MET, premises=[premise("p", 1, 0, ">=", "w")])
    with pytest.raises(ValueError, match="cannot be inconclusive"):
        Claim("c", "s", 1, 1, ">", INCONCLUSIVE, **NONE)


@pytest.mark.parametrize(
    ("low", "estimate", "high", "side", "margin", "state"),
    [
        (0.55, 0.6, 0.65, ">", None, HOLDS),  # clears 0.5
        (0.40, 0.45, 0.48, ">", None, FAILS),  # wholly below
        (0.45, 0.52, 0.60, ">", None, INCONCLUSIVE),  # straddles
        (0.30, 0.40, 0.52, ">", 0.05, FAILS),  # straddles 0.5 but lies wholly short of its practical size, 0.55
        (0.45, 0.55, 0.60, ">", 0.05, INCONCLUSIVE),  # reaches 0.55 and 0.45: the estimate alone never decides
        (0.52, 0.53, 0.54, ">", 0.05, FAILS),  # above 0.5 but wholly short of 0.55
        (0.53, 0.56, 0.60, ">", 0.05, INCONCLUSIVE),  # clears 0.5, not 0.5 + the margin
        (0.56, 0.58, 0.60, ">", 0.05, HOLDS),  # clears the threshold by the margin
        (0.40, 0.42, 0.44, "<", 0.05, HOLDS),  # below 0.5 - 0.05
        (0.40, 0.45, 0.48, "<", None, HOLDS),
        (0.50, 0.55, 0.60, ">=", None, HOLDS),  # the threshold itself passes '>='
        (0.50, 0.55, 0.60, ">", None, INCONCLUSIVE),  # ... but not '>'
    ],
)
def test_an_interval_decides_by_where_it_lies_against_the_threshold(low, estimate, high, side, margin, state):
    assert Interval("s", estimate, low, high, 0.5, side, "m", margin=margin).state == state


def test_decide_combines_intervals_and_premises():
    clear, straddle, wrong = (
        Interval("s", e, lo, hi, 0.0, ">", "m") for e, lo, hi in ((0.2, 0.1, 0.3), (0.1, -0.1, 0.3), (-0.2, -0.3, -0.1))
    )
    assert decide([clear, clear]) == HOLDS
    assert decide([clear, straddle]) == INCONCLUSIVE
    assert decide([straddle, wrong]) == FAILS
    assert decide([clear], premises=[premise("p", 0, 1, ">=", "w")]) == PREMISE_NOT_MET
    assert decide(exact=True) == HOLDS and decide(exact=False) == FAILS


def test_what_would_decide_an_inconclusive_interval():
    auroc = intervals.over_seeds("auroc", [0.44, 0.51, 0.61], 0.5, ">")
    assert auroc.state == INCONCLUSIVE
    # sd 0.085, gap 0.02: n with t(n - 1) x 0.085 / sqrt(n) < 0.02 is 73 (the normal quantile would say 70)
    assert auroc.to_decide(3) == "about 73 seeds at this effect size (now 3)"
    tiny = Interval("x", 0.001, -0.3, 0.302, 0.0, ">", "t over 2 seeds")  # a ~zero effect would need ~90,000 seeds
    assert tiny.to_decide(2) == "more than 1,000 seeds: the effect is too small to settle (now 2)"
    assert "one gives no interval" in intervals.over_seeds("x", [0.6], 0.5, ">").to_decide(1)


def test_intervals_match_their_textbook_forms():
    from scipy import stats

    values = [0.988, 0.988, 0.999]
    ratio = intervals.over_seeds("r", values, 1.0, "<")
    half = stats.t.ppf(0.975, 2) * np.std(values, ddof=1) / np.sqrt(3)
    assert (ratio.low, ratio.high) == pytest.approx((np.mean(values) - half, np.mean(values) + half))
    assert ratio.state == INCONCLUSIVE  # the committed control variate's 'reduces variance'
    exact = intervals.proportion("p", 0, 10, 0.5, "<")
    assert exact.low == 0 and exact.high == pytest.approx(1 - 0.025 ** (1 / 10))  # Clopper-Pearson, k = 0
    assert exact.state == HOLDS
    welch = intervals.seed_difference("d", [1.0, 2.0, 3.0], [0.0, 0.0, 1.0])
    direct = stats.ttest_ind([1.0, 2.0, 3.0], [0.0, 0.0, 1.0], equal_var=False).confidence_interval()
    assert (welch.low, welch.high) == pytest.approx((direct.low, direct.high))


def test_a_leave_one_out_range_decides_only_what_no_single_seed_decides():
    stable = intervals.leave_one_out_range("shift", 3, [3, 2, 3], 1, ">")
    assert (stable.low, stable.high, stable.state, stable.level) == (2, 3, HOLDS, None)
    flips = intervals.leave_one_out_range("shift", 2, [2, 1, 2], 1, ">")
    assert flips.state == INCONCLUSIVE
    assert intervals.leave_one_out_range("shift", 1, [1, 0, 1], 1, ">").state == FAILS
    assert intervals.leave_one_out_range("shift", 3, [3, 3], 1, ">").state == INCONCLUSIVE  # two seeds: no range


def test_seeds_are_never_bootstrapped():
    from icml26.common.bootstrap import difference

    rng = np.random.default_rng(0)
    a, b = rng.random((2, 40)) + 0.2, rng.random((2, 40))
    assert difference(a, b).method == "t over 2 and 2 seeds and 40 items"
    assert difference(rng.random((5, 40)), rng.random((5, 40))).method == "t over 5 and 5 seeds and 40 items"


def test_records_written_before_states_read_as_their_old_verdicts(tmp_path):
    old = [
        {
            "id": "a",
            "statement": "s",
            "paper_value": 1,
            "measured": 1,
            "comparator": "<=",
            "holds": True,
            "note": "",
            "details": {},
            "headline": "h",
            "evidence": ["tables/t.csv"],
        },
        {
            "id": "b",
            "statement": "s",
            "paper_value": 1,
            "measured": {},
            "comparator": "<=",
            "holds": None,
            "note": "not run",
            "details": {},
            "headline": "h",
            "evidence": ["tables/t.csv"],
        },
    ]
    (tmp_path / "claims.json").write_text(json.dumps(old))
    claims = read_claims(tmp_path / "claims.json")
    assert [c.state for c in claims] == [HOLDS, NOT_EVALUATED]
    assert claims[0].interval == "not recorded (written before verdict states)"  # never passed off as exact
    assert claims[0].substitution.startswith("not recorded")  # never passed off as the paper's own setting


def test_summary_lists_every_claim_with_its_state_interval_premises_and_evidence(tmp_path):
    straddle = [Interval("x", 1.5, 1.0, 2.5, 2.0, "<=", "t over 3 seeds")]
    unmet = [premise("skill", 0.01, 0.05, ">=", "w")]
    for paper, state, kwargs in (
        ("paper_a", HOLDS, NONE),
        ("paper_b", FAILS, NONE),
        ("paper_c", INCONCLUSIVE, {"interval": straddle, **NONE}),
        ("paper_d", PREMISE_NOT_MET, {"premises": unmet}),
    ):
        write_claims(
            tmp_path / paper / "claims.json",
            [
                Claim(
                    f"{paper}_c",
                    "s",
                    2.0,
                    {"x": 1.5},
                    "<=",
                    state,
                    headline=f"{paper}: 1.5 vs the paper's 2.0",
                    evidence=["tables/t.csv", "figures/f.png"],
                    by_construction="a scripted agent" if paper == "paper_a" else "",
                    **kwargs,
                )
            ],
            substitution="a model trained here stands in for GPT-2" if paper == "paper_b" else "none (synthetic)",
        )
    out, page = tmp_path / "summary.md", tmp_path / "summary.rst"
    papers = ["paper_d", "paper_b", "paper_c", "paper_a"]
    build_summary([tmp_path / p / "claims.json" for p in papers], out, scale="smoke", report_page=page)
    text = out.read_text()
    # paper_a's holds is built into its setup: in its own column, not among the holds (the columns add up)
    assert "| [paper_a](#paper_a) | paper's | 1 | 0 | 0 | 0 | 0 | 0 | 1 |" in text
    assert "| [paper_d](#paper_d) | paper's | 1 | 0 | 0 | 0 | 1 | 0 | 0 |" in text
    assert "| **all** | 1 stand-in | 4 | 0 | 1 | 1 | 1 | 0 | 1 |" in text
    assert "| [paper_b](#paper_b) | stand-in | 1 | 0 | 1 |" in text
    assert (
        "Substitution: a model trained here stands in for GPT-2." in text and "Substitution: none (synthetic)." in text
    )
    assert (
        "| paper_b_c | paper_b: 1.5 vs the paper's 2.0 | **does not hold** | deterministic "
        "| none: closed form: nothing presupposed | [t.csv](paper_b/tables/t.csv), [f.png](paper_b/figures/f.png) |"
    ) in text
    assert "**holds (by construction)**" in text
    assert "x 1.5 [1, 2.5] vs <= 2 (t over 3 seeds)" in text and "skill 0.01 >= 0.05: NOT met" in text
    assert "{" not in text  # no JSON anywhere
    assert text.index("## paper_a") < text.index("## paper_b")
    assert (
        "4 claims: 0 holds, 1 does not hold, 1 inconclusive, 1 premise not met, 0 not evaluated; 1 by construction "
        "(built into the setup, not a result)"
    ) in text
    from docutils.core import publish_parts

    html = publish_parts(page.read_text(), writer="html", settings_overrides={"halt_level": 2})["html_body"]
    assert "<td>paper_b: 1.5 vs the paper's 2.0</td>" in html.replace("<p>", "").replace("</p>", "")
    assert html.count("<tr>") == 1 + 5 + 4 * 2  # counts table (header, four papers, all), four claim tables


def test_wall_clock_claims_go_to_the_measured_summary_with_their_machine(tmp_path):
    from icml26.common.timing import interleaved, machine, medians

    readable = {"headline": "h", "evidence": ["timing/seconds.csv"]}
    write_claims(
        tmp_path / "p" / "claims.json",
        [Claim("c", "s", 1.0, 1.0, "<=", HOLDS, **readable, **NONE)],
        substitution="none",
    )
    seconds = interleaved({"fast": lambda: None, "slow": lambda: sum(range(20000))}, repeats=5)
    assert [len(v) for v in seconds.values()] == [5, 5] and medians(seconds)["fast"] < medians(seconds)["slow"]
    speed_up = medians(seconds)["slow"] / medians(seconds)["fast"]
    write_claims(
        tmp_path / "p" / "timing" / "claims.json",
        [
            Claim(
                "speed",
                "slow/fast >= 2",
                2.0,
                speed_up,
                ">=",
                decide(exact=speed_up >= 2),
                interval=WALL_CLOCK,
                details={"machine": machine()},
                **readable,
                **NONE,
            )
        ],
        substitution="none",
    )
    out, timed = tmp_path / "summary.md", tmp_path / "timing" / "summary.md"
    build_summary(
        [tmp_path / "p" / "claims.json"],
        out,
        scale="smoke",
        timing_claims=[tmp_path / "p" / "timing" / "claims.json"],
        timing_summary=timed,
    )
    assert "speed" not in out.read_text() and "`timing/summary.md`" in out.read_text()
    row = [line for line in timed.read_text().splitlines() if line.startswith("| p | speed |")][0]
    assert "(measured)" in row and f"{machine()['cores']} cores" in row
    build_summary([tmp_path / "p" / "claims.json"], out, scale="smoke", timing_summary=timed)
    assert "no paper makes a wall-clock claim" in timed.read_text()


def test_device_setting():
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") in ("cpu", "cuda")
    with pytest.raises(ValueError, match="device"):
        resolve_device("tpu")


def test_a_claim_whose_premise_failed_also_says_what_its_intervals_would_decide():
    from icml26.common.claims import verdict_word

    unmet = [premise("learns", 0.1, 0.5, ">=", "the method must learn the task first")]
    below = [Interval("gap", -0.25, -0.5, -0.06, 0.0, ">", "t over 3 seeds")]
    claim = Claim("c", "s", None, {"gap": -0.25}, ">", PREMISE_NOT_MET, interval=below, premises=unmet)
    assert verdict_word(claim) == "premise not met (its intervals alone: does not hold)"
    exact = Claim("e", "s", None, {"gap": -0.25}, ">", PREMISE_NOT_MET, premises=unmet)
    assert verdict_word(exact) == "premise not met"  # a deterministic claim has no intervals to read


def test_every_paper_has_paper_scale_verdicts_or_a_reason_it_has_none():
    """The summary, report and README never leave the paper-scale cell blank: a committed verdict, or a line in
    results/paper/not_run.yaml saying why there is none (and no stale reason beside a committed verdict)."""
    from icml26.common.registry import papers
    from icml26.common.summary import NOT_RUN, not_run_reasons

    reasons = not_run_reasons(ROOT / NOT_RUN)
    for paper in papers(ROOT):
        run = (ROOT / "results" / "paper" / paper.slug / "claims.json").is_file()
        assert run != (paper.slug in reasons), paper.slug
    assert set(reasons) <= {p.slug for p in papers(ROOT)}


def test_the_scales_table_shows_each_scale_or_why_not(tmp_path):
    import shutil

    from icml26.common.summary import scales_rows

    (tmp_path / "results" / "quick" / "a").mkdir(parents=True)
    shutil.copyfile(ROOT / "results/quick/ski_rental/claims.json", tmp_path / "results/quick/a/claims.json")
    rows = scales_rows(["a", "b"], tmp_path, {"a": "needs a GPU"})
    assert rows[0] == ("a", "2 of 3 hold; 1 does not hold", "not run: needs a GPU")
    assert rows[1] == ("b", "not run", "not run")  # no reason recorded: says so, never blank


def test_make_run_ends_by_printing_each_verdict_and_where_the_summary_is(tmp_path):
    import shutil

    from icml26.common.summary import console_verdicts

    folder = tmp_path / "results" / "quick" / "ski_rental"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "results" / "quick" / "ski_rental" / "claims.json", folder / "claims.json")
    lines = console_verdicts("quick", ["ski_rental", "dvm_ad"], subset=True, root=tmp_path)
    assert lines[0] == "ski_rental (2 of 3 hold; 1 does not hold):"
    assert lines[1].startswith("  does not hold    distributional_beats_point: mean consistency gain")
    assert [line.split()[0] for line in lines[2:4]] == ["holds", "holds"]
    assert lines[4].startswith("dvm_ad: no verdicts (results/quick/dvm_ad/claims.json missing")
    assert lines[-1].startswith("every verdict with its evidence: results/quick/subset/summary.md")
    assert console_verdicts("quick", ["ski_rental"], subset=False, root=tmp_path)[-1].startswith(
        "every verdict with its evidence: results/quick/summary.md"
    )


def test_the_measured_wall_clock_claims_are_counted_apart_once_each(tmp_path):
    from icml26.common.summary import measured_note

    record = {
        "machine": "M",
        "figures": {  # one claim shown in two figures is one claim
            "timing/figures/a.png": {"id": "fast", "headline": "0.99x", "holds": False, "state": "does not hold"},
            "timing/figures/b.png": {"id": "fast", "headline": "0.99x", "holds": False, "state": "does not hold"},
        },
    }
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "measured.json").write_text(json.dumps(record))
    note = measured_note([tmp_path / "p" / "measured.json"])
    assert note.startswith("1 claim on wall-clock time, counted apart (measured, never byte-identical")
    assert note.endswith("p `fast` **does not hold** (measured on M): 0.99x.")
    assert measured_note([]) == ""
