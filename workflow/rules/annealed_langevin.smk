# annealed_langevin: dimension-uniform annealed Langevin for Gaussian mixtures
# (spec: shared/papers/annealed_langevin.md).
# factorised KL table, horizons, step sizes, oracles (closed form); particles_{method}_d{d} -> particle
# tables; annealing_point_S{horizon} -> annealing sweep -> figures, verdict; timing beside.
# Each rule calls one function of icml26.annealed_langevin.rules (see docs/ARCHITECTURE.md).

AL = register("annealed_langevin")
AL_SPEC = AL.cfg["spectrum"]
AL_FACT = AL.cfg["factorised"]
AL_PART = AL.cfg["particles"]
AL_METHODS = ["ald_exponential", "ald_euler", "plain_exponential"]
AL_DIMS = AL_PART["dims"]

AL_OPERATORS = dict(alpha=AL_SPEC["alpha"], smoothing=AL_SPEC["smoothing"], preconditioner=AL_SPEC["preconditioner"])
AL_PROBLEM = dict(
    alpha=AL_SPEC["alpha"],
    seed=AL_PART["seed"],
    **{k: AL_PART[k] for k in ("weights", "centres", "offset_scale", "covariance_spread")},
)
AL_RATES = dict(
    c_rate=AL_SPEC["smoothing"][AL_PART["smoothing"]], p_rate=AL_SPEC["preconditioner"][AL_PART["preconditioner"]]
)


AL_FIGURES = ["kl_vs_dimension", "horizons", "step_sizes", "mode_weights", "annealing_time", "perturbation"]


rule annealed_langevin:
    """Target: every annealed_langevin output at the configured scale."""
    input:
        paper_outputs(AL),
        expand(f"{AL.results}/figures/{{name}}.png", name=AL_FIGURES),
        f"{AL.timing}/step_seconds.csv",


rule annealed_langevin_factorised:
    output:
        table=paper_report(AL, "tables/factorised_kl.csv", "factorised_kl"),
    params:
        **AL_OPERATORS,
        **{k: AL_FACT[k] for k in ("dims", "tau0", "horizon", "n_steps")},
        func="icml26.annealed_langevin.rules:factorised_kl",
        misspecification=AL.cfg["misspecification"],
    script:
        CALL


rule annealed_langevin_perturbation:
    output:
        table=paper_report(AL, "tables/perturbation.csv", "perturbation_table"),
    params:
        **AL_OPERATORS,
        **{k: AL_FACT[k] for k in ("dims", "tau0", "horizon")},
        func="icml26.annealed_langevin.rules:perturbation_kl",
        fast=AL.cfg["fast_preconditioner"],
        eta=AL.cfg["perturbation"],
    script:
        CALL


rule annealed_langevin_horizons:
    output:
        curves=paper_report(AL, "tables/kl_vs_horizon.csv", "kl_vs_horizon"),
        table=paper_report(AL, "tables/horizons.csv", "horizons_table"),
    params:
        **AL_OPERATORS,
        **{k: AL_FACT[k] for k in ("dims", "tau0", "epsilon", "horizon_grid")},
        func="icml26.annealed_langevin.rules:horizons",
    script:
        CALL


rule annealed_langevin_step_sizes:
    output:
        table=paper_report(AL, "tables/step_sizes.csv", "step_sizes_table"),
    params:
        **AL_OPERATORS,
        **{k: AL_FACT[k] for k in ("dims", "tau0", "horizon", "step_sizes")},
        func="icml26.annealed_langevin.rules:step_sizes",
        smoothing_name=AL.cfg["reference_smoothing"],
    script:
        CALL


rule annealed_langevin_oracles:
    output:
        table=paper_report(AL, "tables/oracles.csv", "oracles"),
    params:
        **AL_OPERATORS,
        **{k: AL_FACT[k] for k in ("tau0", "horizon")},
        func="icml26.annealed_langevin.rules:oracles",
        misspecification=AL.cfg["misspecification"],
        coordinates=AL_FACT["oracle_coordinates"],
    script:
        CALL


rule annealed_langevin_particles:
    output:
        summary=f"{AL.data}/particles/{{method}}_d{{d}}.csv",
        trajectory=f"{AL.data}/particles/{{method}}_d{{d}}_trajectory.csv",
        timing=f"{AL.timing}/step_seconds/{{method}}_d{{d}}.csv",
    wildcard_constraints:
        method="|".join(AL_METHODS),
        d=r"\d+",
    threads: paper_threads(AL)
    resources:
        **job_resources(AL),
    params:
        **AL_RATES,
        **{k: AL_PART[k] for k in ("n", "tau0", "horizon", "n_steps", "observe", "plain_init_mode", "seed")},
        func="icml26.annealed_langevin.rules:particle_run",
        method=lambda w: w.method,
        d=lambda w: int(w.d),
        problem=AL_PROBLEM,
    script:
        CALL


