"""The claims (each with a case where it fails), the result tables, and the rule functions on a user's
folder of candidate specs (the path a user's LLM outputs take)."""

import numpy as np
import pandas as pd
import pytest

from icml26.coins import rules, tables, verdict
from icml26.common.claims import FAILS, HOLDS, INCONCLUSIVE
from icml26.common.io import read_csv, read_json


def _spec(
    problem,
    candidate,
    origin,
    verdict_,
    equivalence="unknown",
    random_label="witnessed",
    level=0,
    operator="",
    soundness=1.0,
    completeness=1.0,
    refuted=0,
    status="ok",
):
    return {
        "problem": problem,
        "candidate": candidate,
        "origin": origin,
        "operator": operator,
        "level": level,
        "status": status,
        "message": "",
        "soundness": soundness,
        "completeness": completeness,
        "score": (soundness + completeness) / 2,
        "refuted": refuted,
        "verdict": verdict_,
        "random_label": random_label,
        "equivalence_verdict": equivalence,
    }


def _table(mutant_verdicts, rewrite_verdict="correct", gold_completeness=1.0, rewrite_refuted=0):
    rows = [
        _spec(1, "gold", "gold", "correct", "correct", completeness=gold_completeness),
        _spec(1, "equivalent:rename", "equivalent", rewrite_verdict, "correct", refuted=rewrite_refuted),
        _spec(1, "equivalent:mirror", "equivalent", "correct", "unknown"),
    ]
    rows += [
        _spec(
            1,
            f"mutant:m{i}",
            "mutant",
            v,
            level=1,
            operator="relation",
            random_label="equivalent_on_random" if v == "correct" and i == 0 else "witnessed",
        )
        for i, v in enumerate(mutant_verdicts)
    ]
    return pd.DataFrame(rows)


HOSTILE = pd.DataFrame([{"name": "axiom", "handled": True}, {"name": "bomb", "handled": True}])


def test_discrimination_states():
    good = _table(["correct"] + ["incorrect"] * 18 + ["unknown"] * 2)  # the first is an accidental equivalent
    claim, numbers = verdict.discriminates(good)
    assert claim.state == HOLDS and numbers["mutant_kill_rate"] == pytest.approx(18 / 20)
    few = verdict.discriminates(_table(["correct", "incorrect", "incorrect", "unknown"]))[0]  # 2 of 3
    assert few.state == INCONCLUSIVE  # Clopper-Pearson over three mutants reaches far below one half
    assert verdict.discriminates(_table(["incorrect"] + ["unknown"] * 19))[0].state == FAILS  # 1 of 20
    assert verdict.discriminates(_table(["incorrect"] * 20, gold_completeness=0.5))[0].state == FAILS
    assert verdict.discriminates(_table(["incorrect"] * 20, rewrite_verdict="unknown"))[0].state == FAILS


def test_soundness_fails_on_a_false_alarm_an_assumption_or_an_unhandled_hostile_spec():
    assert verdict.sound(_table(["incorrect"]), HOSTILE)[0].state == HOLDS
    assert verdict.sound(_table(["incorrect"]), HOSTILE)[0].interval == "deterministic"
    assert not verdict.sound(_table(["incorrect"], rewrite_verdict="incorrect", rewrite_refuted=1), HOSTILE)[0].holds
    untrusted = _table(["incorrect"])
    untrusted.loc[3, "status"] = "untrusted"
    assert not verdict.sound(untrusted, HOSTILE)[0].holds
    assert not verdict.sound(_table(["incorrect"]), HOSTILE.assign(handled=[True, False]))[0].holds
    contradiction = _table(["incorrect"])
    contradiction.loc[3, "equivalence_verdict"] = "correct"  # proved equivalent to the gold spec, yet refuted
    assert not verdict.sound(contradiction, HOSTILE)[0].holds


def test_obscuring_is_judged_on_the_pre_registered_auroc_difference():
    specs = _table(["incorrect"] * 30 + ["unknown"] * 2)
    specs = pd.concat([specs] + [specs[specs["origin"] != "mutant"]] * 9, ignore_index=True)  # 30 correct specs
    specs.loc[specs["origin"] != "mutant", "equivalence_verdict"] = ["correct", "unknown", "unknown"] * 10
    claim, numbers = verdict.verification_obscures(specs)
    # decided on the AUROC difference fixed before the first run, not on the share of correct specs left undecided
    # that replaced it after the numbers were seen (2026-12-03 to 2026-12-05; issue 66), which is reported beside
    assert [i.statistic for i in claim.interval] == ["auroc_difference"]
    assert claim.state == HOLDS and numbers["undecided_correct_difference"] == pytest.approx(2 / 3)
    assert "pre-registered" in claim.headline and "chosen after the numbers were seen" in claim.headline
    assert numbers["undecided_correct_tests"] == 0 and numbers["auroc_tests"] > numbers["auroc_equivalence"]
    both_prove = specs.assign(equivalence_verdict=specs["verdict"])  # the equivalence method sees as much
    assert verdict.verification_obscures(both_prove)[0].state == FAILS  # a difference of exactly zero
    # proves every correct spec and leaves every wrong one open (all it can do with them): the undecided share over
    # all specs is high, but with unknown scored 1/2 it separates as well as the tests: the claim does not hold
    built_in = specs.assign(equivalence_verdict=specs["origin"].map({"mutant": "unknown"}).fillna("correct"))
    claim, numbers = verdict.verification_obscures(built_in)
    assert claim.state == FAILS and numbers["undecided_equivalence"] > 0.4
    small = _table(["incorrect", "incorrect", "unknown"])  # one of three correct specs unproved: [0, 1]
    assert verdict.verification_obscures(small)[0].state == INCONCLUSIVE
    assert verdict._auroc([1.0, 1.0], [0.0, 0.5]) == 1.0 and verdict._auroc([0.5], [0.5]) == 0.5
    levels = verdict._auroc_of_levels(np.array([2, 2, 1]), np.array([0, 1, 1]))  # counts formula = Mann-Whitney
    assert levels == pytest.approx(verdict._auroc([1.0, 1.0, 0.5], [0.0, 0.5, 0.5]))


