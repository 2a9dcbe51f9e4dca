"""netdiff: diffusion-generated directional link topologies for MANETs (NetDiff with ACAM tokens, partial diffusion;
spec ``shared/papers/netdiff.md``). Not yet registered. So far: the simulator (``simulator``: placements, sectors,
the two-slot parity schedule, SINR, throughput, the spec's metrics), the heuristic baselines (``heuristics``), the
exact MILP for small N (``milp``), the target generator (``target``), the calibration sweep (``calibration``), the
discrete diffusion with its (partial) sampler (``diffusion``), the denoiser with and without ACAM tokens
(``denoiser``) and its inputs (``features``), training with the auxiliary losses, generation and repair
(``training``), the mobility trace and link churn (``mobility``). The experiments and the rules follow.
"""
