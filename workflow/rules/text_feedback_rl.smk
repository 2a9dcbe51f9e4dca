# text_feedback_rl: RL from text feedback, self distillation (RLTF-SD) and feedback modelling (RLTF-FM) against
# single- and multi-turn GRPO (spec: shared/papers/text_feedback_rl.md).
# problems_{task} -> warmstart_{task} (SFT, or the user's checkpoint warm-started) -> run_{task}_{method}_{seed}
# (method: a run name, FM once per swept weight; icml26.text_feedback_rl.runs) -> tables (accuracy, comparisons with bootstrap intervals, curves) -> figures, verdict; timing beside.
# Each rule calls one function of icml26.text_feedback_rl.rules (see docs/ARCHITECTURE.md).

import re

from icml26.text_feedback_rl import runs as tf_runs

TF = register("text_feedback_rl")
TF_RUNS = [(t, r, s) for t in TF.cfg["tasks"] for r, s in tf_runs.pairs(TF.cfg)]  # (task, run name, seed)
TF_COMMON = {"device": config["device"]}


rule text_feedback_rl:
    """Target: every text_feedback_rl output at the configured scale."""
    input:
        paper_outputs(TF),
        expand(f"{TF.results}/figures/{{name}}.png", name=["accuracy", "curves"]),
        f"{TF.timing}/steps.csv",


rule text_feedback_rl_problems:
    output:
        problems_file=f"{TF.data}/{{task}}/problems.json",
    wildcard_constraints:
        task="|".join(TF.cfg["tasks"]),
    params:
        **TF.cfg["problems"],
        func="icml26.text_feedback_rl.rules:problems",
        task=lambda w: w.task,
        task_settings=lambda w: TF.cfg[w.task],
        seed=TF.cfg["seed"],
    script:
        CALL


rule text_feedback_rl_warmstart:
    input:
        problems_file=rules.text_feedback_rl_problems.output.problems_file,
        checkpoint=[TF.cfg["model"]["checkpoint"]] if TF.cfg["model"]["checkpoint"] else [],
    output:
        model_folder=directory(f"{TF.data}/{{task}}/warmstart"),
        loss_file=f"{TF.data}/{{task}}/warmstart_loss.csv",
    wildcard_constraints:
        task="|".join(TF.cfg["tasks"]),
    threads: paper_threads(TF)
    resources:
        **job_resources(TF, gpu=True),
    params:
        **TF_COMMON,
        func="icml26.text_feedback_rl.rules:warmstart",
        task=lambda w: w.task,
        task_settings=lambda w: TF.cfg[w.task],
        model=TF.cfg["model"],
        sft=TF.cfg["sft"],
        seed=TF.cfg["seed"],
    script:
        CALL


rule text_feedback_rl_run:
    input:
        problems_file=rules.text_feedback_rl_problems.output.problems_file,
        model_folder=rules.text_feedback_rl_warmstart.output.model_folder,
    output:
        scores=f"{TF.data}/{{task}}/runs/{{method}}/seed{{seed}}.scores.csv",
        curve=f"{TF.data}/{{task}}/runs/{{method}}/seed{{seed}}.curve.csv",
        timing=f"{TF.timing}/steps/{{task}}_{{method}}_seed{{seed}}.csv",
    wildcard_constraints:
        task="|".join(TF.cfg["tasks"]),
        method="|".join(re.escape(r) for r in tf_runs.names(TF.cfg)),
        seed=r"\d+",
    threads: paper_threads(TF)
    resources:
        **job_resources(TF, gpu=True),
    params:
        **TF_COMMON,
        func="icml26.text_feedback_rl.rules:run",
        task=lambda w: w.task,
        task_settings=lambda w: TF.cfg[w.task],
        method=lambda w: w.method,
        seed=lambda w: int(w.seed),
        model=TF.cfg["model"],
        rl=TF.cfg["rl"],
        evaluation=TF.cfg["evaluation"],
    script:
        CALL


rule text_feedback_rl_tables:
    input:
        scores=[f"{TF.data}/{t}/runs/{r}/seed{s}.scores.csv" for t, r, s in TF_RUNS],
        curves=[f"{TF.data}/{t}/runs/{r}/seed{s}.curve.csv" for t, r, s in TF_RUNS],
        losses=expand(f"{TF.data}/{{task}}/warmstart_loss.csv", task=TF.cfg["tasks"]),
    output:
        accuracy_table=table_report(TF, "accuracy"),
        comparisons_table=table_report(TF, "comparisons"),
        curves_table=table_report(TF, "curves"),
        warmstart_table=table_report(TF, "warmstart"),
    params:
        func="icml26.text_feedback_rl.rules:tables",
        criteria=TF.cfg["criteria"],
    script:
        CALL


rule text_feedback_rl_timing:
    input:
        runs=[f"{TF.timing}/steps/{t}_{r}_seed{s}.csv" for t, r, s in TF_RUNS],
    output:
        step_table=f"{TF.timing}/steps.csv",
        machine=f"{TF.timing}/machine.json",
    priority: -1  # only gathers measurements: the jobs on the way to the verdict go first
    params:
        func="icml26.text_feedback_rl.rules:timing",
    script:
        CALL


rule text_feedback_rl_figures:
    input:
        accuracy_table=rules.text_feedback_rl_tables.output.accuracy_table,
        comparisons_table=rules.text_feedback_rl_tables.output.comparisons_table,
        curves_table=rules.text_feedback_rl_tables.output.curves_table,
    output:
        **figure_outputs(TF, "accuracy", "curves", captions={"accuracy": "accuracy_figure", "curves": "curves_figure"}),
    params:
        func="icml26.text_feedback_rl.rules:figures",
    script:
        CALL


rule text_feedback_rl_verdict:
    input:
        comparisons_table=rules.text_feedback_rl_tables.output.comparisons_table,
        accuracy_table=rules.text_feedback_rl_tables.output.accuracy_table,
        curves_table=rules.text_feedback_rl_tables.output.curves_table,
    output:
        claims=paper_report(TF, "claims.json", "claims", "verdict"),
        metrics=f"{TF.results}/metrics.json",
    params:
        func="icml26.text_feedback_rl.rules:verdict",
        substitution=substitution(TF, "model.checkpoint"),
    script:
        CALL
