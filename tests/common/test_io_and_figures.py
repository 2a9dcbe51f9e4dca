"""Canonical, atomic writing and byte-deterministic figures."""

import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from icml26.common import io
from icml26.common.figures import figure_set, save_figure
from tests.conftest import figure_files


def test_json_is_canonical_sorted_and_plain(tmp_path):
    path = tmp_path / "m.json"
    io.write_json(path, {"b": np.float64(1 / 3), "a": [np.int64(2), float("nan")], "c": {"z": True, "y": None}})
    text = path.read_text()
    assert (
        text
        == json.dumps({"a": [2, None], "b": 0.3333333333, "c": {"y": None, "z": True}}, indent=2, sort_keys=True) + "\n"
    )


def test_csv_has_fixed_float_format_and_unix_line_ends(tmp_path):
    path = tmp_path / "t.csv"
    io.write_csv(path, pd.DataFrame({"x": [1 / 3, 2.0], "name": ["a", "b"]}))
    assert path.read_bytes() == b"x,name\n0.3333333333,a\n2,b\n"


def test_failed_write_leaves_neither_output_nor_temporary(tmp_path):
    path = tmp_path / "out" / "result.csv"
    with pytest.raises(RuntimeError):
        with io.atomic_path(path) as tmp:
            tmp.write_text("half")
            raise RuntimeError("interrupted")
    assert not path.exists()
    assert list(path.parent.iterdir()) == []


def test_existing_output_survives_a_failed_rewrite(tmp_path):
    path = tmp_path / "result.json"
    io.write_json(path, {"v": 1})
    with pytest.raises(TypeError):
        io.write_json(path, {"v": object()})
    assert json.loads(path.read_text()) == {"v": 1}


def test_outputs_are_world_readable(tmp_path):
    path = tmp_path / "r.json"
    io.write_json(path, {})
    assert path.stat().st_mode & 0o044 == 0o044


def test_missing_inputs_are_named(tmp_path):
    with pytest.raises(io.MissingInputError, match="nothing.csv"):
        io.read_csv(tmp_path / "nothing.csv")


def _figure():
    fig, ax = plt.subplots()
    ax.plot(np.arange(10), np.arange(10) ** 2, label="squares")
    ax.legend()
    return fig


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_figures_are_byte_identical_across_saves(tmp_path, suffix):
    a, b = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    save_figure(_figure(), a)
    save_figure(_figure(), b)
    assert a.read_bytes() == b.read_bytes()
    assert b"Matplotlib" not in a.read_bytes()  # no software stamp


def test_figure_suffix_is_checked(tmp_path):
    with pytest.raises(ValueError, match=".png or .pdf"):
        save_figure(_figure(), tmp_path / "x.jpg")


def test_a_figure_job_names_a_declared_figure_it_did_not_draw_and_an_undeclared_one(tmp_path):
    outputs = figure_files(tmp_path, "a", "b")
    with figure_set(outputs) as paths:
        save_figure(_figure(), *paths("a"))
        save_figure(_figure(), *paths("b"))
    assert (tmp_path / "b.pdf").is_file()
    with pytest.raises(ValueError, match="declared but not drawn: b"), figure_set(outputs) as paths:
        save_figure(_figure(), *paths("a"))
    with pytest.raises(ValueError, match="'c' is not an output"), figure_set(outputs) as paths:
        paths("c")


def test_a_figure_drawn_alone_equals_the_same_figure_drawn_after_others(tmp_path):
    """One job draws all of a paper's figures: what one figure leaves in matplotlib must not change the next."""
    alone = tmp_path / "alone.png"
    save_figure(_figure(), alone)
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_yscale("log")
    ax.bar([1, 2], [3, 4], hatch="//")
    save_figure(fig, tmp_path / "other.png")
    save_figure(_figure(), tmp_path / "after.png")
    assert (tmp_path / "after.png").read_bytes() == alone.read_bytes()


def test_the_style_applies_inside_a_figure_job_only(tmp_path):
    import matplotlib

    from icml26.common.figures import STYLE

    before = {key: matplotlib.rcParams[key] for key in STYLE}
    assert before != STYLE  # importing the module changed nobody's defaults
    with figure_set(figure_files(tmp_path, "a")) as paths:
        assert {key: matplotlib.rcParams[key] for key in STYLE} == STYLE
        fig, _ = plt.subplots()
        save_figure(fig, *paths("a"))
    assert {key: matplotlib.rcParams[key] for key in STYLE} == before
