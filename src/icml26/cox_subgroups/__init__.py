"""Subgroup discovery with the Cox model (Izzo & Melvin, arXiv 2512.20762).

Spec: ``shared/papers/cox_subgroups.md``. The paper's contributions, EPE and
CRS, and the DDGroup-based search are written here; Cox fits are checked
against scikit-survival, C-index and survival trees come from it.

Modules:
    cox        -- Cox partial likelihood and a fast Newton fit (checked against scikit-survival)
    metrics    -- expected prediction entropy (EPE), partial likelihood, C-index
    crs        -- conditional rank statistics: rank probabilities (O(n) recursion) and tail scores
    boxes      -- axis-aligned boxes: membership, volume F1, bounding boxes, face-hitting growth
    ddgroup    -- DDGroup with EPE/CRS and its C-index, partial-likelihood and no-expansion variants
    baselines  -- Base, Random, survival tree, Cox tree, PRIM
    synthetic  -- Synth-Nonlinear and Synth-Counter with their planted boxes
    realdata   -- bundled and provided survival datasets
    rules      -- the functions the Snakemake rules call
"""

# what the paper-scale replica needs (icml26.common.lm.replicas.sources / overlay): the subsets the fetched
# folder is read for, and C-MAPSS files in NASA's layout in place of the fetched ones
REPLICA_KEYS = ("subsets",)


def replica_data(hub: str, folder) -> None:
    from .cmapss import write_replica

    write_replica(folder)
