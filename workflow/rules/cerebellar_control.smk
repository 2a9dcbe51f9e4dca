# cerebellar_control: cerebellar-inspired residual control of a frozen policy under post-training faults
# (spec: shared/papers/cerebellar_control.md).
# base_{env} (PPO, DVC-tracked checkpoint) -> forward_model_{env} (nominal rollouts) ->
# adapt_{env}_{fault} (every controller x level x seed, consolidation) -> summary -> figures, verdict.
# Each rule calls one function of icml26.cerebellar_control.rules (see docs/ARCHITECTURE.md).

CC = register("cerebellar_control")
CC_ENVS = CC.cfg["envs"]
CC_FAULTS = [*CC.cfg["faults"], "nominal"]
CC_ADAPT = {
    kind: [f"{CC.data}/{e}/adapt/{f}.{kind}.csv" for e in CC_ENVS for f in CC_FAULTS]
    for kind in ("returns", "curves", "consolidation")
}
CC_FIGURES = ["base_training", "fault_returns", "adaptation", "consolidation"]


rule cerebellar_control:
    """Target: every cerebellar_control output at the configured scale."""
    input:
        paper_outputs(CC),
        expand(f"{CC.results}/figures/{{name}}.png", name=CC_FIGURES),
        [
            f"{CC.results}/tables/{name}"
            for e in CC_ENVS
            for name in (f"base_training_{e}.csv", f"forward_model_{e}.json")
        ],
        f"{CC.timing}/step_seconds.csv",


rule cerebellar_control_base:
    output:
        policy=f"{CC.data}/{{env}}/base_policy.npz",
        curve=f"{CC.results}/tables/base_training_{{env}}.csv",
    wildcard_constraints:
        env="|".join(CC_ENVS),
    threads: paper_threads(CC)
    resources:
        **job_resources(CC),
    params:
        **{
            k: (lambda w, k=k: CC.cfg["environments"][w.env]["base"][k])
            for k in ("steps", "seed", "n_envs", "hidden", "activation")
        },
        func="icml26.cerebellar_control.rules:train_base",
        env=lambda w: w.env,
        algorithm=lambda w: CC.cfg["environments"][w.env]["base"].get("algorithm", "ppo"),
        checkpoint=lambda w: f"{CC.data}/{w.env}/base_checkpoint.pkl",  # not an output: a stopped job's state
        checkpoint_every=lambda w: CC.cfg["environments"][w.env]["base"].get("checkpoint_every"),
        ppo=CC.cfg["ppo"],
        sac=CC.cfg["sac"],
        env_kwargs=lambda w: CC.cfg["environments"][w.env]["env_kwargs"],
        device=config["device"],
    script:
        CALL


rule cerebellar_control_forward_model:
    input:
        policy=rules.cerebellar_control_base.output.policy,
    output:
        model=f"{CC.data}/{{env}}/forward_model.npz",
        fit=f"{CC.results}/tables/forward_model_{{env}}.json",
    wildcard_constraints:
        env="|".join(CC_ENVS),
    params:
        **CC.cfg["forward_model"],
        func="icml26.cerebellar_control.rules:fit_forward_model",
        env=lambda w: w.env,
        env_kwargs=lambda w: CC.cfg["environments"][w.env]["env_kwargs"],
        max_steps=CC.cfg["episode_steps"],
    script:
        CALL


rule cerebellar_control_adapt:
    input:
        policy=rules.cerebellar_control_base.output.policy,
        model=rules.cerebellar_control_forward_model.output.model,
    output:
        returns=f"{CC.data}/{{env}}/adapt/{{fault}}.returns.csv",
        curves=f"{CC.data}/{{env}}/adapt/{{fault}}.curves.csv",
        consolidation=f"{CC.data}/{{env}}/adapt/{{fault}}.consolidation.csv",
        timing=f"{CC.timing}/step_seconds/{{env}}_{{fault}}.csv",
    wildcard_constraints:
        env="|".join(CC_ENVS),
        fault="|".join(CC_FAULTS),
    threads: paper_threads(CC)
    resources:
        **job_resources(CC),
    params:
        func="icml26.cerebellar_control.rules:adapt",
        env=lambda w: w.env,
        env_kwargs=lambda w: CC.cfg["environments"][w.env]["env_kwargs"],
        fault=lambda w: w.fault,
        spec=lambda w: None if w.fault == "nominal" else CC.cfg["environments"][w.env]["faults"][w.fault],
        controllers=CC.cfg["controllers"],
        seeds=CC.cfg["seeds"],
        episodes=CC.cfg["episodes"],
        max_steps=CC.cfg["episode_steps"],
        residual=CC.cfg["residual"],
        gradient_lr=CC.cfg["gradient_lr"],
        curve_window=CC.cfg["curve_window"],
        consolidate=CC.cfg["consolidation"],
        device=config["device"],
    script:
        CALL


rule cerebellar_control_summary:
    input:
        returns=CC_ADAPT["returns"],
        curves=CC_ADAPT["curves"],
        consolidation=CC_ADAPT["consolidation"],
    output:
        table=report(
            f"{CC.results}/tables/returns.csv",
            caption="../report/cerebellar_control/returns_table.rst",
            category="cerebellar_control",
            subcategory="tables",
        ),
        adaptation=f"{CC.results}/tables/adaptation.csv",
        consolidated=f"{CC.results}/tables/consolidation.csv",
    params:
        func="icml26.cerebellar_control.rules:summarise",
        resamples=CC.cfg["resamples"],
    script:
        CALL


rule cerebellar_control_timing:
    input:
        timings=[f"{CC.timing}/step_seconds/{e}_{f}.csv" for e in CC_ENVS for f in CC_FAULTS],
    output:
        summary=f"{CC.timing}/step_seconds.csv",
        machine=f"{CC.timing}/machine.json",
    params:
        func="icml26.cerebellar_control.rules:timing",
    script:
        CALL


rule cerebellar_control_figures:
    input:
        curves=[f"{CC.results}/tables/base_training_{e}.csv" for e in CC_ENVS],
        table=f"{CC.results}/tables/returns.csv",
        adaptation=f"{CC.results}/tables/adaptation.csv",
        consolidated=f"{CC.results}/tables/consolidation.csv",
    output:
        **figure_outputs(CC, *CC_FIGURES),
    params:
        func="icml26.cerebellar_control.rules:figures",
        envs=CC_ENVS,  # one panel per environment, trained or not
    script:
        CALL


rule cerebellar_control_verdict:
    input:
        table=rules.cerebellar_control_summary.output.table,
        consolidated=rules.cerebellar_control_summary.output.consolidated,
        returns=CC_ADAPT["returns"],
        consolidation=CC_ADAPT["consolidation"],
        fits=[f"{CC.results}/tables/forward_model_{e}.json" for e in CC_ENVS],
    output:
        claims=report(
            f"{CC.results}/claims.json",
            caption="../report/cerebellar_control/claims.rst",
            category="cerebellar_control",
            subcategory="verdict",
        ),
        metrics=f"{CC.results}/metrics.json",
    params:
        **CC.cfg["claims"],
        func="icml26.cerebellar_control.rules:verdict",
        substitution=substitution(CC),
        resamples=CC.cfg["resamples"],
    script:
        CALL
