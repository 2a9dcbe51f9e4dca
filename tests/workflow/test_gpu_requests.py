"""What a SLURM job asks for: the sbatch line the SLURM executor plugin builds from each planned job's resources.

`snakemake -n` at paper scale lists every job with its resources; each is handed to the plugin's own
`get_submit_command` and `set_gres_string` (what `make slurm` submits), so the test reads the real request rather
than our config. Jobs that train, decode or measure with torch on the configured device ask for a GPU at paper
scale, and nothing else does; at quick scale and under `device: cpu` none does.
"""

from types import SimpleNamespace

import pytest

from tests.conftest import copy_repository, fetch_replicas, snakemake

pytestmark = pytest.mark.workflow

# The rules that compute with torch on the configured device (docs/ARCHITECTURE.md, "Rule contract": `gpu`).
ON_DEVICE = {
    "text_feedback_rl": {"warmstart", "run"},
    "generalization_spectrum": {"base", "reference", "learner"},
    "crl_bpt": {"calibration", "agent", "run"},
    "sheaf_repulsion": {"model", "discover", "baselines", "minimal", "timing"},
    "focus_dllm": {"train", "decode", "observe", "depth", "timing"},
    "optifluence": {"seeds", "optimise", "audit", "timing"},
    "prism_moe": {"student"},
    "manifold_microscope": {"vae_train"},
    "netdiff": {"train", "evaluate", "partial", "timing"},
}
PLUGIN_PARAMS = {"run_uuid": "job", "slurm_logfile": "log", "comment_str": "c", "account": "", "partition": ""}


class _Resources(dict):
    __getattr__ = dict.__getitem__


def planned_jobs(repo, *args: str) -> list[SimpleNamespace]:
    """Every job `snakemake -n --forceall` plans, with its rule, threads and resources as the plugin reads them."""
    out = snakemake(repo, "-n", "--forceall", *args).stdout
    jobs = []
    for line in out.splitlines():
        if line.startswith(("rule ", "localrule ")) and line.endswith(":"):
            jobs.append(SimpleNamespace(rule=line.split()[1].rstrip(":"), threads=1, resources=_Resources()))
        elif jobs and line.startswith("    threads: "):
            jobs[-1].threads = int(line.split(": ")[1])
        elif jobs and line.startswith("    resources: "):
            for item in line.strip().removeprefix("resources: ").split(", "):
                key, _, value = item.partition("=")
                jobs[-1].resources[key] = int(value) if value.isdigit() else value
    return jobs


def sbatch(job) -> str:
    from snakemake_executor_plugin_slurm.submit_string import get_submit_command
    from snakemake_executor_plugin_slurm.utils import set_gres_string

    return get_submit_command(job, {**PLUGIN_PARAMS, "workdir": None}) + set_gres_string(job)


def step(rule: str) -> tuple[str, str]:
    paper = next((p for p in ON_DEVICE if rule.startswith(p + "_")), "")
    return paper, rule[len(paper) + 1 :] if paper else rule


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A repository copy with replicas fetched where the paper sections' models go (their checks need them)."""
    return fetch_replicas(copy_repository(tmp_path_factory.mktemp("gpu") / "icml26"))


@pytest.fixture(scope="module")
def paper_jobs(repo):
    return planned_jobs(repo, *ON_DEVICE, "--configfile", "config/paper.yaml")


def test_paper_scale_jobs_on_the_device_ask_slurm_for_a_gpu_and_no_others_do(paper_jobs):
    asked, expected = set(), set()
    for job in paper_jobs:
        paper, name = step(job.rule)
        line = sbatch(job)
        if "--gpus=1" in line:
            asked.add((paper, name))
        else:
            assert "--gpus" not in line
        if name in ON_DEVICE.get(paper, ()):
            expected.add((paper, name))
    assert asked == expected == {(p, s) for p, steps in ON_DEVICE.items() for s in steps}


def test_quick_scale_and_device_cpu_ask_for_no_gpu(repo):
    quick = planned_jobs(repo, "text_feedback_rl", "focus_dllm")
    on_cpu = planned_jobs(repo, "text_feedback_rl", "--configfile", "config/paper.yaml", "--config", "device=cpu")
    assert quick and on_cpu
    assert not [j.rule for j in quick + on_cpu if "--gpus" in sbatch(j)]


def test_the_llm_agent_of_complex_mcp_asks_for_a_gpu_only_when_it_runs(repo, tmp_path):
    overlay = tmp_path / "scripted.yaml"
    overlay.write_text("complex_mcp:\n  llm:\n    checkpoint: null\n  public:\n    agents: [replay]\n")
    plain = planned_jobs(repo, "complex_mcp", "--configfile", "config/paper.yaml", str(overlay))
    with_llm = planned_jobs(repo, "complex_mcp", "--configfile", "config/paper.yaml")  # the fetched LLM
    assert not [j.rule for j in plain if "--gpus" in sbatch(j)]
    gpu_jobs = [j for j in with_llm if "--gpus=1" in sbatch(j)]
    # the agents experiment and the public tasks, where the LLM plays; the scripted experiments need none
    assert sorted(j.rule for j in gpu_jobs) == ["complex_mcp_episodes", "complex_mcp_public"]
