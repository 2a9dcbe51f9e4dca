"""Confidence intervals for a claim's deciding statistic, each returned as a :class:`~.claims.Interval`.

Which to use (docs/ARCHITECTURE.md, "Claims and verdicts"):

- a mean over a few seeds (the usual case here: 2 to 5): :func:`over_seeds`, Student's t over the
  per-seed values -- with fewer than about five seeds a bootstrap over seeds has too few distinct
  resamples (two seeds give three) and understates the spread;
- the difference of two methods' seed means: :func:`seed_difference` (Welch's t);
- a proportion of independent trials: :func:`proportion` (Clopper-Pearson, exact);
- a statistic of many exchangeable items (test prompts, instances): :func:`over_items`, a percentile
  bootstrap over the items (scipy's ``bootstrap``);
- two methods over seeds and shared test items: :func:`icml26.common.bootstrap.difference`;
- a discrete statistic of a few seeds' mean (an argmax over a grid), which no t interval fits:
  :func:`leave_one_out_range`, the range it spans when each seed is left out in turn.

A t interval on two or three seeds can run past the range its statistic can take (an AUROC up to 1.2):
:func:`bounded` clips it to that range and says so in its method.

Every function takes the claim's ``threshold`` and ``side`` so that the interval carries its own verdict
(:attr:`Interval.state`). Intervals are 95 % two-sided unless ``level`` says otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from scipy import stats

from .claims import CLIPPED, Interval


def _finite(values: Sequence[float], what: str) -> np.ndarray:
    array = np.asarray(values, dtype=float).ravel()
    if array.size == 0 or not np.isfinite(array).all():
        raise ValueError(f"{what}: needs finite values, got {list(array)}")
    return array


def over_seeds(
    statistic: str,
    values: Sequence[float],
    threshold: float,
    side: str,
    *,
    level: float = 0.95,
    margin: float | None = None,
    unit: str = "seeds",
) -> Interval:
    """Student's t interval of the mean of per-seed ``values``. One seed gives no interval (infinite bounds:
    the claim cannot come out better than inconclusive)."""
    x = _finite(values, statistic)
    mean = float(x.mean())
    if x.size < 2:
        low, high = -math.inf, math.inf
    elif np.ptp(x) == 0:
        low = high = mean
    else:
        half = float(stats.t.ppf((1 + level) / 2, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
        low, high = mean - half, mean + half
    dof = x.size - 1 if x.size > 1 else None
    return Interval(statistic, mean, low, high, threshold, side, f"t over {x.size} {unit}", level, margin, dof)


def seed_difference(
    statistic: str,
    a: Sequence[float],
    b: Sequence[float],
    threshold: float = 0.0,
    side: str = ">",
    *,
    level: float = 0.95,
    margin: float | None = None,
) -> Interval:
    """Welch's t interval of ``mean(a) - mean(b)``, per-seed values of two methods trained independently."""
    x, y = _finite(a, statistic), _finite(b, statistic)

    def summary(v: np.ndarray) -> tuple[float, float, int]:
        return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else math.nan, int(v.size)

    return difference_from_summary(statistic, summary(x), summary(y), threshold, side, level=level, margin=margin)


def from_summary(
    statistic: str,
    mean: float,
    sd: float,
    n: int,
    threshold: float,
    side: str,
    *,
    level: float = 0.95,
    margin: float | None = None,
    unit: str = "seeds",
) -> Interval:
    """Student's t interval of a mean from its summary (mean, sample sd, count), for tables that keep only those."""
    if n < 2 or not math.isfinite(sd):
        return Interval(statistic, mean, -math.inf, math.inf, threshold, side, f"t: {n} {unit}", level, margin)
    half = float(stats.t.ppf((1 + level) / 2, n - 1) * sd / math.sqrt(n))
    return Interval(
        statistic, mean, mean - half, mean + half, threshold, side, f"t over {n} {unit}", level, margin, n - 1
    )


def difference_from_summary(
    statistic: str,
    a: tuple[float, float, int],
    b: tuple[float, float, int],
    threshold: float = 0.0,
    side: str = ">",
    *,
    level: float = 0.95,
    margin: float | None = None,
    unit: str = "seeds",
) -> Interval:
    """Welch's t interval of ``mean_a - mean_b`` from two (mean, sample sd, count) summaries (unpaired, so
    conservative when the two were measured on the same replicates)."""
    (ma, sa, na), (mb, sb, nb) = a, b
    diff = float(ma - mb)
    method = f"Welch t over {na} and {nb} {unit}"
    if na < 2 or nb < 2:
        return Interval(statistic, diff, -math.inf, math.inf, threshold, side, f"Welch t: needs 2 {unit} each", level)
    va, vb = sa**2 / na, sb**2 / nb
    if va + vb == 0:
        return Interval(statistic, diff, diff, diff, threshold, side, method, level, margin)
    df = (va + vb) ** 2 / (va**2 / (na - 1) + vb**2 / (nb - 1))
    half = float(stats.t.ppf((1 + level) / 2, df) * math.sqrt(va + vb))
    return Interval(statistic, diff, diff - half, diff + half, threshold, side, method, level, margin, df)


