# dvm_ad: DVM-AD anomaly detection on ADBench tabular data (spec: shared/papers/dvm_ad.md).
# dataset_{name} -> evaluate_{name} -> tables -> figures, verdict; timing beside (a `seedwise` set:
# evaluate_seed_{name}_{seed} -> join_seeds_{name}, in evaluate_{name}'s place). The anomaly-type claim:
# dataset_{name} -> evaluate_types_{name} (ADBench's synthetic anomalies) -> tables_by_type -> figures, verdict.
# The embedding claim: evaluate_embedding_{benchmark} (every version of one benchmark, from the fetched folders)
# -> tables_embedding -> figures, verdict.
# Each rule calls one function of icml26.dvm_ad.rules (see docs/ARCHITECTURE.md).

from icml26.dvm_ad import embeddings as dvm_embeddings

DVM = register("dvm_ad")
DVM_NAMES = DVM.cfg["datasets"]
DVM_TYPE_NAMES = DVM.cfg["type_datasets"]
DVM_ALL_NAMES = list(dict.fromkeys(DVM_NAMES + DVM_TYPE_NAMES))
DVM_SEEDWISE = DVM.cfg["seedwise"]
DVM_ONE_JOB = [name for name in DVM_NAMES if name not in DVM_SEEDWISE]
if unknown := sorted(set(DVM_SEEDWISE) - set(DVM_NAMES)):
    config_error(f"dvm_ad: seedwise: {', '.join(unknown)} not in datasets")
# what evaluate_{name} and evaluate_seed_{name}_{seed} both pass to rules.evaluate, besides the seeds
DVM_EVALUATE = {key: DVM.cfg[key] for key in ("test_size", "baselines", "epsilon", "adbench_rows")}
DVM_BENCHMARKS = DVM.cfg["embedding_benchmarks"]
DVM_EMBEDDING_DIRS = DVM.cfg["embedding_source_dir"]


rule dvm_ad:
    """Target: every dvm_ad output at the configured scale."""
    input:
        paper_outputs(DVM),
        f"{DVM.results}/figures/average_rank.png",
        f"{DVM.results}/figures/ablation.png",
        f"{DVM.results}/figures/anomaly_types.png",
        f"{DVM.results}/figures/embedding.png",
        f"{DVM.timing}/fit_seconds.csv",


rule dvm_ad_dataset:
    input:
        source=in_first_folder(DVM.cfg["source_dir"], "{name}.npz"),
    output:
        dataset=f"{DVM.data}/datasets/{{name}}.npz",
    wildcard_constraints:
        name="|".join(DVM_ALL_NAMES),
    params:
        func="icml26.dvm_ad.rules:dataset",
        max_rows=DVM.cfg["max_rows"],
        seed=0,
    script:
        CALL


rule dvm_ad_evaluate:
    input:
        dataset=rules.dvm_ad_dataset.output.dataset,
    output:
        auroc=f"{DVM.data}/auroc/{{name}}.csv",
        timing=f"{DVM.timing}/fit_seconds/{{name}}.csv",
    wildcard_constraints:
        name="|".join(DVM_ONE_JOB) or "(?!)",
    threads: paper_threads(DVM)
    resources:
        **job_resources(DVM),
    params:
        **DVM_EVALUATE,
        func="icml26.dvm_ad.rules:evaluate",
        seeds=DVM.cfg["seeds"],
    script:
        CALL


rule dvm_ad_evaluate_seed:
    """evaluate for one seed of a `seedwise` set: the same function, so each seed's rows are those of the one job."""
    input:
        dataset=rules.dvm_ad_dataset.output.dataset,
    output:
        auroc=f"{DVM.data}/auroc_by_seed/{{name}}/seed{{seed}}.csv",
        timing=f"{DVM.timing}/fit_seconds_by_seed/{{name}}/seed{{seed}}.csv",
    wildcard_constraints:
        name="|".join(DVM_SEEDWISE) or "(?!)",
        seed=r"\d+",
    threads: paper_threads(DVM)
    resources:
        **job_resources(DVM),
    params:
        **DVM_EVALUATE,
        func="icml26.dvm_ad.rules:evaluate",
        seeds=lambda w: [int(w.seed)],
    script:
        CALL


