"""Overlap-Aware Sheaf Repulsion: several faithful, sparse, complete circuits with little shared structure
(spec: ``shared/papers/sheaf_repulsion.md``; reference code TonyXiChen/OASR, read, not copied).

Substitution: GPT-2 cannot be loaded here, so a small transformer trained from scratch on synthetic IOI
stands in (work in progress: the library below; training, discovery runs and the pipeline are to come).

Modules:
    graph  -- the edge graph (embedding, heads, MLPs -> q/k/v inputs, MLP inputs, logits), finalisation, IoU
    model  -- the transformer whose forward pass is its edge graph (one weight per edge)
    masks  -- straight-through Gumbel-sigmoid masks and the terms of the discovery objective
    data   -- synthetic IOI sentences (ABBA / BABA)
    train  -- the IOI model trained from scratch
    discover -- one discovery run, and OASR's repelled runs (independent seeds with the repulsion at 0)
    metrics -- accuracy, faithfulness, completeness, density; the EAP ranking and ACDC-lite baselines
    minimal -- the minimal-circuit search and the indispensability test
    tables, verdict -- the result tables and the claims judged from them
"""
