"""FOCUS: focusing diffusion-LLM decoding compute on decodable tokens (spec: ``shared/papers/focus_dllm.md``;
arXiv 2601.23278; reference code sands-lab/FOCUS, an LMDeploy/SGLang fork).

Substitution (forced here): no pretrained diffusion LLM can be loaded, so a small block-diffusion transformer is
trained from scratch and the FOCUS mechanism is studied on it.

Modules (so far; the Snakemake rules, config, tables, figures and docs page are still to come: issue 25):
    model       -- the block-diffusion transformer (RoPE, block-causal attention, exact prefix KV cache)
    selection   -- FOCUS's importance, retain target, Δ selection and enforcement rules, on one block
    decoding    -- Fast-dLLM threshold decoding (dense) and FOCUS with physical compaction, delayed cache
    training    -- the masked-diffusion objective, one block at a time
    analysis    -- Spearman, AUROC and recall of the selectors on the steps a dense decoder observed
    tasks       -- the mixture (copy, reverse, random walk, PCFG sentences, addition) and its quality checks
    encoding    -- examples as fixed-shape id sequences (prompt blocks, answer blocks) and back
    throughput  -- generated tokens/s per decoder and batch size, interleaved, with rows per token beside
    verdict     -- the spec's claims (criteria fixed before any quick run), the throughput claim a timing one
    rules       -- the rule functions (examples -> train -> decode_quality, observe -> tables, verdict; throughput,
                   timing_verdict), not yet wired into a Snakefile
"""
