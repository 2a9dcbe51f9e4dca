"""Which source files a rule function depends on, read from the code."""

from pathlib import Path

import pytest

from icml26.common import codedeps
from icml26.common.codedeps import function_sources, rule_code

SRC = Path(__file__).resolve().parents[2] / "src"


def deps(spec):
    return {str(p.relative_to(SRC)) for p in function_sources(spec, SRC)}


def test_a_figure_function_depends_on_the_plotting_modules_and_a_compute_function_does_not():
    figure = deps("icml26.ski_rental.rules:figures")
    compute = deps("icml26.ski_rental.rules:policies")
    assert {"icml26/ski_rental/plots.py", "icml26/common/figures.py", "icml26/ski_rental/rules.py"} <= figure
    assert "icml26/ski_rental/policies.py" not in figure
    assert "icml26/ski_rental/plots.py" not in compute and "icml26/common/figures.py" not in compute
    # through the module-level helper _problems and the policies module's own imports
    assert {"icml26/ski_rental/model.py", "icml26/ski_rental/policies.py", "icml26/ski_rental/randomized.py"} <= compute
    for files in (figure, compute):  # the runner, its imports and the packages on the way
        assert {
            "icml26/__init__.py",
            "icml26/ski_rental/__init__.py",
            "icml26/common/runner.py",
            "icml26/common/determinism.py",
        } <= files


def tiny_package(root: Path) -> None:
    pkg = root / "icml26"
    (pkg / "p").mkdir(parents=True)
    for name in ("__init__.py", "p/__init__.py", "common/__init__.py", "common/determinism.py"):
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text("")
    (pkg / "common" / "runner.py").write_text("def call():\n    from .determinism import pin\n")
    (pkg / "p" / "a.py").write_text("from .b import helper\n")
    (pkg / "p" / "b.py").write_text("import icml26.p.c\nhelper = 1\n")
    (pkg / "p" / "c.py").write_text("")
    (pkg / "p" / "unused.py").write_text("")
    (pkg / "p" / "rules.py").write_text(
        "from . import a, unused\n"
        "LIMIT = a.helper\n"
        "def _inner():\n    return LIMIT\n"
        "def job(unused):\n    return _inner() + unused\n"
        "def lazy():\n    import icml26.p.c\n"
    )


def test_imports_relative_absolute_and_shadowed_names(tmp_path):
    tiny_package(tmp_path)
    files = {str(p.relative_to(tmp_path)) for p in function_sources("icml26.p.rules:job", tmp_path)}
    assert files == {
        "icml26/__init__.py",
        "icml26/p/__init__.py",
        "icml26/p/rules.py",
        "icml26/p/a.py",
        "icml26/p/b.py",
        "icml26/p/c.py",
        "icml26/common/__init__.py",
        "icml26/common/runner.py",
        "icml26/common/determinism.py",
    }  # not unused.py: the parameter shadows the module
    lazy = {str(p.relative_to(tmp_path)) for p in function_sources("icml26.p.rules:lazy", tmp_path)}
    assert "icml26/p/c.py" in lazy and "icml26/p/a.py" not in lazy
    with pytest.raises(LookupError, match="no 'missing'"):
        function_sources("icml26.p.rules:missing", tmp_path)


def test_rule_code_is_kept_on_disk_until_a_byte_of_the_package_changes(tmp_path, monkeypatch):
    tiny_package(tmp_path)
    store = tmp_path / "cache" / "rule_code.json"
    first = rule_code(["icml26.p.rules:job", "icml26.p.rules:lazy"], tmp_path, store)
    assert first["icml26.p.rules:job"] == (function_sources("icml26.p.rules:job", tmp_path), "icml26.p.rules:job")

    def unreachable(spec, src):
        raise AssertionError("recomputed")

    monkeypatch.setattr(codedeps, "function_sources", unreachable)
    assert rule_code(["icml26.p.rules:job"], tmp_path, store)["icml26.p.rules:job"] == first["icml26.p.rules:job"]
    (tmp_path / "icml26" / "p" / "c.py").write_text("import icml26.p.unused\n")  # one module changes
    with pytest.raises(AssertionError, match="recomputed"):
        rule_code(["icml26.p.rules:job"], tmp_path, store)
    monkeypatch.undo()
    codedeps.parse_module.cache_clear()
    codedeps.module_closure.cache_clear()
    files, _ = rule_code(["icml26.p.rules:job"], tmp_path, store)["icml26.p.rules:job"]
    assert tmp_path / "icml26" / "p" / "unused.py" in files  # now reached through c.py
    with pytest.raises(codedeps.RuleFunctionError, match="no 'missing'") as error:
        rule_code(["icml26.p.rules:missing"], tmp_path, store)
    assert error.value.spec == "icml26.p.rules:missing"


def test_a_functions_part_of_its_module_is_what_it_can_run_in_file_order(tmp_path):
    tiny_package(tmp_path)
    rules = tmp_path / "icml26" / "p" / "rules.py"
    rules.write_text(
        rules.read_text().replace("def job(", "@cache\ndef job(")
        + "def verdict():\n    return 'holds'\n"
        + "class Spare:\n    pass\n"
    )
    part = codedeps.function_part("icml26.p.rules:job", tmp_path)
    assert part == (
        "from . import a, unused\nLIMIT = a.helper\ndef _inner():\n    return LIMIT\n"
        "@cache\ndef job(unused):\n    return _inner() + unused\n"
    )  # imports and constants always, the helper it calls, its decorator; not lazy, verdict or Spare
    assert "def lazy" in codedeps.function_part("icml26.p.rules:lazy", tmp_path)
    rules.write_text(rules.read_text() + "def by_name(name):\n    return globals()[name]()\n")
    assert codedeps.function_part("icml26.p.rules:job", tmp_path) == rules.read_text()  # a run-time lookup: whole
