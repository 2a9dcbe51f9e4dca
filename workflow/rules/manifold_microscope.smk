# manifold_microscope: finite-difference geometry of grid-sampled manifolds
# (spec: shared/papers/manifold_microscope.md). This version: the estimator suite on toy manifolds,
# dSprites-style per-class measures, bound scaling on the toys and the beta-VAE layer study.
# accuracy_{toy} -> accuracy table; dsprites_{shape} -> classes; ... -> figures, verdict; timing beside.
# Each rule calls one function of icml26.manifold_microscope.rules (see docs/ARCHITECTURE.md).

from icml26.manifold_microscope.settings import DSPRITES_FILE  # DeepMind's dSprites file name

MM = register("manifold_microscope")
MM_ACC = MM.cfg["accuracy"]
MM_DS = MM.cfg["dsprites"]
MM_BOUNDS = MM.cfg["bounds"]
MM_VAE = MM.cfg["vae"]
MM_TT = MM.cfg["turntable"]
MM_OBJECTS = [f"{i:02d}" for i in range(1, MM_TT["objects"] + 1)]
MM_TOYS = MM_ACC["toys"]


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
        f"{MM.timing}/vae_seconds.csv",
        f"{MM.timing}/estimator_seconds.csv",


rule manifold_microscope_accuracy:
    output:
        table=f"{MM.data}/accuracy/{{toy}}.csv",
        timing=f"{MM.timing}/estimator_seconds/{{toy}}.csv",
    wildcard_constraints:
        toy="|".join(MM_TOYS),
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        **{k: MM_ACC[k] for k in ("D", "order", "reach_samples", "k", "max_baseline_points", "seed")},
        func="icml26.manifold_microscope.rules:estimator_accuracy",
        toy=lambda w: w.toy,
        grid_sizes=lambda w: MM_ACC["grid_sizes"][w.toy],
    script:
        CALL


rule manifold_microscope_accuracy_table:
    input:
        tables=expand(f"{MM.data}/accuracy/{{toy}}.csv", toy=MM_TOYS),
    output:
        table=report(
            f"{MM.results}/tables/estimator_accuracy.csv",
            caption="../report/manifold_microscope/accuracy_table.rst",
            category="manifold_microscope",
            subcategory="tables",
        ),
    params:
        func="icml26.manifold_microscope.rules:accuracy_table",
    script:
        CALL


rule manifold_microscope_timing:
    input:
        timings=expand(f"{MM.timing}/estimator_seconds/{{toy}}.csv", toy=MM_TOYS),
    output:
        summary=f"{MM.timing}/estimator_seconds.csv",
        machine=f"{MM.timing}/machine.json",
    params:
        func="icml26.manifold_microscope.rules:timing",
    script:
        CALL


rule manifold_microscope_dsprites:
    input:
        source=[f"{MM_DS['folder']}/{DSPRITES_FILE}"] if MM_DS["folder"] else [],  # DeepMind's file (paper scale)
    output:
        images=f"{MM.data}/dsprites/{{shape}}.npz",
    wildcard_constraints:
        shape="|".join(MM_DS["shapes"]),
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        **{k: MM_DS[k] for k in ("n_rotation", "n_x", "x_range", "scale", "y", "resolution", "supersample", "blur")},
        func="icml26.manifold_microscope.rules:dsprites_slice",
        shape=lambda w: w.shape,
    script:
        CALL


rule manifold_microscope_classes:
    input:
        slices=expand(f"{MM.data}/dsprites/{{shape}}.npz", shape=MM_DS["shapes"]),
    output:
        table=report(
            f"{MM.results}/tables/dsprites_classes.csv",
            caption="../report/manifold_microscope/classes_table.rst",
            category="manifold_microscope",
            subcategory="tables",
        ),
        curvature=f"{MM.data}/dsprites_curvature.csv",
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        func="icml26.manifold_microscope.rules:class_measures",
        shapes=MM_DS["shapes"],
        reach_samples=MM_DS["reach_samples"],
        order=MM_ACC["order"],
        seed=MM_ACC["seed"],
    script:
        CALL


rule manifold_microscope_bounds:
    output:
        table=f"{MM.data}/bounds/{{toy}}.csv",
    wildcard_constraints:
        toy="|".join(MM_BOUNDS["toys"]),
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        **{k: MM_BOUNDS[k] for k in ("n", "seeds", "queries", "k")},
        func="icml26.manifold_microscope.rules:bound_runs",
        toy=lambda w: w.toy,
        D=MM_ACC["D"],
        seed=MM_ACC["seed"],
    script:
        CALL


rule manifold_microscope_bounds_dsprites:
    output:
        table=f"{MM.data}/bounds/dsprites_d{{d}}.csv",
    wildcard_constraints:
        d="[1-3]",
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        **{k: MM_BOUNDS[k] for k in ("seeds", "queries", "k")},
        **{k: MM_BOUNDS["dsprites"][k] for k in ("shape", "n", "resolution", "supersample", "blur")},
        func="icml26.manifold_microscope.rules:bound_runs_dsprites",
        d=lambda w: int(w.d),
        position_range=MM_DS["x_range"],
        scale=MM_DS["scale"],
    script:
        CALL


rule manifold_microscope_bound_table:
    input:
        runs=expand(f"{MM.data}/bounds/{{toy}}.csv", toy=MM_BOUNDS["toys"])
        + expand(f"{MM.data}/bounds/dsprites_d{{d}}.csv", d=MM_BOUNDS["dsprites"]["dims"]),
    output:
        errors=f"{MM.data}/bound_errors.csv",
        table=report(
            f"{MM.results}/tables/bound_scaling.csv",
            caption="../report/manifold_microscope/bounds_table.rst",
            category="manifold_microscope",
            subcategory="tables",
        ),
    params:
        func="icml26.manifold_microscope.rules:bound_table",
    script:
        CALL


