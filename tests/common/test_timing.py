"""Peak memory of one call: what the call itself touches, not what the process held before."""

import math
from pathlib import Path

import numpy as np
import pytest

from icml26.common.timing import peak_memory_mb

LINUX = Path("/proc/self/clear_refs").exists()


@pytest.mark.skipif(not LINUX, reason="the resident set's high-water mark is read from /proc")
def test_peak_memory_sees_a_call_s_own_allocation_even_after_a_larger_one():
    held = np.ones(64 * 2**20 // 8)  # 64 MiB held throughout: not the call's
    assert peak_memory_mb(lambda: np.ones(256 * 2**20 // 8).sum()) == pytest.approx(256, abs=24)
    assert peak_memory_mb(lambda: np.ones(32 * 2**20 // 8).sum()) == pytest.approx(32, abs=12)  # not 256 again
    assert peak_memory_mb(lambda: None) < 4
    assert held.sum() > 0


@pytest.mark.skipif(LINUX, reason="elsewhere there is nothing to read")
def test_peak_memory_is_nan_where_it_cannot_be_read():
    assert math.isnan(peak_memory_mb(lambda: None))
