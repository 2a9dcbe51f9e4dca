"""The Generalization Spectrum: how far learning from one example transfers, from exact recall (D0) through
implementation transfer (D1), context transfer (D2) and category-matched new problems (D3) to an unpaired
baseline (D4) (spec: ``shared/papers/generalization_spectrum.md``; no public code).

Substitution (forced here): LLMs and competitive-programming data cannot be used, so a synthetic programming
world with the same distance structure stands in, and a small Llama (about 0.8 M parameters at quick scale)
is pretrained on it from scratch; at paper scale ``model.checkpoint`` takes the user's own base model (a
local Hugging Face folder). A statement shows worked examples (what to compute), never the steps: a first
design that spelt out the steps let the base model solve unseen seeds at pass@1 0.80-1.00 on every
distance, leaving nothing to memorise (``narratives``).

Modules:
    world      -- list primitives, programs, the two DSLs (prefix A, postfix B) and their interpreters
    narratives -- problem statements in two narratives with disjoint vocabularies
    variants   -- seed problems, their D0-D4 variants, and the pretraining corpus that excludes them
    prompts    -- the task language the models read and write (prompts, answers, in-context prompts), tokenizer
    evaluate   -- sampled programs judged by execution on hidden tests
    learners   -- pretraining examples (with in-context demonstrations), RFT's filter, a GRPO step
    spectrum   -- gains over the base model per distance, transfer efficiency e_k = g_k / g_0, far tail
    training   -- one learner's run (SFT, RFT, RL) from the base model, scored at every checkpoint
    matched    -- matched memorisation: every learner read where its D0 curve reaches a common level
    passk      -- the unbiased pass@k estimator
    verdict    -- the spec's three claims, criteria fixed before any quick run
    settings   -- cross-key config checks
    plots      -- the spectrum and the curves it is read from
    rules      -- the rule functions (world -> base -> reference, learners -> tables -> figures, verdict)
"""
