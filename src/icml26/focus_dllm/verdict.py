"""The spec's claims, judged from the result tables over every seed (criteria ours, fixed before any quick run; the
paper's numbers beside them; each seed redraws the examples, the initialisation and the training):

- *few tokens are decodable per step*: with dense threshold decoding, the mean fraction of a step's masked tokens
  that it decodes is at most ``FEW`` on average over tasks and seeds;
- *importance predicts decodability*: the AUROC of Δ for "decoded this step" exceeds 0.5 and Spearman's rho of Δ
  with confidence is positive, both averaged over tasks and seeds (the recall of Δ against leftmost-K is reported
  beside, with its sign);
- *FOCUS preserves quality*: its accuracy over all test prompts of every seed is at most ``QUALITY_DROP`` below dense
  decoding's (each seed's difference reported beside);
- *FOCUS saves compute*: fewer rows through the network per generated token (deterministic);
- *FOCUS raises throughput at large batch* (a wall-clock claim: ``timing/claims.json``): FOCUS's tokens/s over
  dense's at the largest batch size above 1.
"""

from __future__ import annotations

import pandas as pd

from ..common.claims import Claim
from ..common.tolerance import Tolerance

FEW = 0.25  # ours: "only a small subset" read as at most a quarter of the masked tokens per step
QUALITY_DROP = 0.02  # ours: "preserving quality" read as at most 2 points of accuracy lost
PAPER_SPEEDUP = 3.52  # the paper's best throughput ratio over LMDeploy (drawn beside ours)

# How far the committed numbers may move on another machine (make verify), from the spread over the three quick
# seeds (each redraws examples, initialisation and training; a machine whose kernels change the training
# trajectory redraws them much as another seed does): a number pooled over the seeds by one standard error of the
# three-seed mean, a single seed's number by the seeds' standard deviation (rounded up). FOCUS's accuracy spreads
# most (0.600, 0.497, 0.400: pcfg lost on two seeds), and so do the importance statistics (AUROC 0.44 to 0.61);
# no tolerance covers a flipped verdict, and importance_predicts_decodability sits within one SE of its threshold
# (docs/papers/focus_dllm.md).
_SEEDS = "spread over the three quick seeds (verdict.py)"
TOLERANCES = [
    ("metrics/accuracy/dense*", Tolerance(abs=0.003, why=_SEEDS)),
    ("metrics/accuracy/focus*", Tolerance(abs=0.06, why=_SEEDS)),
    ("metrics/accuracy_by_seed/dense*", Tolerance(abs=0.01, why=_SEEDS + ": one seed")),
    ("metrics/accuracy_by_seed/focus*", Tolerance(abs=0.11, why=_SEEDS + ": one seed")),
    ("metrics/decoded_fraction/*", Tolerance(abs=0.02, why=_SEEDS)),
    ("claims/few_tokens_decodable_per_step/measured/*", Tolerance(abs=0.02, why=_SEEDS)),
    ("claims/importance_predicts_decodability/measured/auroc", Tolerance(abs=0.05, why=_SEEDS)),
    ("claims/importance_predicts_decodability/measured/spearman", Tolerance(abs=0.09, why=_SEEDS)),
    ("claims/importance_predicts_decodability/measured/*", Tolerance(abs=0.015, why=_SEEDS + ": recall gap")),
    ("claims/focus_preserves_quality/measured/dense", Tolerance(abs=0.003, why=_SEEDS)),
    ("claims/focus_preserves_quality/measured/difference_seed*", Tolerance(abs=0.11, why=_SEEDS + ": one seed")),
    ("claims/focus_preserves_quality/measured/*", Tolerance(abs=0.06, why=_SEEDS)),
    ("claims/focus_saves_compute/measured/ratio", Tolerance(abs=0.06, why=_SEEDS)),
    ("claims/focus_saves_compute/measured/dense*", Tolerance(abs=0.03, why=_SEEDS + ": rows per generated token")),
    ("claims/focus_saves_compute/measured/focus*", Tolerance(abs=1.2, why=_SEEDS + ": rows per generated token")),
]


def few_decodable(correlation: pd.DataFrame) -> Claim:
    fraction = float(correlation["decoded_fraction"].mean())
    per_task = correlation.groupby("task")["decoded_fraction"].mean()
    return Claim(
        id="few_tokens_decodable_per_step",
        statement=f"Dense threshold decoding decodes at most {FEW:.0%} of a step's masked tokens on average",
        paper_value="only a small subset of tokens is decodable at each diffusion step",
        measured={"mean_decoded_fraction": fraction, **per_task.to_dict()},
        comparator="<=",
        holds=fraction <= FEW,
        headline=f"{fraction:.1%} of the masked tokens decoded per step, mean over tasks and seeds (need at most "
        f"{FEW:.0%})",
        evidence=["tables/correlation.csv"],
    )


