"""Cerebellar-inspired residual control for fault recovery (ICML 2026, arXiv 2602.07227).

Spec: ``shared/papers/cerebellar_control.md``. No public code; everything below is our reading of the
abstract and the spec.

Modules:
    faults         -- named, reversible post-training faults as edits of the MuJoCo model
    base_policy    -- the frozen policy: SB3 PPO training, kept as arrays, evaluated in numpy
    forward_model  -- the nominal forward model (ridge, bilinear in the action) and its action sensitivity
    residual       -- the cerebellar residual controller (a wrapper around any policy) and the plain
                      online gradient-descent residual baseline
    rollouts       -- consecutive episodes of a controller under a fault
    consolidation  -- distil base + persistent residual into the policy's weights (anchored)
    experiment     -- one fault's experiment: controllers x levels x seeds, then consolidation
    analysis, verdict, plots, rules
"""
