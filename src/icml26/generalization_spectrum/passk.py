"""The unbiased pass@k estimator (Chen et al. 2021): of n samples, c correct, the chance that at least one
of k drawn without replacement is correct, ``1 - C(n - c, k) / C(n, k)``, computed as a product so large n
does not overflow."""

from __future__ import annotations

import numpy as np


def pass_at_k(n: int, c: int, k: int) -> float:
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))
