"""The harness against coqc: printer round trip, the spec's oracles, batches that recover from a bad
candidate, Print Assumptions as the second line of defence, resource limits."""

import re
import shutil
import subprocess

import pytest

from icml26.coins import candidates, problems
from icml26.coins.coq_terms import parse, parse_type, to_coq
from icml26.coins.harness import HEADER, Limits, Obligation, Workspace, obligation_file, parse_output
from icml26.coins.obligations import for_tests, signature, wrong_outputs
from icml26.coins.specs import Screened

LIMITS = Limits(tactic_timeout_s=5, equivalence_timeout_s=1, file_timeout_s=120, memory_mb=2048)


@pytest.fixture(scope="module")
def workspace():
    if shutil.which("coqc") is None:
        pytest.fail("coqc is missing: install Coq 8.16 (apt-get install coq libcoq-stdlib; make setup does)")
    with Workspace() as space:
        yield space


def _outcomes(result, obligations, kind):
    return [result.outcomes[ob.id] for ob in obligations if ob.kind == kind]


def test_printed_terms_round_trip_through_compute(workspace, tmp_path):
    values = [
        ("Z", -12),
        ("list Z", [3, -1, 0]),
        ("list Z", []),
        ("Z * Z", (7, -7)),
        ("bool", True),
        ("string", 'a "quoted" word'),
        ("list string", ["x", ""]),
        ("list (Z * Z)", [(1, -2)]),
    ]
    source = HEADER + "".join(f"Compute {to_coq(v, parse_type(t))}.\n" for t, v in values)
    (tmp_path / "terms.v").write_text(source)
    done = subprocess.run(
        ["coqc", "-q", "-Q", str(workspace.prelude), "Coins", "terms.v"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    printed = re.findall(r"= (.*?)\n\s*: ", done.stdout, flags=re.DOTALL)
    assert [parse(" ".join(p.split())) for p in printed] == [v for _, v in values]


@pytest.mark.parametrize("number", [3, 152])
def test_gold_specs_prove_every_accept_and_reject_obligation(workspace, number):
    problem = problems.load([number])[0]
    obligations = for_tests(problem, problems.validated_tests(problem), rejects=3)
    gold = candidates.gold_text(number)
    result = workspace.run(gold, signature(problem), obligations, LIMITS)
    applicable = [ob.id for ob in obligations if ob.kind != "pre" or "Definition pre" in gold]
    assert result.status == "ok"
    assert sorted(result.outcomes) == sorted(applicable) and set(result.outcomes.values()) == {"proved"}


def test_a_nat_bound_written_the_other_way_round_is_read_as_its_mirror(workspace):
    """HumanEval/43's equivalent rewrite ``mirror`` says ``(j > i)%nat`` where the gold spec says ``(i < j)%nat``;
    the portfolio bounded a nat only through ``<`` and ``<=``, so every obligation whose answer is false (no pair
    sums to zero: both indices must be enumerated) stayed unknown, and the tests judged the rewrite incorrect."""
    problem = problems.load([43])[0]
    obligations = for_tests(problem, problems.validated_tests(problem), rejects=1)
    gold = candidates.gold_text(43)
    assert "(i < j)%nat" in gold
    pairs = [("(i < j)%nat", "(j > i)%nat"), ("(S i <= j)%nat", "(j >= S i)%nat")]
    texts = [gold.replace("(i < j)%nat", bound) for pair in pairs for bound in pair]
    results = workspace.run_batch(texts, signature(problem), obligations, LIMITS)
    assert [r.status for r in results] == ["ok"] * 4
    assert set(results[0].outcomes.values()) == {"proved"}  # the gold spec itself
    assert results[1].outcomes == results[0].outcomes  # its mirror: every obligation proved too
    assert results[3].outcomes == results[2].outcomes  # >= reads as <=, whatever the portfolio makes of that


def test_true_fails_every_reject_and_false_every_accept(workspace):
    problem = problems.load([52])[0]
    obligations = for_tests(problem, problems.validated_tests(problem), rejects=1)
    true, false = workspace.run_batch(
        [
            "Definition spec (l : list Z) (t : Z) (r : bool) : Prop := True.",
            "Definition spec (l : list Z) (t : Z) (r : bool) : Prop := False.",
        ],
        signature(problem),
        obligations,
        LIMITS,
    )
    assert set(_outcomes(true, obligations, "reject")) == {"refuted"} and set(
        _outcomes(true, obligations, "accept")
    ) == {"proved"}
    assert set(_outcomes(false, obligations, "accept")) == {"refuted"} and set(
        _outcomes(false, obligations, "reject")
    ) == {"proved"}


def test_a_bad_candidate_in_a_batch_is_named_and_the_others_still_run(workspace):
    problem = problems.load([35])[0]
    obligations = for_tests(problem, problems.validated_tests(problem), rejects=1)
    gold = candidates.gold_text(35)
    results = workspace.run_batch(
        [
            gold,
            "Definition spec (l : list Z) (result : Z) : Prop := In result undefined_list.",
            "Definition spec (l : Z) (result : Z) : Prop := True.",
            "Axiom x : False.\n" + gold,
            gold,
        ],
        signature(problem),
        obligations,
        LIMITS,
    )
    assert [r.status for r in results] == ["ok", "ill-formed", "ill-formed", "rejected", "ok"]
    assert "undefined_list was not found" in results[1].message
    assert 'has type "Z -> Z -> Prop"' in results[2].message
    assert results[0].outcomes == results[4].outcomes and set(results[0].outcomes.values()) == {"proved"}


def test_an_obligation_whose_outcome_cannot_be_read_counts_unknown_and_is_named(workspace, monkeypatch):
    """coqc checks the file to the end but one obligation's outcome mark is not on a line of its own: the
    obligation is unknown (not dropped) and the message names it; the others keep their outcomes."""
    problem = problems.load([35])[0]
    obligations = for_tests(problem, problems.validated_tests(problem), rejects=1)
    lost = next(ob.id for ob in obligations if ob.kind == "accept")
    real = Workspace._coqc

    def garbled(self, source, limits, count):
        stdout, stderr, code, wall = real(self, source, limits, count)
        lines = stdout.splitlines(keepends=True)
        mark = lines.index(f"@@{lost}\n")
        outcome = next(i for i in range(mark + 1, len(lines)) if lines[i].startswith(("@@proved", "@@refuted")))
        lines[outcome] = "Warning: " + lines[outcome]
        return "".join(lines), stderr, code, wall

    monkeypatch.setattr(Workspace, "_coqc", garbled)
    (result,) = workspace.run_batch([candidates.gold_text(35)], signature(problem), obligations, LIMITS)
    assert result.status == "ok" and result.outcomes[lost] == "unknown" and lost in result.message
    given = [ob.id for ob in obligations if ob.kind != "pre"]  # 35's gold spec has no precondition
    assert sorted(result.outcomes) == sorted(given)
    assert {result.outcomes[name] for name in given if name != lost} == {"proved"}


def test_a_coq_error_cites_the_line_of_the_candidate_s_own_file(workspace):
    """Not the line of the generated check file, which the author never sees (issue 53)."""
    problem = problems.load([35])[0]
    obligations = for_tests(problem, problems.validated_tests(problem), rejects=1)
    own = (
        "\n(* the user's file *)\nDefinition helper (x : Z) : Z := x.\n\n"
        "Definition spec (l : list Z) (result : Z) : Prop :=\n  In result undefined_list.\n"
    )
    results = workspace.run_batch([candidates.gold_text(35), own], signature(problem), obligations, LIMITS)
    assert results[1].status == "ill-formed"
    assert results[1].message.startswith("candidate line 6, characters 12-26: Error"), results[1].message
    assert "undefined_list was not found" in results[1].message


def test_a_huge_candidate_is_refused_by_the_screening_in_little_time():
    """Screening runs outside coqc's limits: 200,000 definitions (4.9 MB) are refused by their size."""

    from icml26.coins.specs import MAX_SENTENCES, MAX_SPEC_BYTES, screen

    spec = "Definition spec (l : list Z) (result : Z) : Prop := True.\n"
    huge = screen(spec + "".join(f"Definition d{i} := 0.\n" for i in range(200_000)))
    assert huge.reason == f"rejected: 4888948 bytes, more than the {MAX_SPEC_BYTES} a candidate may have"
    many = screen(spec + "".join(f"Definition d{i} := 0.\n" for i in range(MAX_SENTENCES)))
    assert many.reason == f"rejected: {MAX_SENTENCES + 1} sentences, more than the {MAX_SENTENCES} allowed"
    assert screen(spec + "Definition d := 0.\n").reason == ""


def test_print_assumptions_catches_an_axiom_that_got_past_the_screening(workspace):
    """The second line of defence, fed a candidate the screening would refuse."""
    smuggled = Screened(
        "Axiom anything : forall P : Prop, P.\n"
        "Definition spec (l : list Z) (result : Z) : Prop := anything False = anything False.",
        "",
        False,
        ("spec",),
    )
    obligations = [Obligation("coins_ob_0", "accept", 0, "Candidate.spec [1] 1")]
    stdout, _, code, _ = workspace._coqc(
        obligation_file([(smuggled, obligations)], "list Z -> Z -> Prop", LIMITS), LIMITS, 1
    )
    parsed, axioms = parse_output(stdout)
    assert code == 0 and parsed[0][0] == {"coins_ob_0": "proved"} and axioms == ["C0.Candidate.anything"]


def test_a_memory_bomb_is_stopped_by_the_limits(workspace):
    """The 1 GiB address-space limit stops it on a quiet machine; on a loaded one the 20 s wall clock, or the
    obligation's own 2 s tactic timeout, may come first: either way the bomb is never proved, and a stopped
    coqc gives the candidate a status that says so."""
    bomb = "Definition spec (l : list Z) (result : Z) : Prop := Nat.pow 10 9 = Nat.pow 10 9 /\\ In result l."
    obligations = [Obligation("coins_ob_0", "accept", 0, "Candidate.spec [1] 1")]
    result = workspace.run(bomb, "list Z -> Z -> Prop", obligations, Limits(2, 1, 20, 1024))
    if result.status == "ok":  # the tactic timeout came first: the obligation is left open, not proved
        assert result.outcomes == {"coins_ob_0": "unknown"}
    else:
        assert result.status == "timeout" and ("resource limit" in result.message or "ran past" in result.message)


def test_wrong_outputs_differ_from_the_trusted_one_and_keep_the_type():
    for kind, value in [
        ("Z", 4),
        ("bool", True),
        ("list Z", []),
        ("list Z", [1, 2]),
        ("Z * Z", (0, 1)),
        ("string", ""),
        ("list string", ["a"]),
    ]:
        found = wrong_outputs(value, parse_type(kind))
        assert found and value not in found and len(found) == len({repr(v) for v in found})
