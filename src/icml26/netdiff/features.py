"""What the denoiser sees of an instance (ours; the spec lists the quantities):

- per node (``NODE_FEATURES`` = 5): position ``x, y``, antenna orientation ``cos, sin``, range degree / (N - 1);
- per ordered pair (``edge_features(K)`` = 5 + 2K): distance, in range, the sector of ``j`` seen from ``i`` and of
  ``i`` seen from ``j`` (one-hot each), bearing ``cos, sin``, SNR in dB / 50 (main lobes both ends; 0 on the
  diagonal).

The noisy diffusion state (edge class, parity; one-hot) is appended by :func:`with_state`.
"""

from __future__ import annotations

import numpy as np

from .simulator import Channel, Instance, sector_of

NODE_FEATURES = 5


def edge_features(sectors: int) -> int:
    return 5 + 2 * sectors


def node_features(instance: Instance) -> np.ndarray:
    degree = instance.in_range().sum(1) / max(1, instance.n - 1)
    return np.column_stack(
        [instance.positions, np.cos(instance.orientations), np.sin(instance.orientations), degree]
    ).astype(np.float32)


def pair_features(instance: Instance, channel: Channel) -> np.ndarray:
    n, k = instance.n, channel.sectors
    d = instance.distances()
    sector = sector_of(instance, k)
    delta = instance.positions[None] - instance.positions[:, None]
    bearing = np.arctan2(delta[..., 1], delta[..., 0])
    off = ~np.eye(n, dtype=bool)
    with np.errstate(divide="ignore"):
        snr_db = 10 * np.log10(channel.power * np.where(off, d, 1.0) ** (-channel.alpha) / channel.noise)
    eye_k = np.eye(k)
    out = np.concatenate(
        [
            d[..., None],
            instance.in_range()[..., None],
            eye_k[sector] * off[..., None],
            eye_k[sector.T] * off[..., None],
            (np.cos(bearing) * off)[..., None],
            (np.sin(bearing) * off)[..., None],
            (np.where(off, snr_db, 0.0) / 50)[..., None],
        ],
        axis=-1,
    )
    return out.astype(np.float32)


def with_state(nodes: np.ndarray, pairs: np.ndarray, edge_class: np.ndarray, parity: np.ndarray):
    """Append the one-hot noisy state: edge class ``[N, N]`` in {0, 1}, parity ``[N]`` in {0, 1}."""
    return (
        np.concatenate([nodes, np.eye(2, dtype=np.float32)[parity]], axis=-1),
        np.concatenate([pairs, np.eye(2, dtype=np.float32)[edge_class]], axis=-1),
    )
