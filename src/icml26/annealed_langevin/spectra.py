"""Power-law spectra in the sine / Karhunen-Loeve basis.

Every operator of the paper is diagonal in the same basis and is given by its
eigenvalues on coordinates ``j = 1..d``: component covariances
``lambda_j = j^(-2 alpha)``, smoothing covariance ``c_j = j^(-2 beta)`` (or the
identity) and preconditioner ``p_j = j^(-2 r)`` (or the identity). ``C`` is
trace-class relative to ``Sigma`` (the paper's spectral condition) when
``sum_j c_j / lambda_j < inf``, i.e. ``beta > alpha + 1/2``.
"""

from __future__ import annotations

import numpy as np


def power_law(d: int, exponent: float) -> np.ndarray:
    """``j^(-exponent)`` for ``j = 1..d``; exponent 0 is the identity."""
    if d < 1:
        raise ValueError(f"dimension must be >= 1, got {d}")
    return np.arange(1, d + 1, dtype=float) ** (-float(exponent))


def operator(kind: str, d: int, rate: float) -> np.ndarray:
    """Eigenvalues of an operator named by config: ``identity`` or ``decaying`` (``j^(-2 rate)``)."""
    if kind == "identity":
        return np.ones(d)
    if kind == "decaying":
        return power_law(d, 2 * rate)
    raise ValueError(f"operator kind must be 'identity' or 'decaying', got {kind!r}")