def proportion(
    statistic: str,
    successes: int,
    trials: int,
    threshold: float,
    side: str,
    *,
    level: float = 0.95,
    margin: float | None = None,
    unit: str = "trials",
) -> Interval:
    """Clopper-Pearson interval of ``successes / trials``."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"{statistic}: need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence_level=level, method="exact")
    return Interval(
        statistic,
        successes / trials,
        float(ci.low),
        float(ci.high),
        threshold,
        side,
        f"Clopper-Pearson over {trials} {unit}",
        level,
        margin,
    )


def over_items(
    statistic: str,
    values: Sequence[float] | Sequence[Sequence[float]],
    threshold: float,
    side: str,
    *,
    function: Callable[..., float] = np.mean,
    level: float = 0.95,
    margin: float | None = None,
    resamples: int = 2000,
    seed: int = 0,
    unit: str = "items",
) -> Interval:
    """Percentile bootstrap over items of ``function(*columns)``: ``values`` is one array, or several of the
    same length resampled together (paired, e.g. two methods on the same prompts)."""
    columns = [_finite(v, statistic) for v in (values if np.ndim(values) == 2 else [values])]
    estimate = float(function(*columns))
    if len({c.size for c in columns}) != 1:
        raise ValueError(f"{statistic}: paired columns must have the same length")
    if columns[0].size < 2 or all(np.ptp(c) == 0 for c in columns):
        low = high = estimate
    else:
        result = stats.bootstrap(
            columns,
            lambda *cols, axis=-1: _vectorised(function, cols, axis),
            paired=True,
            vectorized=True,
            n_resamples=resamples,
            confidence_level=level,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
        low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
        low, high = min(low, estimate), max(high, estimate)
    return Interval(
        statistic, estimate, low, high, threshold, side, f"bootstrap over {columns[0].size} {unit}", level, margin
    )


def _vectorised(function: Callable[..., float], cols, axis: int) -> np.ndarray:
    """``function`` applied to each resample (scipy hands all resamples at once along ``axis``)."""
    moved = [np.moveaxis(c, axis, -1) for c in cols]
    flat = [m.reshape(-1, m.shape[-1]) for m in moved]
    out = np.array([function(*row) for row in zip(*flat)])
    return out.reshape(moved[0].shape[:-1])


def from_difference(
    statistic: str, row, threshold: float = 0.0, side: str = ">", *, margin: float | None = None
) -> Interval:
    """A table row of :func:`icml26.common.bootstrap.difference` (``difference``, ``low``, ``high`` and the
    interval's ``interval`` method) as an :class:`Interval`."""
    method = getattr(row, "interval", None) or "t over seeds and items"
    return Interval(
        statistic, float(row.difference), float(row.low), float(row.high), threshold, side, method, margin=margin
    )


def leave_one_out_range(
    statistic: str, estimate: float, without_one: Sequence[float], threshold: float, side: str, *, unit: str = "seeds"
) -> Interval:
    """The range of a statistic over all units and with each unit left out in turn (``without_one``): a
    stability range, not a confidence interval (its ``level`` is None). A verdict that survives dropping any
    one seed holds or fails; one that flips is inconclusive."""
    values = _finite([estimate, *without_one], statistic)
    if len(without_one) < 3:  # one unit cannot be left out; two leave single units, which say nothing apart
        low, high = -math.inf, math.inf
    else:
        low, high = float(values.min()), float(values.max())
    method = f"range with each of {len(without_one)} {unit} left out (stability, not a confidence interval)"
    return Interval(statistic, float(estimate), low, high, threshold, side, method, level=None)


def bounded(interval: Interval, low: float, high: float) -> Interval:
    """``interval`` clipped to ``[low, high]``, the values its statistic can take (an AUROC's or a share's
    ``[0, 1]``, a correlation's ``[-1, 1]``), its method saying so when it was clipped. No interval (infinite
    bounds: one seed) stays none; a clipped interval's half width, for what would decide it, is its unclipped
    side's (:meth:`Interval.to_decide`)."""
    if not (math.isfinite(interval.low) and math.isfinite(interval.high)):
        return interval
    clipped_low, clipped_high = max(interval.low, low), min(interval.high, high)
    if (clipped_low, clipped_high) == (interval.low, interval.high):
        return interval
    method = f"{interval.method}, {CLIPPED} [{low:g}, {high:g}]"
    return replace(interval, low=clipped_low, high=clipped_high, method=method)


def exact(statistic: str, value: float, threshold: float, side: str, method: str) -> Interval:
    """A point with no sampling noise beside noisy criteria of the same claim (``method`` says why)."""
    return Interval(statistic, float(value), float(value), float(value), threshold, side, method)
