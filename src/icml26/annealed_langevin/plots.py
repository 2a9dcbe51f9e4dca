"""Figures of the annealed_langevin pipeline, drawn from the result tables only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .verdict import AMPLIFICATION_MAX, FLAT_TOL, GROWTH_MIN, WEIGHT_TOL, dimension_ratio

# What each evidence figure draws of its claim (docs/ARCHITECTURE.md, "Figures show their claim"; a test checks):
# the names of the verdict's constants it draws, or why it draws none.
CRITERIA = {
    "horizons": ("FLAT_TOL", "GROWTH_MIN"),
    "kl_vs_dimension": ("FLAT_TOL", "GROWTH_MIN"),
    "mode_weights": ("WEIGHT_TOL",),
    "perturbation": ("AMPLIFICATION_MAX",),
}

METHOD_LABELS = {
    "ald_exponential": "annealed, exponential integrator",
    "ald_euler": "annealed, Euler-Maruyama",
    "plain_exponential": "plain Langevin (started in mode 0)",
}
METHOD_COLORS = {"ald_exponential": "C0", "ald_euler": "C1", "plain_exponential": "C3"}


def _loglog(ax, xlabel: str, ylabel: str) -> None:
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3, which="both", lw=0.5)


def _ratio_criterion(ax, frame: pd.DataFrame, column: str, color, bounded: bool) -> None:
    """The claim's test at the largest d, relative to the value at d_max / 8: a bar spanning the ``FLAT_TOL`` band
    (a curve the claim needs bounded) or a triangle at ``GROWTH_MIN`` times it (one it needs to grow)."""
    _, d_ref, d_max = dimension_ratio(frame, column)
    ref = float(frame.set_index("d")[column][d_ref])
    if bounded:
        ax.plot([d_max] * 2, [ref * (1 - FLAT_TOL), ref * (1 + FLAT_TOL)], color=color, lw=6, alpha=0.35)
    else:
        ax.plot([d_max], [ref * GROWTH_MIN], "^", color=color, ms=9, mfc="none", mew=1.5)


def _criterion_legend(ax, d_ref_label: str) -> None:
    ax.plot([], [], color="0.5", lw=6, alpha=0.35, label=f"claim: bounded, within ±{FLAT_TOL:.0%} of {d_ref_label}")
    ax.plot([], [], "^", color="0.5", ms=9, mfc="none", mew=1.5, label=f"claim: grows, ≥ ×{GROWTH_MIN:g} {d_ref_label}")


def kl_vs_dimension(table: pd.DataFrame, trace_class: str, fast: str) -> plt.Figure:
    """KL at the fixed horizon against d for every (C, P), exact vs misspecified score (continuous time); on the
    misspecified panel, the claim's test: bounded with the ``fast`` preconditioner, growing with P = I (C =
    ``trace_class``)."""
    cont = table[table["scheme"] == "continuous"]
    fig, axes = plt.subplots(1, 2, figsize=(13.5, 4), sharey=True)
    combos = sorted(cont.groupby(["smoothing", "preconditioner"]).groups)
    for ax, score in zip(axes, ("exact", "misspecified")):
        for i, (c_name, p_name) in enumerate(combos):
            g = cont[(cont["score"] == score) & (cont["smoothing"] == c_name) & (cont["preconditioner"] == p_name)]
            g = g[np.isfinite(g["kl"]) & (g["kl"] > 0)]
            ax.plot(
                g["d"],
                g["kl"],
                "o-" if c_name != "identity" else "s--",
                ms=3.5,
                lw=1.2,
                color=f"C{i}",
                label=f"C = {c_name}, P = {p_name}",
            )
            if score == "misspecified" and c_name == trace_class and p_name in (fast, "identity"):
                _ratio_criterion(ax, g, "kl", f"C{i}", bounded=p_name == fast)
        _loglog(ax, "dimension d", "KL (coordinates 2..d)")
        ax.set_title(f"{score} score")
    _criterion_legend(axes[1], "the value at d_max / 8")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    return fig


def horizons(curves: pd.DataFrame, table: pd.DataFrame, epsilon: float) -> plt.Figure:
    """KL against the annealing time S (P = I) per d, and the S needed for KL <= epsilon against d, with the
    claim's test for P = I: bounded for a trace-class C, growing for C = I."""
    fig, axes = plt.subplots(1, 3, figsize=(17, 4), gridspec_kw={"width_ratios": [1, 1, 1.1]})
    plain = curves[curves["preconditioner"] == "identity"]
    dims = sorted(plain["d"].unique())
    colors = plt.cm.viridis(np.linspace(0, 0.9, len(dims)))
    for ax, c_name in zip(axes[:2], sorted(plain["smoothing"].unique(), key=lambda s: s != "identity")):
        for color, d in zip(colors, dims):
            g = plain[(plain["smoothing"] == c_name) & (plain["d"] == d)]
            ax.plot(g["horizon"], g["kl"].clip(lower=1e-12), color=color, lw=1.2, label=f"d = {d}")
        ax.axhline(epsilon, color="0.4", ls=":", lw=1, label=f"ε = {epsilon:g}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("annealing time S")
        ax.set_ylabel("KL (coordinates 2..d)")
        ax.set_title(f"C = {c_name}, P = I")
        ax.grid(alpha=0.3, lw=0.5)
    axes[0].legend(fontsize=7, ncol=2)
    ax = axes[2]
    for i, ((c_name, p_name), g) in enumerate(table.groupby(["smoothing", "preconditioner"], sort=True)):
        g = g[np.isfinite(g["horizon_needed"])]
        ax.plot(
            g["d"],
            g["horizon_needed"],
            "o-" if c_name != "identity" else "s--",
            ms=3.5,
            color=f"C{i}",
            label=f"C = {c_name}, P = {p_name}",
        )
        if p_name == "identity" and len(g):
            _ratio_criterion(ax, g, "horizon_needed", f"C{i}", bounded=c_name != "identity")
    _criterion_legend(ax, "the value at d_max / 8")
    _loglog(ax, "dimension d", f"S needed for KL ≤ {epsilon:g}")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    fig.tight_layout()
    return fig


def step_sizes(table: pd.DataFrame) -> plt.Figure:
    """KL of the exponential integrator vs Euler-Maruyama against d per step size; Euler's stability limit."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    finite_p = [p for p, g in table.groupby("preconditioner") if np.isfinite(g["kl"]).all()]
    shown = table[table["preconditioner"] == (finite_p[0] if finite_p else table["preconditioner"].iloc[0])]
    steps = sorted(shown["step"].unique())
    for i, h in enumerate(steps):
        for scheme, style in (("exponential", "o-"), ("euler", "s--")):
            g = shown[(shown["step"] == h) & (shown["scheme"] == scheme)]
            g = g[np.isfinite(g["kl"]) & (g["kl"] > 0)]
            axes[0].plot(g["d"], g["kl"], style, ms=3.5, color=f"C{i}", label=f"{scheme}, h = {h:g}")
    _loglog(axes[0], "dimension d", "KL (coordinates 2..d)")
    axes[0].set_title(f"C = {shown['smoothing'].iloc[0]}, P = {shown['preconditioner'].iloc[0]}")
    axes[0].legend(fontsize=7)
    for i, (p_name, g) in enumerate(table.groupby("preconditioner", sort=True)):
        g = g.drop_duplicates("d")
        axes[1].plot(g["d"], g["euler_stability_limit"], "o-", ms=3.5, color=f"C{i}", label=f"P = {p_name}")
    _loglog(axes[1], "dimension d", "largest stable Euler step 2 min λ_j/p_j")
    axes[1].legend(fontsize=7)
    axes[1].set_title("Euler-Maruyama stability (the exponential integrator has none)")
    return fig


def mode_weights(errors: pd.DataFrame, trajectory: pd.DataFrame, modes: pd.DataFrame) -> plt.Figure:
    """Mode-weight error against d per method, with the claim's threshold; mode-weight trajectories at the
    largest d, with the mixture's true weights as dashed lines (what "recovers the weights" compares with)."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    ax = axes[0]
    for method, g in errors.groupby("method", sort=True):
        ax.plot(
            g["d"],
            g["weight_tv_error"],
            "o-",
            ms=4,
            color=METHOD_COLORS.get(method),
            label=METHOD_LABELS.get(method, method),
        )
    exact = errors.groupby("d")["exact_sample_tv_error"].first()
    ax.plot(exact.index, exact.values, "k:", lw=1, label="exact sample (Monte Carlo floor)")
    ax.axhline(WEIGHT_TOL, color="0.3", ls="--", lw=1, label=f"claim threshold {WEIGHT_TOL:g}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("dimension d")
    ax.set_ylabel("mode-weight error (total variation)")
    ax.grid(alpha=0.3, which="both", lw=0.5)
    ax.legend(fontsize=7)
    d_max = trajectory["d"].max()
    for ax, method in zip(axes[1:], ("ald_exponential", "plain_exponential")):
        g = trajectory[(trajectory["method"] == method) & (trajectory["d"] == d_max)]
        targets = modes[modes["mode"].isin(g["mode"].unique())].groupby("mode")["target_weight"].first()
        for k, gk in g.groupby("mode"):
            ax.plot(gk["s"], gk["weight"], lw=1.4, color=f"C{k}", label=f"mode {k}")
            ax.axhline(targets[k], color=f"C{k}", ls="--", lw=0.9, alpha=0.8, label=f"true weight {targets[k]:g}")
        ax.set_xlabel("time s")
        ax.set_ylabel("mean responsibility under μ_t")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{METHOD_LABELS[method]}, d = {d_max}", fontsize=9)
        ax.grid(alpha=0.3, lw=0.5)
        ax.legend(fontsize=7, ncol=2)
    return fig


def annealing_time(table: pd.DataFrame) -> plt.Figure:
    """Mode-weight error of annealed Langevin against the annealing time in units of the relaxation time."""
    fig, ax = plt.subplots(figsize=(5.2, 4))
    ax.plot(table["horizon_over_relaxation"], table["weight_tv_error"], "o-", color="C0")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("annealing time S / slowest relaxation time")
    ax.set_ylabel("mode-weight error (total variation)")
    ax.set_title(f"d = {int(table['d'].iloc[0])}, exponential integrator", fontsize=9)
    ax.grid(alpha=0.3, which="both", lw=0.5)
    return fig


def perturbation(table: pd.DataFrame, trace_class: str) -> plt.Figure:
    """Amplification of each perturbation against d, the reference C beside C = I, with the claim's bound."""
    fig, ax = plt.subplots(figsize=(5.6, 4))
    for color, kind in zip(("C0", "C1"), ("initialisation", "score")):
        for style, smoothing in (("o-", trace_class), ("s--", "identity")):
            rows = table[(table["kind"] == kind) & (table["smoothing"] == smoothing)].sort_values("d")
            ax.plot(rows["d"], rows["amplification"], style, color=color, ms=3, label=f"{kind}, C = {smoothing}")
    ax.axhline(
        AMPLIFICATION_MAX, color="k", lw=0.8, ls=":", label=f"claim: at most {AMPLIFICATION_MAX:g} (reference C)"
    )
    _loglog(ax, "dimension d", "final KL excess / perturbation's own KL")
    ax.set_title(f"perturbations x (1 + {table['eta'].iloc[0]:g}), fast preconditioner", fontsize=9)
    ax.legend(fontsize=7)
    return fig
