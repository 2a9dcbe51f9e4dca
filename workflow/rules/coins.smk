# coins: Rocq (Coq) evaluation of program specifications by test-based proof obligations
# (spec: shared/papers/coins.md). problems (HumanEval tests parsed and validated, random tests) ->
# check_{problem} (gold spec, mutants, equivalent rewrites, a user's specs through coqc) -> summarise
# -> figures, verdict; hostile specs and timing (seconds per obligation) beside.
# Each rule calls one function of icml26.coins.rules (see docs/ARCHITECTURE.md).

from icml26.coins.candidates import user_spec_files

CO = register("coins")
CO_PROBLEMS = [f"HumanEval_{n}" for n in CO.cfg["problems"]]
CO_PACKAGE = "src/icml26/coins"


rule coins:
    """Target: every coins output at the configured scale."""
    input:
        paper_outputs(CO),
        expand(f"{CO.results}/figures/{{name}}.png", name=["kill_rate", "levels"]),
        f"{CO.timing}/obligation_seconds.csv",


rule coins_problems:
    input:
        f"{CO_PACKAGE}/problems.yaml",
        [CO.cfg["source"]] if CO.cfg["source"] else [],
    output:
        problems_json=f"{CO.data}/problems.json",
        tests_table=table_report(CO, "tests"),
    params:
        func="icml26.coins.rules:problems",
        numbers=CO.cfg["problems"],
        source=CO.cfg["source"],
        random_tests=CO.cfg["obligations"]["random_tests"],
        seed=CO.cfg["seed"],
    script:
        CALL


rule coins_check:
    input:
        f"{CO_PACKAGE}/CoinsPrelude.v",
        f"{CO_PACKAGE}/gold/{{problem}}.v",
        [CO.cfg["source"]] if CO.cfg["source"] else [],  # the user's HumanEval file, read again for the signature
        lambda w: user_spec_files(CO.cfg["candidates_dir"], w.problem),
        problems_json=rules.coins_problems.output.problems_json,
    output:
        candidates_json=f"{CO.data}/candidates/{{problem}}.json",
        outcomes=f"{CO.data}/outcomes/{{problem}}.csv",
        files=f"{CO.data}/files/{{problem}}.csv",
        timing=f"{CO.timing}/obligations/{{problem}}.csv",
    wildcard_constraints:
        problem="|".join(CO_PROBLEMS),
    threads: paper_threads(CO)
    resources:
        **job_resources(CO),
    params:
        func="icml26.coins.rules:check",
        problem=lambda w: w.problem,
        source=CO.cfg["source"],
        mutation=CO.cfg["mutation"],
        rewrites=CO.cfg["rewrites"],
        user_dir=CO.cfg["candidates_dir"],
        obligations=CO.cfg["obligations"],
        limits=CO.cfg["limits"],
        seed=CO.cfg["seed"],
    script:
        CALL


rule coins_hostile:
    input:
        f"{CO_PACKAGE}/CoinsPrelude.v",
    output:
        table=table_report(CO, "hostile"),
    resources:
        **job_resources(CO),
    params:
        func="icml26.coins.rules:hostile",
        limits=CO.cfg["hostile_limits"],
    script:
        CALL


rule coins_summarise:
    input:
        candidates=expand(f"{CO.data}/candidates/{{problem}}.json", problem=CO_PROBLEMS),
        outcomes=expand(f"{CO.data}/outcomes/{{problem}}.csv", problem=CO_PROBLEMS),
        files=expand(f"{CO.data}/files/{{problem}}.csv", problem=CO_PROBLEMS),
    output:
        specs_table=table_report(CO, "specs"),
        kill_table=table_report(CO, "kill_rate"),
        level_table=table_report(CO, "by_level"),
        summary_table=table_report(CO, "summary"),
    params:
        func="icml26.coins.rules:summarise",
    script:
        CALL


rule coins_timing:
    input:
        timings=expand(f"{CO.timing}/obligations/{{problem}}.csv", problem=CO_PROBLEMS),
    output:
        obligation_table=f"{CO.timing}/obligation_seconds.csv",
        file_table=f"{CO.timing}/files.csv",
        machine=f"{CO.timing}/machine.json",
    params:
        func="icml26.coins.rules:timing",
    script:
        CALL


rule coins_figures:
    input:
        kill_table=rules.coins_summarise.output.kill_table,
        level_table=rules.coins_summarise.output.level_table,
        specs_table=rules.coins_summarise.output.specs_table,
    output:
        **figure_outputs(CO, "kill_rate", "levels", captions={"kill_rate": "kill_rate_figure"}),
    params:
        func="icml26.coins.rules:figures",
    script:
        CALL


rule coins_verdict:
    input:
        specs_table=rules.coins_summarise.output.specs_table,
        kill_table=rules.coins_summarise.output.kill_table,
        hostile_table=rules.coins_hostile.output.table,
    output:
        claims=report(
            f"{CO.results}/claims.json", caption="../report/coins/claims.rst", category="coins", subcategory="verdict"
        ),
        metrics=f"{CO.results}/metrics.json",
    params:
        func="icml26.coins.rules:verdict",
        substitution=substitution(CO, "candidates_dir"),
    script:
        CALL