def importance_predicts(correlation: pd.DataFrame, recall: pd.DataFrame, alpha: float) -> Claim:
    auroc = float(correlation["auroc_delta_decoded"].mean())
    rho = float(correlation["spearman_delta_confidence"].mean())
    at = recall[recall["alpha"] == alpha].groupby("selector")["recall"].mean()
    gap = float(at.get("delta", float("nan")) - at.get("leftmost", float("nan")))
    return Claim(
        id="importance_predicts_decodability",
        statement="Attention-derived importance Δ predicts decodability: AUROC above 0.5 and Spearman's rho with "
        "confidence above 0, averaged over tasks and seeds",
        paper_value="a strong correlation between attention-derived token importance and decoding probability",
        measured={"auroc": auroc, "spearman": rho, "recall_delta_minus_leftmost": gap},
        comparator="all",
        holds=auroc > 0.5 and rho > 0,
        headline=(
            f"AUROC of Δ {auroc:.3f}, Spearman rho {rho:+.3f}; recall of Δ minus leftmost-K at alpha {alpha}: "
            f"{gap:+.3f} (paper: strong correlation)"
        ),
        evidence=["tables/correlation.csv", "tables/recall.csv", "figures/recall.png"],
    )


def preserves_quality(quality: pd.DataFrame, dense: str, focus: str) -> Claim:
    accuracy = quality.groupby(["decoder", "seed"])["correct"].mean()
    a, b = float(accuracy[dense].mean()), float(accuracy[focus].mean())  # every seed has the same test count
    per_seed = (accuracy[focus] - accuracy[dense]).to_dict()
    return Claim(
        id="focus_preserves_quality",
        statement=f"FOCUS loses at most {QUALITY_DROP:.0%} accuracy against dense decoding over all test prompts "
        f"of every seed",
        paper_value="preserving or improving generation quality across benchmarks",
        measured={
            "dense": a,
            "focus": b,
            "difference": b - a,
            **{f"difference_seed{s}": d for s, d in per_seed.items()},
        },
        comparator=">=",
        holds=b - a >= -QUALITY_DROP,
        headline=f"accuracy {b:.3f} with FOCUS, {a:.3f} dense ({b - a:+.3f}; at most -{QUALITY_DROP} allowed; per "
        f"seed {', '.join(f'{d:+.3f}' for d in per_seed.values())})",
        evidence=["tables/quality.csv", "tables/summary.csv", "figures/quality.png"],
    )


def saves_compute(quality: pd.DataFrame, dense: str, focus: str) -> Claim:
    def per_token(decoder: str) -> float:
        batches = quality[quality["decoder"] == decoder].drop_duplicates(["seed", "batch"])  # one row per batch
        return float(batches["batch_rows"].sum() / batches["batch_tokens"].sum())

    a, b = per_token(dense), per_token(focus)
    return Claim(
        id="focus_saves_compute",
        statement="FOCUS runs fewer rows through the network per generated token than dense decoding",
        paper_value="computation focused on decodable tokens (evicting non-decodable ones)",
        measured={"dense_rows_per_token": a, "focus_rows_per_token": b, "ratio": b / a},
        comparator="<",
        holds=b < a,
        headline=f"{b:.2f} rows per generated token with FOCUS, {a:.2f} dense (ratio {b / a:.3f})",
        evidence=["tables/quality.csv"],
    )


def raises_throughput(throughput: pd.DataFrame, dense: str, focus: str, machine: dict) -> Claim:
    largest = int(throughput["batch"].max())
    at = throughput[throughput["batch"] == largest].set_index("decoder")["tokens_per_s"]
    ratio = float(at[focus] / at[dense])
    return Claim(
        id="focus_raises_throughput",
        statement=f"FOCUS generates more tokens per second than dense decoding at the largest batch ({largest})",
        paper_value=f"up to {PAPER_SPEEDUP}x the throughput of LMDeploy at large batch",
        measured={"ratio": ratio, "dense_tokens_per_s": float(at[dense]), "focus_tokens_per_s": float(at[focus])},
        comparator=">",
        holds=ratio > 1,
        details={"machine": machine},
        headline=f"{ratio:.2f}x dense's tokens/s at batch {largest} (measured; paper: up to {PAPER_SPEEDUP}x)",
        evidence=["timing/throughput.csv", "timing/figures/throughput.png"],
    )
