"""netdiff: diffusion-generated directional link topologies for MANETs (NetDiff with ACAM tokens, partial diffusion;
spec ``shared/papers/netdiff.md``, docs ``docs/papers/netdiff.md``). The simulator (``simulator``: placements,
sectors, the two-slot parity schedule, SINR, throughput, the spec's metrics) and its calibration
(``calibration``); the heuristic baselines (``heuristics``), the target generator (``target``) and its exact
check for small N (``milp``); the discrete diffusion and its (partial) sampler (``diffusion``), the denoiser with
and without ACAM tokens (``denoiser``) and its inputs (``features``), training with the auxiliary losses,
generation and repair (``training``), the mobility trace and link churn (``mobility``); the experiment steps
(``experiments``), instance sets on disk and the user's placements (``store``), the models compared and the
config checks (``settings``), the tables (``analysis``), the claims (``verdict``), the figures (``plots``) and
the rule functions (``rules``).
"""
