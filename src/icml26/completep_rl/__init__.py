"""CompleteP vs NTK (and SP) parameterisations when scaling RL agents (ICML 2026, "muP for RL").

Spec: ``shared/papers/completep_rl.md``. No public code; CompleteP follows Dey et al. (2025).

Modules:
    parameterisation -- residual MLPs whose init, per-group Adam learning rates, epsilon, readout and
                        residual multipliers follow SP, CompleteP or NTK relative to a base size
    coordinate       -- the coordinate check: per-layer feature-update size against width
    ppo              -- a small PPO (clipped objective, GAE) on gymnasium vector environments
    sweeps           -- learning-rate transfer, efficiency and consistency summaries of the runs
    plots, verdict, rules
"""
