"""Config validation messages, claim records and the summary table."""

from pathlib import Path

import pytest
import yaml

from icml26.common.claims import Claim, read_claims, write_claims
from icml26.common.config import ConfigError, validate
from icml26.common.device import resolve_device
from icml26.common.summary import build_summary

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow" / "schemas"


def load(name):
    return yaml.safe_load((ROOT / "config" / name).read_text())


def test_shipped_configs_are_valid():
    base = load("config.yaml")
    validate(base, SCHEMAS / "config.schema.yaml")
    for overlay in ("smoke.yaml", "quick.yaml", "paper.yaml"):
        merged = {**base, **load(overlay)}
        merged["ski_rental"] = {**base["ski_rental"], **load(overlay).get("ski_rental", {})}
        validate(merged, SCHEMAS / "config.schema.yaml")
        validate(merged["ski_rental"], SCHEMAS / "ski_rental.schema.yaml", prefix="ski_rental")


def test_errors_name_the_offending_keys():
    cfg = load("config.yaml")["ski_rental"]
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
    claims = [Claim("a", "x <= 1", 1.0, 0.5, "<=", True), Claim("b", "y", None, {"k": 2}, "all", False, "why")]
    write_claims(tmp_path / "claims.json", claims)
    assert read_claims(tmp_path / "claims.json") == claims
    with pytest.raises(ValueError, match="comparator"):
        Claim("c", "s", 1, 1, "~", True)
    with pytest.raises(ValueError, match="note"):
        Claim("c", "s", 1, None, "<=", None)
    with pytest.raises(ValueError, match="duplicate"):
        write_claims(tmp_path / "dup.json", [claims[0], claims[0]])


def test_summary_lists_every_claim_with_its_verdict(tmp_path):
    for paper, holds in (("paper_a", True), ("paper_b", False)):
        write_claims(tmp_path / paper / "claims.json", [Claim(f"{paper}_c", "s", 2.0, 1.5, "<=", holds)])
    out = tmp_path / "summary.md"
    build_summary([tmp_path / "paper_b" / "claims.json", tmp_path / "paper_a" / "claims.json"], out, scale="smoke")
    text = out.read_text()
    assert "| paper_a | paper_a_c | s | 2 | 1.5 | **holds** |" in text
    assert "| paper_b | paper_b_c | s | 2 | 1.5 | **does not hold** |" in text
    assert text.index("paper_a") < text.index("paper_b")
    assert "1 hold, 1 do not hold, 0 not evaluated." in text


def test_device_setting():
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") in ("cpu", "cuda")
    with pytest.raises(ValueError, match="device"):
        resolve_device("tpu")
