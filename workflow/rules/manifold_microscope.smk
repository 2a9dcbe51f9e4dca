# manifold_microscope: finite-difference geometry of grid-sampled manifolds
# (spec: shared/papers/manifold_microscope.md). This version: the estimator suite on toy manifolds,
# dSprites-style per-class measures, bound scaling on the toys and the beta-VAE layer study.
# accuracy_{toy} -> accuracy table -> figure, verdict; dsprites_{shape} -> classes -> figure; timing beside.
# Each rule calls one function of icml26.manifold_microscope.rules (see docs/ARCHITECTURE.md).

MM = register("manifold_microscope")
MM_CODE = paper_code("manifold_microscope")
MM_ACC = MM.cfg["accuracy"]
MM_DS = MM.cfg["dsprites"]
MM_BOUNDS = MM.cfg["bounds"]
MM_VAE = MM.cfg["vae"]
MM_TT = MM.cfg["turntable"]
MM_OBJECTS = [f"{i:02d}" for i in range(1, MM_TT["objects"] + 1)]
if max(MM_VAE["checkpoints"]) > MM_VAE["iterations"]:
    config_error("manifold_microscope.vae.checkpoints: every checkpoint must be <= vae.iterations")
MM_TOYS = MM_ACC["toys"]
for _toy in MM_TOYS:
    if _toy not in MM_ACC["grid_sizes"]:
        config_error(f"manifold_microscope.accuracy.grid_sizes has no entry for toy {_toy!r}")


rule manifold_microscope:
    """Target: every manifold_microscope output at the configured scale."""
    input:
        paper_outputs(MM),
        f"{MM.results}/figures/estimator_accuracy.png",
        f"{MM.results}/figures/dsprites_classes.png",
        f"{MM.results}/figures/bound_scaling.png",
        f"{MM.results}/figures/vae_layers.png",
        f"{MM.results}/figures/turntable_classes.png",
        f"{MM.results}/tables/intrinsic_dimension.csv",
        f"{MM.bench}/vae_seconds.csv",
        f"{MM.bench}/estimator_seconds.csv",


