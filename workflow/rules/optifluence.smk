# optifluence: optimised canaries for privacy auditing (spec: shared/papers/optifluence.md).
# seeds (split, reference model, self-influence, heuristic canaries) -> optimise_{type} -> audit_{arch}
# -> tables (LiRA) -> figures, verdict; timing (vmap vs a loop, seconds per optimisation step) beside.
# Each rule calls one function of icml26.optifluence.rules (see docs/ARCHITECTURE.md).

from icml26.optifluence.canaries import all_types, truncations
from icml26.optifluence.data import source_files

OF = register("optifluence")
OF_ABLATION = OF.cfg["ablation"]
OF_TRUNCATION = truncations(OF.cfg["unrolling"]["truncation"], OF_ABLATION)  # optimised type -> k
OF_TYPES = all_types(OF_ABLATION)
OF_ARCHS = [OF.cfg["target"], *OF.cfg["transfer"]]
OF_ARCHITECTURES = {name: {"name": name, **spec} for name, spec in OF.cfg["architectures"].items()}


rule optifluence:
    """Target: every optifluence output at the configured scale."""
    input:
        paper_outputs(OF),
        expand(f"{OF.results}/figures/{{name}}.png", name=["roc", "transfer", "ablation", "convergence"]),
        f"{OF.timing}/vmap_speedup.csv",


rule optifluence_seeds:
    input:
        sources=source_files(OF.cfg["dataset"]["name"], OF.cfg["dataset"]["path"]),
    output:
        images=f"{OF.data}/images.npz",
        seed_sets=f"{OF.data}/seed_sets.npz",
        influence_table=table_report(OF, "influence"),
    threads: paper_threads(OF)
    resources:
        **job_resources(OF, gpu=True),
    params:
        func="icml26.optifluence.rules:seeds",
        device=config["device"],
        dataset=OF.cfg["dataset"]["name"],
        pool=OF.cfg["dataset"]["pool"],
        split=OF.cfg["split"],
        architecture=OF_ARCHITECTURES[OF.cfg["target"]],
        training=OF.cfg["training"],
        damping=OF.cfg["influence"]["damping"],
        canaries_per_type=OF.cfg["canaries_per_type"],
        ablation=OF_ABLATION,
        seed=OF.cfg["seed"],
    script:
        CALL


rule optifluence_optimise:
    input:
        images=rules.optifluence_seeds.output.images,
        seed_sets=rules.optifluence_seeds.output.seed_sets,
    output:
        canaries=f"{OF.data}/optimised/{{kind}}.npz",
        trace=f"{OF.data}/traces/{{kind}}.csv",
        timing=f"{OF.timing}/optimise_steps/{{kind}}.csv",
    wildcard_constraints:
        kind="|".join(OF_TRUNCATION),
    threads: paper_threads(OF)
    resources:
        **job_resources(OF, gpu=True),
    params:
        func="icml26.optifluence.rules:optimise",
        device=config["device"],
        kind=lambda w: w.kind,
        truncation=lambda w: OF_TRUNCATION[w.kind],
        architecture=OF_ARCHITECTURES[OF.cfg["target"]],
        training=OF.cfg["training"],
        unrolling={
            **{k: v for k, v in OF.cfg["unrolling"].items() if k != "truncation"},
            "base_fraction": OF.cfg["audit"]["base_fraction"],
        },
        seed=OF.cfg["seed"],
    script:
        CALL


rule optifluence_audit:
    input:
        images=rules.optifluence_seeds.output.images,
        seed_sets=rules.optifluence_seeds.output.seed_sets,
        optimised=expand(f"{OF.data}/optimised/{{kind}}.npz", kind=list(OF_TRUNCATION)),
    output:
        scores=f"{OF.data}/scores/{{arch}}.npz",
    wildcard_constraints:
        arch="|".join(OF_ARCHS),
    threads: paper_threads(OF)
    resources:
        **job_resources(OF, gpu=True),
    params:
        func="icml26.optifluence.rules:audit",
        device=config["device"],
        architecture=lambda w: OF_ARCHITECTURES[w.arch],
        training=OF.cfg["training"],
        types=OF_TYPES,
        audit=OF.cfg["audit"],
        seed=OF.cfg["seed"],
    script:
        CALL


rule optifluence_tables:
    input:
        scores=expand(f"{OF.data}/scores/{{arch}}.npz", arch=OF_ARCHS),
    output:
        tpr_table=table_report(OF, "tpr"),
        roc_table=f"{OF.results}/tables/roc.csv",
        accuracy_table=table_report(OF, "accuracy"),
        ablation_table=table_report(OF, "ablation"),
    params:
        func="icml26.optifluence.rules:tables",
        architectures=OF_ARCHS,
        target=OF.cfg["target"],
        truncation=OF.cfg["unrolling"]["truncation"],
        ablation=OF_ABLATION,
        fpr=OF.cfg["fpr"],
    script:
        CALL


rule optifluence_timing:
    input:
        images=rules.optifluence_seeds.output.images,
        steps=expand(f"{OF.timing}/optimise_steps/{{kind}}.csv", kind=list(OF_TRUNCATION)),
    output:
        vmap_table=f"{OF.timing}/vmap_speedup.csv",
        step_table=f"{OF.timing}/optimise_step_seconds.csv",
        machine=f"{OF.timing}/machine.json",
    priority: -1  # after the audits that are ready with it: the verdict comes sooner, the clock sees less load
    resources:
        gpu=gpus(OF),
    params:
        func="icml26.optifluence.rules:timing",
        device=config["device"],
        architecture=OF_ARCHITECTURES[OF.cfg["target"]],
        training=OF.cfg["training"],
        timing=OF.cfg["timing"],
    script:
        CALL


rule optifluence_figures:
    input:
        roc_table=rules.optifluence_tables.output.roc_table,
        tpr_table=rules.optifluence_tables.output.tpr_table,
        accuracy_table=rules.optifluence_tables.output.accuracy_table,
        ablation_table=rules.optifluence_tables.output.ablation_table,
        traces=expand(f"{OF.data}/traces/{{kind}}.csv", kind=list(OF_TRUNCATION)),
    output:
        **figure_outputs(OF, "roc", "transfer", "ablation", "convergence", captions={"ablation": "ablation_figure"}),
    params:
        func="icml26.optifluence.rules:figures",
        target=OF.cfg["target"],
        architectures=OF_ARCHS,
        fpr=OF.cfg["fpr"],
    script:
        CALL


rule optifluence_verdict:
    input:
        tpr_table=rules.optifluence_tables.output.tpr_table,
        accuracy_table=rules.optifluence_tables.output.accuracy_table,
        trace=f"{OF.data}/traces/optifluence.csv",
    output:
        claims=report(
            f"{OF.results}/claims.json",
            caption="../report/optifluence/claims.rst",
            category="optifluence",
            subcategory="verdict",
        ),
        metrics=f"{OF.results}/metrics.json",
    params:
        func="icml26.optifluence.rules:verdict",
        substitution=substitution(OF, "dataset.path"),
        target=OF.cfg["target"],
        transfer=OF.cfg["transfer"],
        fpr=OF.cfg["fpr"],
    script:
        CALL