rule manifold_microscope_dimension:
    output:
        table=report(
            f"{MM.results}/tables/intrinsic_dimension.csv",
            caption="../report/manifold_microscope/dimension_table.rst",
            category="manifold_microscope",
            subcategory="tables",
        ),
    params:
        **{k: MM_ACC[k] for k in ("D", "order", "seed")},
        func="icml26.manifold_microscope.rules:intrinsic_dimension",
        toys_=MM_TOYS,
        grid_sizes=MM_ACC["grid_sizes"],
        points=MM_ACC["dimension_points"],
    script:
        CALL


rule manifold_microscope_turntable:
    input:
        # Columbia's COIL-20 (paper scale): the object's 72 poses
        poses=lambda w: (
            [f"{MM_TT['folder']}/obj{int(w.index)}__{pose}.png" for pose in range(72)] if MM_TT["folder"] else []
        ),
    output:
        images=f"{MM.data}/turntable/obj{{index}}.npz",
    wildcard_constraints:
        index="[0-9]+",
    params:
        **{k: MM_TT[k] for k in ("n_pose", "n_roll", "size", "resolution", "supersample", "blur", "seed", "folder")},
        func="icml26.manifold_microscope.rules:turntable_object",
        index=lambda w: int(w.index) - 1,
    script:
        CALL


rule manifold_microscope_turntable_measures:
    input:
        objects=expand(f"{MM.data}/turntable/obj{{index}}.npz", index=MM_OBJECTS),
    output:
        table=report(
            f"{MM.results}/tables/turntable_classes.csv",
            caption="../report/manifold_microscope/turntable_table.rst",
            category="manifold_microscope",
            subcategory="tables",
        ),
        curvature=f"{MM.data}/turntable_curvature.csv",
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        func="icml26.manifold_microscope.rules:turntable_measures",
        reach_samples=MM_TT["reach_samples"],
        order=MM_ACC["order"],
        seed=MM_TT["seed"],
    script:
        CALL


rule manifold_microscope_vae_train:
    input:
        slices=expand(f"{MM.data}/dsprites/{{shape}}.npz", shape=MM_DS["shapes"]),
    output:
        weights=f"{MM.data}/vae/weights.npz",
        losses=f"{MM.data}/vae/losses.csv",
        timing=f"{MM.timing}/vae_seconds.csv",
    threads: paper_threads(MM)
    resources:
        **job_resources(MM, gpu=True),
    params:
        **{
            k: MM_VAE[k]
            for k in (
                "architecture",
                "pool",
                "hidden",
                "latent",
                "iterations",
                "batch",
                "lr",
                "gamma",
                "capacity",
                "capacity_iterations",
                "seed",
            )
        },
        func="icml26.manifold_microscope.rules:vae_train",
        shapes=MM_DS["shapes"],
        checkpoint_iterations=MM_VAE["checkpoints"],
        device=config["device"],
    script:
        CALL


rule manifold_microscope_vae_geometry:
    input:
        slices=expand(f"{MM.data}/dsprites/{{shape}}.npz", shape=MM_DS["shapes"]),
        weights=rules.manifold_microscope_vae_train.output.weights,
    output:
        table=report(
            f"{MM.results}/tables/vae_layers.csv",
            caption="../report/manifold_microscope/vae_table.rst",
            category="manifold_microscope",
            subcategory="tables",
        ),
    threads: paper_threads(MM)
    resources:
        **job_resources(MM),
    params:
        **{k: MM_VAE[k] for k in ("architecture", "pool", "hidden", "latent", "reach_samples", "seed")},
        func="icml26.manifold_microscope.rules:vae_geometry",
        shapes=MM_DS["shapes"],
        order=MM_ACC["order"],
    script:
        CALL


rule manifold_microscope_figures:
    input:
        accuracy_table=rules.manifold_microscope_accuracy_table.output.table,
        dsprites_curvature=rules.manifold_microscope_classes.output.curvature,
        bound_errors=rules.manifold_microscope_bound_table.output.errors,
        bound_table=rules.manifold_microscope_bound_table.output.table,
        vae_table=rules.manifold_microscope_vae_geometry.output.table,
        turntable_curvature=rules.manifold_microscope_turntable_measures.output.curvature,
    output:
        **figure_outputs(
            MM,
            "estimator_accuracy",
            "dsprites_classes",
            "bound_scaling",
            "vae_layers",
            "turntable_classes",
            captions={
                "estimator_accuracy": "accuracy",
                "dsprites_classes": "classes",
                "bound_scaling": "bounds",
                "vae_layers": "vae",
                "turntable_classes": "turntable",
            },
        ),
    params:
        func="icml26.manifold_microscope.rules:figures",
    script:
        CALL


rule manifold_microscope_verdict:
    input:
        table=rules.manifold_microscope_accuracy_table.output.table,
        classes=rules.manifold_microscope_classes.output.table,
        bound_table=rules.manifold_microscope_bound_table.output.table,
        vae_table=rules.manifold_microscope_vae_geometry.output.table,
    output:
        claims=report(
            f"{MM.results}/claims.json",
            caption="../report/manifold_microscope/claims.rst",
            category="manifold_microscope",
            subcategory="verdict",
        ),
        metrics=f"{MM.results}/metrics.json",
    params:
        func="icml26.manifold_microscope.rules:verdict",
        substitution=substitution(MM),
    script:
        CALL