rule manifold_microscope_accuracy:
    input:
        *MM_CODE,
    output:
        table=f"{MM.data}/accuracy/{{toy}}.csv",
        timing=f"{MM.bench}/estimator_seconds/{{toy}}.csv",
    wildcard_constraints:
        toy="|".join(MM_TOYS),
    params:
        func="icml26.manifold_microscope.rules:estimator_accuracy",
        toy=lambda w: w.toy,
        grid_sizes=lambda w: MM_ACC["grid_sizes"][w.toy],
        **{k: MM_ACC[k] for k in ("D", "order", "reach_samples", "k", "max_baseline_points", "seed")},
    log:
        f"{MM.logs}/accuracy_{{toy}}.log",
    benchmark:
        f"{MM.bench}/accuracy_{{toy}}.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_accuracy_table:
    input:
        *MM_CODE,
        tables=expand(f"{MM.data}/accuracy/{{toy}}.csv", toy=MM_TOYS),
    output:
        table=report(f"{MM.results}/tables/estimator_accuracy.csv",
                     caption="../report/manifold_microscope/accuracy_table.rst",
                     category="manifold_microscope", subcategory="tables"),
    params:
        func="icml26.manifold_microscope.rules:accuracy_table",
    log:
        f"{MM.logs}/accuracy_table.log",
    benchmark:
        f"{MM.bench}/accuracy_table.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_timing:
    input:
        *MM_CODE,
        timings=expand(f"{MM.bench}/estimator_seconds/{{toy}}.csv", toy=MM_TOYS),
    output:
        summary=f"{MM.bench}/estimator_seconds.csv",
    params:
        func="icml26.manifold_microscope.rules:timing",
    log:
        f"{MM.logs}/timing.log",
    benchmark:
        f"{MM.bench}/timing.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_figure_accuracy:
    input:
        *MM_CODE,
        table=rules.manifold_microscope_accuracy_table.output.table,
    output:
        png=report(f"{MM.results}/figures/estimator_accuracy.png",
                   caption="../report/manifold_microscope/accuracy.rst",
                   category="manifold_microscope", subcategory="figures"),
        pdf=f"{MM.results}/figures/estimator_accuracy.pdf",
    params:
        func="icml26.manifold_microscope.rules:figure_accuracy",
    log:
        f"{MM.logs}/figure_accuracy.log",
    benchmark:
        f"{MM.bench}/figure_accuracy.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_dsprites:
    input:
        *MM_CODE,
    output:
        images=f"{MM.data}/dsprites/{{shape}}.npz",
    wildcard_constraints:
        shape="|".join(MM_DS["shapes"]),
    params:
        func="icml26.manifold_microscope.rules:dsprites_slice",
        shape=lambda w: w.shape,
        **{k: MM_DS[k] for k in ("n_rotation", "n_x", "x_range", "scale", "y", "resolution", "supersample", "blur")},
    log:
        f"{MM.logs}/dsprites_{{shape}}.log",
    benchmark:
        f"{MM.bench}/dsprites_{{shape}}.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_classes:
    input:
        *MM_CODE,
        slices=expand(f"{MM.data}/dsprites/{{shape}}.npz", shape=MM_DS["shapes"]),
    output:
        table=report(f"{MM.results}/tables/dsprites_classes.csv",
                     caption="../report/manifold_microscope/classes_table.rst",
                     category="manifold_microscope", subcategory="tables"),
        curvature=f"{MM.data}/dsprites_curvature.csv",
    params:
        func="icml26.manifold_microscope.rules:class_measures",
        shapes=MM_DS["shapes"],
        reach_samples=MM_DS["reach_samples"],
        order=MM_ACC["order"],
        seed=MM_ACC["seed"],
    log:
        f"{MM.logs}/classes.log",
    benchmark:
        f"{MM.bench}/classes.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_figure_classes:
    input:
        *MM_CODE,
        curvature=rules.manifold_microscope_classes.output.curvature,
    output:
        png=report(f"{MM.results}/figures/dsprites_classes.png",
                   caption="../report/manifold_microscope/classes.rst",
                   category="manifold_microscope", subcategory="figures"),
        pdf=f"{MM.results}/figures/dsprites_classes.pdf",
    params:
        func="icml26.manifold_microscope.rules:figure_classes",
    log:
        f"{MM.logs}/figure_classes.log",
    benchmark:
        f"{MM.bench}/figure_classes.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_bounds:
    input:
        *MM_CODE,
    output:
        table=f"{MM.data}/bounds/{{toy}}.csv",
    wildcard_constraints:
        toy="|".join(MM_BOUNDS["toys"]),
    params:
        func="icml26.manifold_microscope.rules:bound_runs",
        toy=lambda w: w.toy,
        D=MM_ACC["D"],
        seed=MM_ACC["seed"],
        **{k: MM_BOUNDS[k] for k in ("n", "seeds", "queries", "k")},
    log:
        f"{MM.logs}/bounds_{{toy}}.log",
    benchmark:
        f"{MM.bench}/bounds_{{toy}}.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_bounds_dsprites:
    input:
        *MM_CODE,
    output:
        table=f"{MM.data}/bounds/dsprites_d{{d}}.csv",
    wildcard_constraints:
        d="[1-3]",
    params:
        func="icml26.manifold_microscope.rules:bound_runs_dsprites",
        d=lambda w: int(w.d),
        position_range=MM_DS["x_range"],
        scale=MM_DS["scale"],
        **{k: MM_BOUNDS[k] for k in ("seeds", "queries", "k")},
        **{k: MM_BOUNDS["dsprites"][k] for k in ("shape", "n", "resolution", "supersample", "blur")},
    log:
        f"{MM.logs}/bounds_dsprites_d{{d}}.log",
    benchmark:
        f"{MM.bench}/bounds_dsprites_d{{d}}.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_bound_table:
    input:
        *MM_CODE,
        runs=expand(f"{MM.data}/bounds/{{toy}}.csv", toy=MM_BOUNDS["toys"])
        + expand(f"{MM.data}/bounds/dsprites_d{{d}}.csv", d=MM_BOUNDS["dsprites"]["dims"]),
    output:
        errors=f"{MM.data}/bound_errors.csv",
        table=report(f"{MM.results}/tables/bound_scaling.csv", caption="../report/manifold_microscope/bounds_table.rst",
                     category="manifold_microscope", subcategory="tables"),
    params:
        func="icml26.manifold_microscope.rules:bound_table",
    log:
        f"{MM.logs}/bound_table.log",
    benchmark:
        f"{MM.bench}/bound_table.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_figure_bounds:
    input:
        *MM_CODE,
        errors=rules.manifold_microscope_bound_table.output.errors,
        table=rules.manifold_microscope_bound_table.output.table,
    output:
        png=report(f"{MM.results}/figures/bound_scaling.png", caption="../report/manifold_microscope/bounds.rst",
                   category="manifold_microscope", subcategory="figures"),
        pdf=f"{MM.results}/figures/bound_scaling.pdf",
    params:
        func="icml26.manifold_microscope.rules:figure_bounds",
    log:
        f"{MM.logs}/figure_bounds.log",
    benchmark:
        f"{MM.bench}/figure_bounds.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_dimension:
    input:
        *MM_CODE,
    output:
        table=report(f"{MM.results}/tables/intrinsic_dimension.csv",
                     caption="../report/manifold_microscope/dimension_table.rst",
                     category="manifold_microscope", subcategory="tables"),
    params:
        func="icml26.manifold_microscope.rules:intrinsic_dimension",
        toys_=MM_TOYS,
        grid_sizes=MM_ACC["grid_sizes"],
        points=MM_ACC["dimension_points"],
        **{k: MM_ACC[k] for k in ("D", "order", "seed")},
    log:
        f"{MM.logs}/dimension.log",
    benchmark:
        f"{MM.bench}/dimension.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_turntable:
    input:
        *MM_CODE,
    output:
        images=f"{MM.data}/turntable/obj{{index}}.npz",
    wildcard_constraints:
        index="[0-9]+",
    params:
        func="icml26.manifold_microscope.rules:turntable_object",
        index=lambda w: int(w.index) - 1,
        **{k: MM_TT[k] for k in ("n_pose", "n_roll", "size", "resolution", "supersample", "blur", "seed")},
    log:
        f"{MM.logs}/turntable_{{index}}.log",
    benchmark:
        f"{MM.bench}/turntable_{{index}}.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_turntable_measures:
    input:
        *MM_CODE,
        objects=expand(f"{MM.data}/turntable/obj{{index}}.npz", index=MM_OBJECTS),
    output:
        table=report(f"{MM.results}/tables/turntable_classes.csv",
                     caption="../report/manifold_microscope/turntable_table.rst",
                     category="manifold_microscope", subcategory="tables"),
        curvature=f"{MM.data}/turntable_curvature.csv",
    params:
        func="icml26.manifold_microscope.rules:turntable_measures",
        reach_samples=MM_TT["reach_samples"],
        order=MM_ACC["order"],
        seed=MM_TT["seed"],
    log:
        f"{MM.logs}/turntable_measures.log",
    benchmark:
        f"{MM.bench}/turntable_measures.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_figure_turntable:
    input:
        *MM_CODE,
        curvature=rules.manifold_microscope_turntable_measures.output.curvature,
    output:
        png=report(f"{MM.results}/figures/turntable_classes.png",
                   caption="../report/manifold_microscope/turntable.rst",
                   category="manifold_microscope", subcategory="figures"),
        pdf=f"{MM.results}/figures/turntable_classes.pdf",
    params:
        func="icml26.manifold_microscope.rules:figure_turntable",
    log:
        f"{MM.logs}/figure_turntable.log",
    benchmark:
        f"{MM.bench}/figure_turntable.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_vae_train:
    input:
        *MM_CODE,
        slices=expand(f"{MM.data}/dsprites/{{shape}}.npz", shape=MM_DS["shapes"]),
    output:
        weights=f"{MM.data}/vae/weights.npz",
        losses=f"{MM.data}/vae/losses.csv",
        timing=f"{MM.bench}/vae_seconds.csv",
    params:
        func="icml26.manifold_microscope.rules:vae_train",
        shapes=MM_DS["shapes"],
        checkpoint_iterations=MM_VAE["checkpoints"],
        device=config["device"],
        **{k: MM_VAE[k] for k in ("pool", "hidden", "latent", "iterations", "batch", "lr", "gamma", "capacity",
                                  "capacity_iterations", "seed")},
    log:
        f"{MM.logs}/vae_train.log",
    benchmark:
        f"{MM.bench}/vae_train.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_vae_geometry:
    input:
        *MM_CODE,
        slices=expand(f"{MM.data}/dsprites/{{shape}}.npz", shape=MM_DS["shapes"]),
        weights=rules.manifold_microscope_vae_train.output.weights,
    output:
        table=report(f"{MM.results}/tables/vae_layers.csv",
                     caption="../report/manifold_microscope/vae_table.rst",
                     category="manifold_microscope", subcategory="tables"),
    params:
        func="icml26.manifold_microscope.rules:vae_geometry",
        shapes=MM_DS["shapes"],
        order=MM_ACC["order"],
        **{k: MM_VAE[k] for k in ("pool", "hidden", "latent", "reach_samples", "seed")},
    log:
        f"{MM.logs}/vae_geometry.log",
    benchmark:
        f"{MM.bench}/vae_geometry.tsv"
    threads: paper_threads(MM)
    resources:
        **MM.cfg["resources"],
    script:
        CALL