rule dvm_ad_join_seeds:
    """A `seedwise` set's per-seed tables, in the config's seed order, as evaluate_{name} writes them."""
    input:
        aurocs=expand(f"{DVM.data}/auroc_by_seed/{{{{name}}}}/seed{{seed}}.csv", seed=DVM.cfg["seeds"]),
        timings=expand(f"{DVM.timing}/fit_seconds_by_seed/{{{{name}}}}/seed{{seed}}.csv", seed=DVM.cfg["seeds"]),
    output:
        auroc=f"{DVM.data}/auroc/{{name}}.csv",
        timing=f"{DVM.timing}/fit_seconds/{{name}}.csv",
    wildcard_constraints:
        name="|".join(DVM_SEEDWISE) or "(?!)",
    params:
        func="icml26.dvm_ad.rules:join_seeds",
    script:
        CALL


rule dvm_ad_evaluate_types:
    input:
        dataset=rules.dvm_ad_dataset.output.dataset,
    output:
        auroc=f"{DVM.data}/auroc_by_type/{{name}}.csv",
        timing=f"{DVM.timing}/fit_seconds_by_type/{{name}}.csv",
    wildcard_constraints:
        name="|".join(DVM_TYPE_NAMES),
    threads: paper_threads(DVM)
    resources:
        **job_resources(DVM),
    params:
        func="icml26.dvm_ad.rules:evaluate_types",
        types=DVM.cfg["anomaly_types"],
        seeds=DVM.cfg["seeds"],
        test_size=DVM.cfg["test_size"],
        baselines=DVM.cfg["baselines"],
        epsilon=DVM.cfg["epsilon"],
        adbench_rows=DVM.cfg["adbench_rows"],
    script:
        CALL


rule dvm_ad_evaluate_embedding:
    input:
        datasets=lambda wildcards: dvm_embeddings.inputs(DVM_EMBEDDING_DIRS, wildcards.benchmark),
    output:
        auroc=f"{DVM.data}/auroc_embedding/{{benchmark}}.csv",
        timing=f"{DVM.timing}/fit_seconds_embedding/{{benchmark}}.csv",
    wildcard_constraints:
        benchmark="|".join(DVM_BENCHMARKS) or "(?!)",
    threads: paper_threads(DVM)
    resources:
        **job_resources(DVM),
    params:
        func="icml26.dvm_ad.rules:evaluate_embedding",
        benchmark=lambda wildcards: wildcards.benchmark,
        seeds=DVM.cfg["seeds"],
        test_size=DVM.cfg["test_size"],
        baselines=DVM.cfg["baselines"],
        epsilon=DVM.cfg["epsilon"],
        adbench_rows=DVM.cfg["adbench_rows"],
    script:
        CALL


