"""Config validation messages, claim records and the summary table."""

from pathlib import Path

import pytest
import yaml

from icml26.common.claims import Claim, read_claims, write_claims
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


def test_unknown_keys_are_rejected():
    cfg = load("config.yaml")
    cfg["scael"] = "smoke"
    with pytest.raises(ConfigError, match="scael"):
        validate(cfg, SCHEMAS / "config.schema.yaml")


def test_claims_round_trip_and_reject_bad_records(tmp_path):
    readable = {"headline": "0.5 vs the paper's 1.0", "evidence": ["tables/t.csv", "figures/f.png"]}
    claims = [
        Claim("a", "x <= 1", 1.0, 0.5, "<=", True, **readable),
        Claim("b", "y", None, {"k": 2}, "all", False, "why", **readable),
    ]
    write_claims(tmp_path / "claims.json", claims)
    assert read_claims(tmp_path / "claims.json") == claims
    with pytest.raises(ValueError, match="headline"):
        write_claims(tmp_path / "c.json", [Claim("c", "s", 1, 1, "<=", True, evidence=["tables/t.csv"])])
    with pytest.raises(ValueError, match="evidence"):
        write_claims(tmp_path / "c.json", [Claim("c", "s", 1, 1, "<=", True, headline="h")])
    with pytest.raises(ValueError, match="must be a path under"):
        write_claims(tmp_path / "c.json", [Claim("c", "s", 1, 1, "<=", True, headline="h", evidence=["../x.csv"])])
    assert not (tmp_path / "c.json").exists()
    with pytest.raises(ValueError, match="comparator"):
        Claim("c", "s", 1, 1, "~", True)
    with pytest.raises(ValueError, match="note"):
        Claim("c", "s", 1, None, "<=", None)
    with pytest.raises(ValueError, match="duplicate"):
        write_claims(tmp_path / "dup.json", [claims[0], claims[0]])


def test_summary_lists_every_claim_with_its_headline_verdict_and_evidence(tmp_path):
    for paper, holds in (("paper_a", True), ("paper_b", False)):
        write_claims(
            tmp_path / paper / "claims.json",
            [
                Claim(
                    f"{paper}_c",
                    "s",
                    2.0,
                    {"x": 1.5},
                    "<=",
                    holds,
                    headline=f"{paper}: 1.5 vs the paper's 2.0",
                    evidence=["tables/t.csv", "figures/f.png"],
                )
            ],
        )
    out, page = tmp_path / "summary.md", tmp_path / "summary.rst"
    build_summary(
        [tmp_path / "paper_b" / "claims.json", tmp_path / "paper_a" / "claims.json"],
        out,
        scale="smoke",
        report_page=page,
    )
    text = out.read_text()
    assert "| [paper_a](#paper_a) | 1 | 1 | 0 | 0 |" in text and "| **all** | 2 | 1 | 1 | 0 |" in text
    assert (
        "| paper_b_c | paper_b: 1.5 vs the paper's 2.0 | **does not hold** "
        "| [t.csv](paper_b/tables/t.csv), [f.png](paper_b/figures/f.png) |"
    ) in text
    assert "{" not in text  # no JSON anywhere
    assert text.index("## paper_a") < text.index("## paper_b")
    assert "1 hold, 1 do not hold, 0 not evaluated." in text
    from docutils.core import publish_parts

    html = publish_parts(page.read_text(), writer="html", settings_overrides={"halt_level": 2})["html_body"]
    assert "<td>paper_b: 1.5 vs the paper's 2.0</td>" in html.replace("<p>", "").replace("</p>", "")
    assert html.count("<tr>") == 1 + 3 + 2 * 2  # counts table (header, two papers, all), two claim tables


def test_wall_clock_claims_go_to_the_measured_summary_with_their_machine(tmp_path):
    from icml26.common.timing import interleaved, machine, medians

    readable = {"headline": "h", "evidence": ["timing/seconds.csv"]}
    write_claims(tmp_path / "p" / "claims.json", [Claim("c", "s", 1.0, 1.0, "<=", True, **readable)])
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
                speed_up >= 2,
                details={"machine": machine()},
                **readable,
            )
        ],
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
