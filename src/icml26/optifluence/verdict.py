"""The spec's claims, judged from the LiRA table (TPR at the operating FPR per canary type and architecture).

"Higher" means separated: the lower end of OptiFluence's 95 % Clopper-Pearson interval on its TPR lies
above the upper end of the other type's, a fixed rule rather than a margin chosen after looking. The
paper's numbers are on CIFAR-10 with ResNets (99.6 % TPR at 0.1 % FPR, 4x the in-distribution
canaries); ours are on the stand-in data and models of docs/papers/optifluence.md, so they stand beside
the paper's, not against them.
"""

from __future__ import annotations

import pandas as pd

from ..common.claims import Claim
from .canaries import HEURISTIC

PAPER_TPR = 0.996
PAPER_FACTOR = 4.0
EVIDENCE = ["tables/tpr.csv", "figures/roc.png", "figures/transfer.png"]


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
    }


def beats_heuristics(tpr: pd.DataFrame, target: str, fpr: float) -> Claim:
    m = _against_heuristics(tpr, target)
    return Claim(
        id="optimised_canaries_beat_heuristics",
        statement=f"OptiFluence canaries reach a higher TPR at {fpr:.1%} FPR than every heuristic canary type "
        "(in-distribution, mislabeled, out-of-distribution) on the model they were optimised for "
        "(95 % Clopper-Pearson intervals separated)",
        paper_value={"optifluence_tpr": PAPER_TPR, "dataset": "CIFAR-10"},
        measured=m,
        comparator=">",
        holds=m["separated"],
        headline=f"OptiFluence TPR {m['optifluence']:.3f} vs best heuristic ({m['best_heuristic']}) "
        f"{m['best_heuristic_tpr']:.3f} at {fpr:.1%} FPR on {target}; paper: {PAPER_TPR:.1%} on CIFAR-10",
        evidence=EVIDENCE,
    )


def times_in_distribution(tpr: pd.DataFrame, target: str, fpr: float) -> Claim:
    ours, base = _row(tpr, target, "optifluence"), _row(tpr, target, "random_in")
    floor = 1.0 / base["n_in"]  # a TPR of 0 means "below one detected member", not exactly 0
    ratio = float(ours["tpr"] / max(base["tpr"], floor))
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
        holds=bool(ratio >= PAPER_FACTOR),
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


def transfers(tpr: pd.DataFrame, transfer: list[str], fpr: float) -> Claim:
    if not transfer:
        return Claim(
            id="canaries_transfer_across_architectures",
            statement="OptiFluence canaries transfer",
            paper_value="transfer without re-optimising",
            measured={},
            comparator="all",
            holds=None,
            note="no transfer architecture configured",
            headline="not evaluated: no transfer architecture",
            evidence=EVIDENCE,
        )
    per_arch = {arch: _against_heuristics(tpr, arch) for arch in transfer}
    holds = all(m["separated"] for m in per_arch.values())
    return Claim(
        id="canaries_transfer_across_architectures",
        statement="Canaries optimised on the target architecture, inserted unchanged into other architectures, "
        f"still reach a higher TPR at {fpr:.1%} FPR than every heuristic canary type there (intervals separated)",
        paper_value="transfer across architectures without re-optimising (qualitative)",
        measured=per_arch,
        comparator="all",
        holds=holds,
        headline="; ".join(
            f"{arch}: OptiFluence {m['optifluence']:.3f} vs {m['best_heuristic']} {m['best_heuristic_tpr']:.3f}"
            for arch, m in per_arch.items()
        )
        + f" (TPR at {fpr:.1%} FPR); paper: transfers",
        evidence=EVIDENCE,
    )
