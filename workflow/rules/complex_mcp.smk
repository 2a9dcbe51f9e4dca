# complex_mcp: interdependent, failure-prone MCP tools and three agent bottlenecks (spec: shared/papers/complex_mcp.md).
# episodes_{agents,saturation,failures} -> tables -> figures, verdict; timing beside.
# Each rule calls one function of icml26.complex_mcp.rules (see docs/ARCHITECTURE.md).

CM = register("complex_mcp")
CM_EXPERIMENTS = ["agents", "saturation", "failures"]
CM_EPISODES = {
    k: CM.cfg[k]
    for k in (
        "worlds",
        "tasks_per_template",
        "agents",
        "failure_rate",
        "failure_rates",
        "distractors",
        "max_turns",
        "max_idle",
        "llm",
    )
}


rule complex_mcp:
    """Target: every complex_mcp output at the configured scale."""
    input:
        paper_outputs(CM),
        expand(f"{CM.results}/figures/{{name}}.png", name=["agents", "saturation", "failures"]),
        f"{CM.timing}/throughput.csv",


# The reference's public tasks need its sandbox up, so the rule exists only where public.tasks names them (paper).
if CM.cfg["public"]["tasks"]:

    rule complex_mcp_public:
        """The reference's public tasks against its own sandbox servers (paper scale; the sandbox must be up)."""
        input:
            tasks_file=CM.cfg["public"]["tasks"],
        output:
            table=f"{CM.results}/tables/public_tasks.csv",
            summary=f"{CM.results}/tables/public_summary.csv",
        resources:
            **job_resources(CM),
            gpu=lambda w: gpus(CM) if "llm" in CM.cfg["public"]["agents"] else 0,
        params:
            func="icml26.complex_mcp.rules:public",
            public=CM.cfg["public"],
            llm=CM.cfg["llm"],
            device=config["device"],
        script:
            CALL


rule complex_mcp_episodes:
    output:
        table=f"{CM.data}/episodes_{{experiment}}.csv",
    wildcard_constraints:
        experiment="|".join(CM_EXPERIMENTS),
    resources:
        **job_resources(CM),
        gpu=lambda w: gpus(CM) if w.experiment == "agents" and CM.cfg["llm"]["checkpoint"] else 0,  # the LLM agent
    params:
        **CM_EPISODES,
        func="icml26.complex_mcp.rules:episodes",
        experiment=lambda w: w.experiment,
        device=config["device"],
    script:
        CALL


rule complex_mcp_tables:
    input:
        agents=f"{CM.data}/episodes_agents.csv",
        saturation=f"{CM.data}/episodes_saturation.csv",
        failures=f"{CM.data}/episodes_failures.csv",
    output:
        by_level=table_report(CM, "success_by_level"),
        saturation_table=table_report(CM, "saturation"),
        failure_table=table_report(CM, "failure_rates"),
        status=table_report(CM, "tool_status"),
        judge_variants=table_report(CM, "judge_variants"),
    params:
        func="icml26.complex_mcp.rules:tables",
    script:
        CALL


rule complex_mcp_timing:
    output:
        throughput=f"{CM.timing}/throughput.csv",
        per_task=f"{CM.timing}/seconds_per_task.csv",
        machine=f"{CM.timing}/machine.json",
    priority: -1  # a measurement no verdict waits on: the episodes go first
    params:
        **CM.cfg["timing"],
        func="icml26.complex_mcp.rules:timing",
        max_turns=CM.cfg["max_turns"],
        max_idle=CM.cfg["max_idle"],
    script:
        CALL


rule complex_mcp_figures:
    input:
        by_level=rules.complex_mcp_tables.output.by_level,
        status=rules.complex_mcp_tables.output.status,
        saturation_table=rules.complex_mcp_tables.output.saturation_table,
        failure_table=rules.complex_mcp_tables.output.failure_table,
    output:
        **figure_outputs(CM, "agents", "saturation", "failures", captions={"saturation": "saturation_figure"}),
    params:
        func="icml26.complex_mcp.rules:figures",
    script:
        CALL


rule complex_mcp_verdict:
    input:
        agents=f"{CM.data}/episodes_agents.csv",
        saturation=f"{CM.data}/episodes_saturation.csv",
        failures=f"{CM.data}/episodes_failures.csv",
    output:
        claims=report(
            f"{CM.results}/claims.json",
            caption="../report/complex_mcp/claims.rst",
            category="complex_mcp",
            subcategory="verdict",
        ),
        metrics=f"{CM.results}/metrics.json",
    params:
        func="icml26.complex_mcp.rules:verdict",
        substitution=substitution(CM, "llm.checkpoint"),
    script:
        CALL
