"""RL from text feedback: Self Distillation (RLTF-SD) and Feedback Modelling (RLTF-FM) against single- and
multi-turn GRPO, with feedback available during training only and single-turn evaluation (spec:
``shared/papers/text_feedback_rl.md``; arXiv 2602.02482, no public code).

Substitution (forced here): no LLM can be loaded and the paper's benchmarks are not available, so a small Llama
(about 0.8 M parameters at quick scale, built by the shared LM toolkit) is warm-started by SFT on two
procedural tasks whose rule-based critics write the textual feedback; at paper scale ``model.checkpoint`` takes
the user's own causal LM (a local Hugging Face folder), warm-started the same way.

Modules:
    tasks       -- permutation constraint puzzles and a Mastermind-style code task, their critics and revisions
    dialogue    -- the two-turn dialogue as token ids (x0, y, critique, x1), the tokenizer
    warmstart   -- the SFT warm start (random first answers, revisions after feedback)
    objectives  -- self distillation (first-turn baseline, AWR; the ablations), feedback modelling
    training    -- the methods (GRPO single/multi-turn, SD, FM, SD + FM, ablations) and one RL run
    evaluate    -- single-turn evaluation (never builds x1), second-turn diagnostic
    verdict     -- the spec's claims, the criterion fixed before any quick run
    settings    -- cross-key config checks
    plots       -- final accuracy per method, learning curves
    rules       -- the rule functions (problems -> warmstart -> run -> tables -> figures, verdict; timing)
"""