rule annealed_langevin_particle_tables:
    input:
        summaries=expand(f"{AL.data}/particles/{{method}}_d{{d}}.csv", method=AL_METHODS, d=AL_DIMS),
        trajectories=expand(f"{AL.data}/particles/{{method}}_d{{d}}_trajectory.csv", method=AL_METHODS, d=AL_DIMS),
    output:
        modes=paper_report(AL, "tables/particle_modes.csv", "particle_modes"),
        errors=paper_report(AL, "tables/mode_weight_errors.csv", "mode_weight_errors"),
        trajectory=paper_report(AL, "tables/mode_weight_trajectories.csv", "mode_weight_trajectories"),
    params:
        func="icml26.annealed_langevin.rules:particle_tables",
    script:
        CALL


rule annealed_langevin_annealing_point:
    output:
        table=f"{AL.data}/annealing_time/S{{horizon}}.csv",
    wildcard_constraints:
        horizon=r"[0-9.]+",
    threads: paper_threads(AL)
    resources:
        **job_resources(AL),
    params:
        **AL_RATES,
        **{k: AL_PART["sweep"][k] for k in ("d", "step")},
        func="icml26.annealed_langevin.rules:annealing_point",
        horizon=lambda w: float(w.horizon),
        problem=AL_PROBLEM,
        n=AL_PART["n"],
        tau0=AL_PART["tau0"],
        seed=AL_PART["seed"],
    script:
        CALL


rule annealed_langevin_annealing_sweep:
    input:
        points=[f"{AL.data}/annealing_time/S{S:g}.csv" for S in AL_PART["sweep"]["horizons"]],
    output:
        table=paper_report(AL, "tables/annealing_time.csv", "annealing_time_table"),
    params:
        func="icml26.annealed_langevin.rules:annealing_sweep",
    script:
        CALL


rule annealed_langevin_timing:
    input:
        timings=expand(f"{AL.timing}/step_seconds/{{method}}_d{{d}}.csv", method=AL_METHODS, d=AL_DIMS),
    output:
        summary=f"{AL.timing}/step_seconds.csv",
        machine=f"{AL.timing}/machine.json",
    params:
        func="icml26.annealed_langevin.rules:timing",
    script:
        CALL


rule annealed_langevin_figures:
    input:
        factorised_table=rules.annealed_langevin_factorised.output.table,
        curves=rules.annealed_langevin_horizons.output.curves,
        horizon_table=rules.annealed_langevin_horizons.output.table,
        step_table=rules.annealed_langevin_step_sizes.output.table,
        errors=rules.annealed_langevin_particle_tables.output.errors,
        trajectory=rules.annealed_langevin_particle_tables.output.trajectory,
        modes=rules.annealed_langevin_particle_tables.output.modes,
        sweep=rules.annealed_langevin_annealing_sweep.output.table,
        perturbation_table=rules.annealed_langevin_perturbation.output.table,
    output:
        **figure_outputs(AL, *AL_FIGURES),
    params:
        func="icml26.annealed_langevin.rules:figures",
        epsilon=AL_FACT["epsilon"],
        reference_smoothing=AL.cfg["reference_smoothing"],
        fast_preconditioner=AL.cfg["fast_preconditioner"],
    script:
        CALL


rule annealed_langevin_verdict:
    input:
        factorised_table=rules.annealed_langevin_factorised.output.table,
        horizon_table=rules.annealed_langevin_horizons.output.table,
        errors=rules.annealed_langevin_particle_tables.output.errors,
        modes=rules.annealed_langevin_particle_tables.output.modes,
        sweep=rules.annealed_langevin_annealing_sweep.output.table,
        oracle_table=rules.annealed_langevin_oracles.output.table,
        perturbation_table=rules.annealed_langevin_perturbation.output.table,
    output:
        claims=paper_report(AL, "claims.json", "claims", "verdict"),
        metrics=f"{AL.results}/metrics.json",
    params:
        func="icml26.annealed_langevin.rules:verdict",
        substitution=substitution(AL),
        reference_smoothing=AL.cfg["reference_smoothing"],
        fast_preconditioner=AL.cfg["fast_preconditioner"],
        particles=AL.cfg["particles"]["n"],
        perturbation=AL.cfg["perturbation"],
    script:
        CALL