def test_kill_rates_leave_out_accidental_equivalents_and_count_ill_formed_mutants():
    specs = _table(["correct", "incorrect", "unknown"])
    specs.loc[len(specs)] = _spec(
        1,
        "mutant:bad",
        "mutant",
        "ill-formed",
        "ill-formed",
        level=1,
        operator="relation",
        status="ill-formed",
        random_label="ill-formed",
    )
    row = tables.kill_rates(specs).set_index("operator").loc["relation"]
    assert (row.mutants, row.ill_formed, row.accidental_equivalents, row.judged, row.killed) == (4, 1, 1, 2, 1)
    assert row.kill_rate == 0.5 and row.equivalence_kill_rate == 0.0


def test_a_user_s_folder_of_specs_is_checked_like_the_generated_ones(tmp_path):
    folder = tmp_path / "llm_specs" / "HumanEval_53"
    folder.mkdir(parents=True)
    (folder / "right.v").write_text("Definition spec (x y : Z) (result : Z) : Prop := result - y = x.\n")
    (folder / "wrong.v").write_text("Definition spec (x y : Z) (result : Z) : Prop := result = x * y.\n")
    (folder / "cheat.v").write_text("Axiom magic : False.\nDefinition spec (x y : Z) (result : Z) : Prop := True.\n")
    data = tmp_path / "out"
    rules.problems(
        str(data / "problems.json"), str(data / "tests.csv"), numbers=[53], source=None, random_tests=2, seed=0
    )
    limits = {"tactic_timeout_s": 3, "equivalence_timeout_s": 1, "file_timeout_s": 60, "memory_mb": 2048}
    rules.check(
        str(data / "problems.json"),
        str(data / "c.json"),
        str(data / "o.csv"),
        str(data / "f.csv"),
        str(data / "t.csv"),
        problem="HumanEval_53",
        source=None,
        mutation={"operators": ["true"], "per_operator": 1, "level2": 0},
        rewrites=[],
        user_dir=str(tmp_path / "llm_specs"),
        obligations={"rejects_per_test": 1, "random_rejects": 1},
        limits=limits,
        seed=0,
    )
    rules.summarise(
        [str(data / "c.json")],
        [str(data / "o.csv")],
        [str(data / "f.csv")],
        str(data / "specs.csv"),
        str(data / "kill.csv"),
        str(data / "level.csv"),
        str(data / "summary.csv"),
    )
    specs = read_csv(data / "specs.csv").set_index("candidate")
    assert specs.loc["gold", "verdict"] == "correct" and specs.loc["mutant:true@0", "verdict"] == "incorrect"
    assert (
        specs.loc["user:right", "verdict"] == "correct" and specs.loc["user:right", "equivalence_verdict"] == "correct"
    )
    assert specs.loc["user:wrong", "verdict"] == "incorrect"
    assert specs.loc["user:cheat", "verdict"] == "rejected" and "Axiom" in specs.loc["user:cheat", "message"]
    assert {c["name"] for c in read_json(data / "c.json")} == set(specs.index)


def test_the_levels_figure_draws_the_complexity_claims_statistic_against_its_threshold():
    from icml26.coins import plots

    specs = _table(["incorrect", "incorrect", "unknown"])  # one of three correct specs left open by the proof
    by_level = pd.DataFrame(
        {"level": [0, 1], "mean_score": [1.0, 0.5], "correct": [1.0, 0.2], "equivalence_correct": [0.9, 0.0]}
        | {"unknown": [0.0, 0.3], "equivalence_unknown": [0.1, 0.9]}
    )
    figure = plots.levels(by_level, specs)
    claim = figure.axes[2]
    found = verdict.undecided_on_correct(specs)
    assert [round(b.get_height(), 6) for b in claim.patches] == [0.0, round(1 / 3, 6)]  # tests, equivalence
    point = claim.lines[0].get_ydata()  # the difference's marker
    assert point[0] == pytest.approx(found.estimate) and found.estimate == pytest.approx(1 / 3)
    assert any(line.get_ydata()[0] == 0.0 and line.get_linestyle() == "--" for line in claim.lines)  # the claim's 0