rule dvm_ad_tables_embedding:
    input:
        aurocs=expand(f"{DVM.data}/auroc_embedding/{{benchmark}}.csv", benchmark=DVM_BENCHMARKS),
    output:
        per_benchmark=report(
            f"{DVM.results}/tables/auroc_per_benchmark.csv",
            caption="../report/dvm_ad/auroc_per_benchmark.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
        leaderboard=report(
            f"{DVM.results}/tables/leaderboard_embedding.csv",
            caption="../report/dvm_ad/leaderboard_embedding.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
    params:
        func="icml26.dvm_ad.rules:summarise_embedding",
    script:
        CALL


rule dvm_ad_tables_by_type:
    input:
        aurocs=expand(f"{DVM.data}/auroc_by_type/{{name}}.csv", name=DVM_TYPE_NAMES),
    output:
        per_dataset=report(
            f"{DVM.results}/tables/auroc_per_dataset_by_type.csv",
            caption="../report/dvm_ad/auroc_per_dataset_by_type.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
        leaderboard=report(
            f"{DVM.results}/tables/leaderboard_by_type.csv",
            caption="../report/dvm_ad/leaderboard_by_type.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
        ablation=report(
            f"{DVM.results}/tables/ablation_by_type.csv",
            caption="../report/dvm_ad/ablation_by_type.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
    params:
        func="icml26.dvm_ad.rules:summarise_types",
    script:
        CALL


rule dvm_ad_tables:
    input:
        aurocs=expand(f"{DVM.data}/auroc/{{name}}.csv", name=DVM_NAMES),
    output:
        per_dataset=report(
            f"{DVM.results}/tables/auroc_per_dataset.csv",
            caption="../report/dvm_ad/auroc_per_dataset.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
        leaderboard=report(
            f"{DVM.results}/tables/leaderboard.csv",
            caption="../report/dvm_ad/leaderboard.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
        ablation=report(
            f"{DVM.results}/tables/ablation.csv",
            caption="../report/dvm_ad/ablation_table.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
        rank_per_seed=report(
            f"{DVM.results}/tables/rank_per_seed.csv",
            caption="../report/dvm_ad/rank_per_seed.rst",
            category="dvm_ad",
            subcategory="tables",
        ),
    params:
        func="icml26.dvm_ad.rules:summarise",
    script:
        CALL


rule dvm_ad_timing:
    input:
        timings=expand(f"{DVM.timing}/fit_seconds/{{name}}.csv", name=DVM_NAMES)
        + expand(f"{DVM.timing}/fit_seconds_by_type/{{name}}.csv", name=DVM_TYPE_NAMES)
        + expand(f"{DVM.timing}/fit_seconds_embedding/{{benchmark}}.csv", benchmark=DVM_BENCHMARKS),
    output:
        summary=f"{DVM.timing}/fit_seconds.csv",
        machine=f"{DVM.timing}/machine.json",
    params:
        func="icml26.dvm_ad.rules:timing",
    script:
        CALL


rule dvm_ad_figures:
    input:
        leaderboard=rules.dvm_ad_tables.output.leaderboard,
        rank_per_seed=rules.dvm_ad_tables.output.rank_per_seed,
        ablation=rules.dvm_ad_tables.output.ablation,
        leaderboard_by_type=rules.dvm_ad_tables_by_type.output.leaderboard,
        leaderboard_embedding=rules.dvm_ad_tables_embedding.output.leaderboard,
    output:
        **figure_outputs(DVM, "average_rank", "ablation", "anomaly_types", "embedding"),
    params:
        func="icml26.dvm_ad.rules:figures",
    script:
        CALL


rule dvm_ad_verdict:
    input:
        per_dataset=rules.dvm_ad_tables.output.per_dataset,
        leaderboard=rules.dvm_ad_tables.output.leaderboard,
        ablation=rules.dvm_ad_tables.output.ablation,
        per_dataset_by_type=rules.dvm_ad_tables_by_type.output.per_dataset,
        leaderboard_by_type=rules.dvm_ad_tables_by_type.output.leaderboard,
        per_benchmark=rules.dvm_ad_tables_embedding.output.per_benchmark,
        leaderboard_embedding=rules.dvm_ad_tables_embedding.output.leaderboard,
    output:
        claims=report(
            f"{DVM.results}/claims.json",
            caption="../report/dvm_ad/claims.rst",
            category="dvm_ad",
            subcategory="verdict",
        ),
        metrics=f"{DVM.results}/metrics.json",
    params:
        func="icml26.dvm_ad.rules:verdict",
        substitution=substitution(DVM),
        adbench_rows=DVM.cfg["adbench_rows"],
    script:
        CALL
