"""Seeding and thread pinning, so the same config gives the same bytes."""

from __future__ import annotations

import os
import random

import numpy as np

_THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def pin_threads(n: int) -> None:
    """Limit BLAS/OpenMP (and torch, if loaded) to ``n`` threads in this process."""
    if n < 1:
        raise ValueError(f"thread count must be >= 1, got {n}")
    for name in _THREAD_VARIABLES:
        os.environ[name] = str(n)
    from threadpoolctl import threadpool_limits

    threadpool_limits(n)
    torch = _loaded_torch()
    if torch is not None:
        torch.set_num_threads(n)


def seed_everything(seed: int) -> np.random.Generator:
    """Seed python, numpy and torch (if loaded); return a fresh numpy Generator.

    Library code should take the returned Generator (or a seed) explicitly;
    the global seeds only guard third-party code that draws on its own.
    """
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch = _loaded_torch()
    if torch is not None:
        torch.manual_seed(seed)
        # = use_deterministic_algorithms(True, warn_only=True) without its import of torch._inductor (about
        # 2 s per job, for a compiler setting no job uses)
        torch.set_deterministic_debug_mode("warn")
    return np.random.default_rng(seed)


def _loaded_torch():
    """Torch if some module already imported it (we never import it just to seed it)."""
    import sys

    return sys.modules.get("torch")
