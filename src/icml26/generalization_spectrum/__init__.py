"""The Generalization Spectrum: how far learning from one example transfers, from exact recall (D0) through
implementation transfer (D1), context transfer (D2) and category-matched new problems (D3) to an unpaired
baseline (D4) (spec: ``shared/papers/generalization_spectrum.md``; no public code).

Substitution: LLMs and competitive-programming data cannot be used here, so a synthetic programming world
with the same distance structure stands in (work in progress: the library below; the training runs, the
verdicts and the pipeline are to come).

Found so far (2026-12-02, exploratory, not a pipeline output): a 0.8 M-parameter base model pretrained on
the corpus (1,500 steps of 32, 8 min on 2 cores, ~6,700 tokens/s) already solves unseen seed algorithms:
pass@1 at temperature 0.7 of 1.00 (D0), 0.80 (D1), 0.89 (D2), 0.98 (D3), 0.97 (D4) over 16 seeds. Statements
that spell out the steps let it compose the answer, so there is nothing left to memorise; before the
learners can be compared, a statement must say what to compute (e.g. a name and I/O examples), not how.

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
