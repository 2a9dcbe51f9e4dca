"""Overlap-Aware Sheaf Repulsion: several faithful, sparse, complete circuits with little shared structure
(spec: ``shared/papers/sheaf_repulsion.md``; reference code TonyXiChen/OASR, read, not copied).

Substitution: GPT-2 cannot be loaded here, so a small transformer trained from scratch on synthetic IOI
stands in; at paper scale the pipeline takes GPT-2 small itself (a Hugging Face folder, `make fetch`) or the
user's own model of our family (an .npz state dict).
Pipeline: ``workflow/rules/sheaf_repulsion.smk``; docs: ``docs/papers/sheaf_repulsion.md``.

Modules:
    graph  -- the edge graph (embedding, heads, MLPs -> q/k/v inputs, MLP inputs, logits), finalisation, IoU
    model  -- the transformer whose forward pass is its edge graph (one weight per edge)
    masks  -- straight-through Gumbel-sigmoid masks and the terms of the discovery objective
    data   -- synthetic IOI sentences (ABBA / BABA), in any model's token ids (Language)
    gpt2   -- GPT-2 small as an edge graph, and IOI in its tokens (the paper's model)
    train  -- the IOI model trained from scratch
    discover -- one discovery run, and OASR's repelled runs (independent seeds with the repulsion at 0)
    metrics -- accuracy, faithfulness, completeness, density; the EAP ranking and ACDC-lite baselines
    minimal -- the minimal-circuit search and the indispensability test
    tables, verdict -- the result tables and the claims judged from them
    plots, rules, settings -- the figures, the rule functions, the config's cross-key checks
"""

from .gpt2 import REPLICA_CORPUS  # noqa: F401  (icml26.common.lm.replicas: what the GPT-2 replica must hold)
