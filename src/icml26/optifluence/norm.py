"""The normalisation layer of the residual networks: GroupNorm where the papers use BatchNorm.

Ours, not the paper's: the audit trains many models as one batched computation over stacked weights
(``torch.func.functional_call`` under ``vmap``), where a model is its parameters alone; BatchNorm's running
statistics are a second, mutated state per model that the functional step does not carry, and its output would
depend on which images share a batch (the canaries are scored in a batch of their own). GroupNorm normalises
each image on its own and has the same learnable scale and shift.
"""

import math

from torch import nn

GROUPS = 32  # Wu & He's default


def norm(channels: int) -> nn.GroupNorm:
    """GroupNorm over ``channels`` in 32 groups (fewer when ``channels`` is not a multiple of 32)."""
    return nn.GroupNorm(math.gcd(GROUPS, channels), channels)