rule manifold_microscope_figure_vae:
    input:
        *MM_CODE,
        table=rules.manifold_microscope_vae_geometry.output.table,
    output:
        png=report(f"{MM.results}/figures/vae_layers.png",
                   caption="../report/manifold_microscope/vae.rst",
                   category="manifold_microscope", subcategory="figures"),
        pdf=f"{MM.results}/figures/vae_layers.pdf",
    params:
        func="icml26.manifold_microscope.rules:figure_vae",
    log:
        f"{MM.logs}/figure_vae.log",
    benchmark:
        f"{MM.bench}/figure_vae.tsv"
    threads: paper_threads(MM)
    script:
        CALL


rule manifold_microscope_verdict:
    input:
        *MM_CODE,
        table=rules.manifold_microscope_accuracy_table.output.table,
        classes=rules.manifold_microscope_classes.output.table,
        bound_table=rules.manifold_microscope_bound_table.output.table,
        vae_table=rules.manifold_microscope_vae_geometry.output.table,
    output:
        claims=report(f"{MM.results}/claims.json", caption="../report/manifold_microscope/claims.rst",
                      category="manifold_microscope", subcategory="verdict"),
        metrics=f"{MM.results}/metrics.json",
    params:
        func="icml26.manifold_microscope.rules:verdict",
    log:
        f"{MM.logs}/verdict.log",
    benchmark:
        f"{MM.bench}/verdict.tsv"
    threads: paper_threads(MM)
    script:
        CALL
