"""The spec's headline claims, judged from the per-spec table.

"Most mutants are killed" is read as a kill rate above one half (``MOST``); the other thresholds are
the claims' own (every gold spec passes everything, no refutation of a correct spec, every hostile
spec handled). The third claim compares the test-based verdicts with the equivalence method by the
AUROC of a verdict score (correct 1, unknown 1/2, incorrect 0) separating correct-by-construction
specs (gold, equivalent rewrites) from mutants that differ from the gold spec.

Evidence strength: the gold and rewrite pass rates and the soundness counts are exact (kernel-checked proofs on
fixed specs: one failure is a fact, not noise); the kill rate gets a Clopper-Pearson interval over the judged
mutants; the AUROC comparison a 95 % percentile bootstrap over the specs (correct and wrong ones resampled apart,
both methods on the same resample) of the difference in AUROC, which must lie above the practical margin
(``criteria.POINT``: one AUROC point).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common import intervals
from ..common.claims import DETERMINISTIC, Claim, Interval, decide
from ..common.criteria import POINT
from .tables import WELL_FORMED

MOST = 0.5
"""'Most mutants are killed': strictly more than half of the judged mutants."""

_SCORE = {"correct": 1.0, "unknown": 0.5, "incorrect": 0.0}
NO_PREMISE = "kernel-checked verdicts on specs built here: nothing presupposed beyond the harness itself"
RESAMPLES = 2000


def _judged_mutants(specs: pd.DataFrame) -> pd.DataFrame:
    mutants = specs[(specs["origin"] == "mutant") & specs["verdict"].isin(WELL_FORMED)]
    accidental = (mutants["random_label"] == "equivalent_on_random") & (mutants["verdict"] != "incorrect")
    return mutants[~accidental]


def discriminates(specs: pd.DataFrame) -> tuple[Claim, dict]:
    gold = specs[specs["origin"] == "gold"]
    rewrites = specs[specs["origin"] == "equivalent"]
    judged = _judged_mutants(specs)
    gold_pass = float(((gold["soundness"] == 1) & (gold["completeness"] == 1)).mean()) if len(gold) else float("nan")
    kill = float((judged["verdict"] == "incorrect").mean()) if len(judged) else float("nan")
    rewrite_pass = float((rewrites["verdict"] == "correct").mean()) if len(rewrites) else float("nan")
    found = [
        intervals.exact("gold_pass_rate", gold_pass, 1.0, ">=", "kernel-checked proofs on fixed specs"),
        intervals.proportion(
            "mutant_kill_rate",
            int((judged["verdict"] == "incorrect").sum()),
            max(len(judged), 1),
            MOST,
            ">",
            unit="judged mutants",
        ),
        intervals.exact("equivalent_pass_rate", rewrite_pass, 1.0, ">=", "kernel-checked proofs on fixed specs"),
    ]
    measured = {
        "gold_pass_rate": gold_pass,
        "mutant_kill_rate": kill,
        "equivalent_pass_rate": rewrite_pass,
        "gold_specs": len(gold),
        "judged_mutants": len(judged),
        "equivalent_rewrites": len(rewrites),
    }
    failing = sorted(
        rewrites.loc[rewrites["verdict"] != "correct", "candidate"].astype(str)
        + "@"
        + rewrites.loc[rewrites["verdict"] != "correct", "problem"].astype(str)
    )
    claim = Claim(
        id="tests_discriminate_spec_quality",
        statement=(
            "Test-based obligations discriminate spec quality: every gold spec proves all its accept and "
            f"reject obligations, most mutants (> {MOST:.0%}) are killed, every equivalent rewrite passes."
        ),
        paper_value=None,
        measured=measured,
        comparator="all",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=(
            "Mutants that random testing found equivalent to the gold spec are left out of the kill rate and "
            "counted in tables/kill_rate.csv. The paper gives no number for this claim."
            + (f" Rewrites not judged correct: {', '.join(failing[:8])}." if failing else "")
        ),
        headline=(
            f"gold specs passing everything {gold_pass:.0%} of {len(gold)}; mutants killed {kill:.1%} of "
            f"{len(judged)}; equivalent rewrites judged correct {rewrite_pass:.1%} of {len(rewrites)}"
        ),
        evidence=["tables/specs.csv", "tables/summary.csv", "tables/kill_rate.csv", "figures/kill_rate.png"],
    )
    return claim, {"gold_pass_rate": gold_pass, "mutant_kill_rate": kill, "equivalent_pass_rate": rewrite_pass}


def sound(specs: pd.DataFrame, hostile: pd.DataFrame) -> tuple[Claim, dict]:
    correct_by_construction = specs[specs["origin"].isin(["gold", "equivalent"])]
    false_alarms = int(correct_by_construction["refuted"].sum())
    untrusted = int((specs["status"] == "untrusted").sum())
    handled = int(hostile["handled"].astype(bool).sum())
    contradictions = int(((specs["equivalence_verdict"] == "correct") & (specs["verdict"] == "incorrect")).sum())
    exact = bool(false_alarms == 0 and untrusted == 0 and contradictions == 0 and handled == len(hostile))
    measured = {
        "refuted_obligations_of_correct_specs": false_alarms,
        "untrusted_files": untrusted,
        "proved_equivalent_yet_refuted": contradictions,
        "hostile_handled": handled,
        "hostile_specs": len(hostile),
    }
    claim = Claim(
        id="verdicts_are_sound",
        statement=(
            "The evaluation's verdicts are sound: no obligation of a gold spec or an equivalent rewrite is "
            "refuted, every proof is closed under the global context (Print Assumptions), no spec proved "
            "equivalent to the gold one is refuted on a test, and every hostile spec is rejected or contained."
        ),
        paper_value=None,
        measured=measured,
        comparator="all",
        state=decide(exact=exact),
        interval=DETERMINISTIC,
        premises_note=NO_PREMISE,
        note=(
            "A proved obligation is a kernel-checked theorem about one trusted test; a mutant whose HumanEval "
            "obligations are all proved yet random testing shows it differs is a gap of the tests, counted in "
            "tables/kill_rate.csv (survived_correct), not an unsound proof."
        ),
        headline=(
            f"{false_alarms} refuted obligations on {len(correct_by_construction)} correct specs; "
            f"{untrusted} files with an assumption; {contradictions} specs both proved equivalent and refuted; "
            f"{handled} of {len(hostile)} hostile specs rejected or contained"
        ),
        evidence=["tables/specs.csv", "tables/hostile.csv"],
    )
    return claim, measured


def _auroc(scores_positive: list[float], scores_negative: list[float]) -> float:
    """P(score of a correct spec > score of a wrong one) + P(tie) / 2: Mann-Whitney U over n1 n2."""
    from scipy.stats import mannwhitneyu

    if not scores_positive or not scores_negative:
        return float("nan")
    if len(set(scores_positive) | set(scores_negative)) == 1:
        return 0.5
    statistic = mannwhitneyu(scores_positive, scores_negative, alternative="two-sided").statistic
    return float(statistic / (len(scores_positive) * len(scores_negative)))


def _auroc_of_levels(positive: np.ndarray, negative: np.ndarray) -> np.ndarray:
    """AUROC per row of verdict scores coded 0 (incorrect), 1 (unknown), 2 (correct): P(pos > neg) + P(tie) / 2
    from the counts of each level (rows: bootstrap resamples)."""
    p = np.stack([(positive == k).mean(axis=-1) for k in range(3)], axis=-1)
    n = np.stack([(negative == k).mean(axis=-1) for k in range(3)], axis=-1)
    above = p[..., 1] * n[..., 0] + p[..., 2] * (n[..., 0] + n[..., 1])
    return above + 0.5 * (p * n).sum(axis=-1)


def auroc_difference(correct: pd.DataFrame, wrong: pd.DataFrame, seed: int = 0) -> Interval:
    """Bootstrap interval of AUROC(test-based) - AUROC(equivalence), both on the same resampled specs."""
    code = {"incorrect": 0, "unknown": 1, "correct": 2}
    scores = {
        name: (frame["verdict"].map(code).to_numpy(), frame["equivalence_verdict"].map(code).to_numpy())
        for name, frame in (("correct", correct), ("wrong", wrong))
    }
    rng = np.random.default_rng(seed)
    pick_c = rng.integers(len(correct), size=(RESAMPLES, len(correct)))
    pick_w = rng.integers(len(wrong), size=(RESAMPLES, len(wrong)))
    tests = _auroc_of_levels(scores["correct"][0][pick_c], scores["wrong"][0][pick_w])
    proofs = _auroc_of_levels(scores["correct"][1][pick_c], scores["wrong"][1][pick_w])
    point = float(
        _auroc_of_levels(scores["correct"][0], scores["wrong"][0])
        - _auroc_of_levels(*(scores[k][1] for k in ("correct", "wrong")))
    )
    low, high = np.quantile(tests - proofs, [0.025, 0.975])
    return Interval(
        "auroc_difference",
        point,
        min(float(low), point),
        max(float(high), point),
        0.0,
        ">",
        f"bootstrap over {len(correct)} correct and {len(wrong)} wrong specs",
        margin=POINT,
    )


def correct_specs(specs: pd.DataFrame) -> pd.DataFrame:
    """The correct-by-construction specs both methods are judged on: gold specs and their equivalent rewrites."""
    return specs[specs["origin"].isin(["gold", "equivalent"]) & specs["verdict"].isin(WELL_FORMED)]


def undecided_on_correct(specs: pd.DataFrame) -> Interval:
    """The complexity claim's statistic: the share of correct specs the equivalence proof leaves undecided minus the
    share the tests leave undecided, paired over the same specs (bootstrap), against 0. On a wrong spec the
    equivalence method can only say unknown, so only correct specs can show verification complexity at work."""
    correct = correct_specs(specs)
    left_open = (correct["equivalence_verdict"] == "unknown").astype(float) - (correct["verdict"] == "unknown")
    return intervals.over_items("undecided_correct_difference", left_open.to_numpy(), 0.0, ">", unit="specs")


def verification_obscures(specs: pd.DataFrame) -> tuple[Claim, dict]:
    correct = correct_specs(specs)
    different = _judged_mutants(specs)
    different = different[(different["random_label"] == "witnessed")]
    test_auc = _auroc([_SCORE[v] for v in correct["verdict"]], [_SCORE[v] for v in different["verdict"]])
    equivalence_auc = _auroc(
        [_SCORE[v] for v in correct["equivalence_verdict"]], [_SCORE[v] for v in different["equivalence_verdict"]]
    )
    undecided_tests = float((pd.concat([correct, different])["verdict"] == "unknown").mean())
    undecided_equivalence = float((pd.concat([correct, different])["equivalence_verdict"] == "unknown").mean())
    auroc = auroc_difference(correct, different)
    found = [auroc]  # the pre-registered statistic (issue 66: the one below replaced it after the numbers were seen)
    beside = undecided_on_correct(specs)
    unproved = correct[correct["equivalence_verdict"] == "unknown"]
    measured = {
        "undecided_correct_difference": beside.estimate,
        "undecided_correct_difference_interval": [beside.low, beside.high],
        "undecided_correct_tests": float((correct["verdict"] == "unknown").mean()),
        "undecided_correct_equivalence": float((correct["equivalence_verdict"] == "unknown").mean()),
        "unproved_correct_specs": [
            f"{r.problem}:{r.candidate}" for r in unproved.sort_values(["problem", "candidate"]).itertuples()
        ],
        "auroc_difference": auroc.estimate,
        "auroc_difference_interval": [auroc.low, auroc.high],
        "auroc_tests": test_auc,
        "auroc_equivalence": equivalence_auc,
        "undecided_tests": undecided_tests,
        "undecided_equivalence": undecided_equivalence,
        "correct_specs": len(correct),
        "witnessed_wrong_mutants": len(different),
    }
    claim = Claim(
        id="verification_complexity_obscures_quality",
        statement=(
            "Verification complexity obscures spec quality: proving equivalence with the gold spec (the "
            "existing style of evaluation) separates correct specs from wrong ones less well than the "
            "test-based obligations (AUROC of the verdict score; 95 % bootstrap interval of the difference above "
            f"the practical margin {POINT:g}, one AUROC point)."
        ),
        paper_value=None,
        measured=measured,
        comparator=">",
        state=decide(found),
        interval=found,
        premises_note=NO_PREMISE,
        note=(
            "Verdict score: correct 1, unknown 1/2, incorrect 0. Correct specs: gold and equivalent rewrites; "
            "wrong specs: mutants that a refuted obligation (HumanEval or random test) shows to differ. The "
            "equivalence method uses the same portfolio and a shorter timeout, and only searches for a proof, so "
            "on a wrong spec it can only say unknown (scored 1/2, so an equivalence method that proves every "
            "correct spec separates as well as the tests: nothing is built in). Criterion: the AUROC difference, "
            "fixed before the first run. From 2026-12-03 to 2026-12-05 the claim was decided instead on the share "
            "of correct specs left undecided, a statistic adopted after the numbers were known, whose comparison "
            "is confounded (the equivalence search has a 1 s timeout, the tests 5 s); it is reported beside "
            "(issue 66)."
        ),
        headline=(
            f"AUROC {test_auc:.3f} (tests) vs {equivalence_auc:.3f} (equivalence proof), difference "
            f"{auroc.estimate:+.3f} [{auroc.low:+.3f}, {auroc.high:+.3f}] (the pre-registered criterion); beside it, "
            f"correct specs left undecided {measured['undecided_correct_equivalence']:.1%} vs "
            f"{measured['undecided_correct_tests']:.1%}, difference {beside.estimate:+.3f} "
            f"[{beside.low:+.3f}, {beside.high:+.3f}] over {len(correct)} correct specs "
            f"({', '.join(measured['unproved_correct_specs']) or 'none unproved'}; the deciding statistic from "
            "2026-12-03, chosen after the numbers were seen, with a 1 s equivalence timeout against the tests' 5 s, "
            f"reverted 2026-12-05); undecided over all specs {undecided_tests:.1%} vs {undecided_equivalence:.1%}"
        ),
        evidence=["tables/specs.csv", "tables/by_level.csv", "figures/levels.png"],
    )
    return claim, measured
