"""OptiFluence: canaries optimised for privacy auditing, by IF-Init and unrolled optimisation, judged with
online LiRA (spec: ``shared/papers/optifluence.md``; no public code).

Modules:
    data       -- the images: CIFAR-10 and MNIST (the paper's), Fashion-MNIST / digits (stand-ins), the user's npz
    models     -- the audited architectures, many models trained at once with batched weights (vmap), hinge score
    resnet9    -- the paper's CIFAR-10 model; resnet -- ResNet-50 and WideResNet-50-2 (its transfer targets); norm
    lira       -- online LiRA, TPR at a fixed FPR, AUC, Clopper-Pearson intervals
    influence  -- self-influence with the exact last-layer Hessian (IF-Init)
    canaries   -- the canary types, their seeds, the membership draw
    unroll     -- unrolled canary optimisation (truncated backpropagation, checkpointing)
    audit      -- one audit: models of one architecture with the canaries inserted, scored
    tables, plots, verdict, rules, settings -- LiRA tables, figures, claims, rule functions, config checks
"""

# what the paper-scale replicas need (icml26.common.lm.replicas.sources / overlay): CIFAR-10 python batches in the
# real format in place of the download, the paper section's data set and architectures, and those architectures
# narrow enough for a CPU: the same code at width 4, one bottleneck per stage, one model at a time (a CPU's best),
# 10 steps of 64 images, 100 test images
REPLICA_KEYS = ("name", "architectures", "target", "transfer", "batch")
REPLICA_SIZES = {
    "architectures": {
        "resnet9": {"size": 4, "chunk": 1},
        "resnet50": {"size": 4, "blocks": [1, 1, 1, 1], "chunk": 1},
        "wide_resnet50_2": {"size": 4, "blocks": [1, 1, 1, 1], "chunk": 1},
    },
    "training": {"batch": 64, "steps": 10},
    "split": {"test": 100},
}


def replica_data(origin: str, folder) -> None:
    from .data import write_cifar_replica

    write_cifar_replica(folder)
