"""CRL-BPT: curriculum reinforcement learning for black-box prompt tuning under an API budget (spec:
``shared/papers/crl_bpt.md``; reference code GongShuai8210/CRL-BPT, not reachable here).

Substitution (forced here): no CLIP or LLM weights can be loaded, so the black box is a tiny CLIP (Hugging Face
``CLIPModel``) trained here on procedural images whose colour convention depends on domain words, and the agent a
small Llama from the shared LM toolkit SFT'd on human-like templates; at ``paper`` scale ``blackbox.checkpoint``
and ``model.checkpoint`` take the user's own CLIP and causal LM folders.

Modules:
    scenes      -- the procedural images: 20 classes in 16 domains (style, era, finish)
    grammar     -- templates and captions, the human templates, readability
    blackbox    -- the dual encoder, its training, the budgeted ``score(template)``, the reward
    agent       -- the agent's tokenizer, context (top references with binned accuracies), SFT examples
    objectives  -- control variate, ROUGE-L imitation and innovation weights, curriculum, loss normalisers
    search      -- the methods and one search under the call budget
    verdict     -- the spec's claims, the criteria fixed before any quick run
    settings    -- cross-key config checks
    plots       -- accuracy against calls and per method, reward variance, readability
    rules       -- the rule functions (blackbox -> calibration, agent -> run -> tables -> figures, verdict; timing)
"""

# what the paper-scale replica needs (icml26.common.lm.replicas.sources): a data set in CoOp's layout in place of
# the one a user prepares


def replica_data(origin: str, folder) -> None:
    from .coop import write_replica

    write_replica(folder)
