"""FOCUS: focusing diffusion-LLM decoding compute on decodable tokens (spec: ``shared/papers/focus_dllm.md``;
arXiv 2601.23278; reference code sands-lab/FOCUS, an LMDeploy/SGLang fork).

Below paper scale (substitution, forced here): no pretrained diffusion LLM can be downloaded, so a small
block-diffusion transformer is trained from scratch on a procedural task mixture and the FOCUS mechanism is studied
on it. At paper scale the paper's SDAR model (or, by overlay, LLaDA 2.0) decodes the paper's evaluation sets
(GSM8K, MATH-500), fetched with ``make fetch PAPER=focus_dllm``.

Modules:
    model       -- the block-diffusion transformer (RoPE, block-causal attention, exact prefix KV cache)
    sdar        -- the paper's SDAR models (Qwen3 layout) from their Hugging Face folders, same decoder interface
    llada2      -- the paper's LLaDA 2.0 (mixture of experts) from its Hugging Face folder, same decoder interface
    hub         -- what the two share: norms, RoPE, safetensors shards, the mask token, loading on the meta device
    selection   -- FOCUS's importance, retain target, Δ selection and enforcement rules, on one block
    decoding    -- Fast-dLLM threshold decoding (dense) and FOCUS with physical compaction, delayed cache
    training    -- the masked-diffusion objective, one block at a time
    analysis    -- Spearman, AUROC and recall of the selectors on the steps a dense decoder observed
    tasks       -- the mixture (copy, reverse, random walk, PCFG sentences, addition) and its quality checks
    encoding    -- examples as fixed-shape id sequences (prompt blocks, answer blocks) and back
    benchmarks  -- the paper's evaluation sets read from files, chat prompts and strict graders
    throughput  -- generated tokens/s per decoder and batch size, interleaved, with rows per token beside
    verdict     -- the spec's claims (criteria fixed before any quick run), the throughput claim a timing one
    rules       -- the rule functions of workflow/rules/focus_dllm.smk
"""

# what the paper-scale replicas need (icml26.common.lm.replicas.sources / overlay): the evaluation sets' words in
# the SDAR replica's tokenizer merges, the task list that reads the fetched sets, and the sets themselves
REPLICA_CORPUS = ("Tom has 3 apples and buys 4 more. How many apples does he have?", "Compute $2 + 3$.", "\\boxed{7}")
REPLICA_KEYS = ("tasks",)


def replica_data(hub: str, folder) -> None:
    from .benchmarks import write_replica

    write_replica(hub, folder)
