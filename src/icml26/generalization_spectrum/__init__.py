"""The Generalization Spectrum: how far learning from one example transfers, from exact recall (D0) through
implementation transfer (D1), context transfer (D2) and category-matched new problems (D3) to an unpaired
baseline (D4) (spec: ``shared/papers/generalization_spectrum.md``; no public code).

Substitution: LLMs and competitive-programming data cannot be used here, so a synthetic programming world
with the same distance structure stands in (work in progress: the library below; the training runs, the
verdicts and the pipeline are to come).

Modules:
    world      -- list primitives, programs, the two DSLs (prefix A, postfix B) and their interpreters
    narratives -- problem statements in two narratives with disjoint vocabularies
    variants   -- seed problems, their D0-D4 variants, and the pretraining corpus that excludes them
    prompts    -- the task language the models read and write (prompts, answers, in-context prompts), tokenizer
    evaluate   -- sampled programs judged by execution on hidden tests
    learners   -- pretraining examples (with in-context demonstrations), RFT's filter, a GRPO step
    spectrum   -- gains over the base model per distance, transfer efficiency e_k = g_k / g_0, far tail
    matched    -- matched memorisation: every learner read where its D0 curve reaches a common level
    passk      -- the unbiased pass@k estimator
    verdict    -- the spec's three claims, criteria fixed before any quick run
"""
