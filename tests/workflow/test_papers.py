"""Every paper beyond the foundation's worked example: its smoke DAG runs and is byte-identical on rerun.

All papers run in one Snakemake invocation per directory (jobs of different papers share the two
cores), twice, in two directories; each paper's test then only compares files.
"""

import pytest

from tests.conftest import copy_repository, snakemake, tree_digest

pytestmark = pytest.mark.workflow
PAPERS = ["massart_drift", "dvm_ad", "annealed_langevin", "cox_subgroups", "manifold_microscope",
          "seizure_benchmark", "completep_rl", "cerebellar_control"]
OUTPUTS = {
    "massart_drift": ["claims.json", "metrics.json", "tables/slopes.csv", "tables/best_window.csv",
                      "tables/oracles.csv", "figures/excess_vs_drift.png", "figures/window_vs_drift.png",
                      "figures/traces.png"],
    "dvm_ad": ["claims.json", "metrics.json", "tables/leaderboard.csv", "tables/ablation.csv",
               "tables/auroc_per_dataset.csv", "figures/average_rank.png", "figures/ablation.png"],
    "annealed_langevin": ["claims.json", "metrics.json", "tables/factorised_kl.csv", "tables/horizons.csv",
                          "tables/step_sizes.csv", "tables/oracles.csv", "tables/mode_weight_errors.csv",
                          "tables/annealing_time.csv", "figures/kl_vs_dimension.png", "figures/horizons.png",
                          "figures/step_sizes.png", "figures/mode_weights.png", "figures/annealing_time.png"],
    "cox_subgroups": ["claims.json", "metrics.json", "tables/synthetic.csv", "tables/real.csv",
                      "figures/synthetic.png", "figures/pareto.png", "tables/case_study.csv",
                      "figures/case_study.png"],
    "manifold_microscope": ["claims.json", "metrics.json", "tables/estimator_accuracy.csv",
                            "figures/estimator_accuracy.png"],
    "seizure_benchmark": ["claims.json", "metrics.json", "tables/leaderboard.csv", "tables/per_subject.csv",
                          "tables/gap.csv", "tables/rank_stability.csv", "tables/published_leaderboard.csv",
                          "figures/leaderboard.png", "figures/sensitivity_vs_fp.png", "figures/subject_f1.png",
                          "figures/ranks.png", "figures/gap.png", "figures/eeg_example.png",
                          "figures/published_datasets.png"],
    "completep_rl": ["claims.json", "metrics.json", "tables/coordinate_check.csv", "tables/runs.csv",
                     "tables/optimal_lr.csv", "tables/efficiency.csv", "tables/consistency.csv",
                     "figures/coordinate_check.png", "figures/lr_transfer.png", "figures/efficiency.png",
                     "figures/consistency.png"],
    "cerebellar_control": ["claims.json", "metrics.json", "tables/returns.csv", "tables/adaptation.csv",
                           "tables/consolidation.csv", "tables/base_training_HalfCheetah-v5.csv",
                           "figures/base_training.png", "figures/fault_returns.png", "figures/adaptation.png",
                           "figures/consolidation.png"],
}
SMOKE = ("--configfile", "config/smoke.yaml")


@pytest.fixture(scope="module")
def smoke_runs(tmp_path_factory):
    """Every paper at smoke scale in two fresh directories, and the HTML report of the first."""
    runs = []
    for where in ("a", "b"):
        repo = copy_repository(tmp_path_factory.mktemp(f"papers_{where}") / "icml26")
        snakemake(repo, *PAPERS, "--cores", "2", *SMOKE)
        runs.append(repo)
    snakemake(runs[0], *PAPERS, "--cores", "1", *SMOKE, "--report", "report.html")
    return runs


@pytest.mark.parametrize("paper", PAPERS)
def test_smoke_run_is_complete_and_byte_identical_in_two_directories(paper, smoke_runs):
    digests = []
    for repo in smoke_runs:
        out = repo / "results" / "smoke" / paper
        for name in OUTPUTS[paper]:
            assert (out / name).stat().st_size > 0, name
        digests.append(tree_digest(out, repo / "data" / "smoke" / paper))
    assert digests[0] == digests[1]
    html = (smoke_runs[0] / "report.html").read_text(errors="replace")
    assert all(name.split("/")[-1] in html for name in OUTPUTS[paper] if name.startswith("figures/"))


def test_summary_lists_every_paper_s_verdicts(smoke_runs):
    repo = smoke_runs[0]
    snakemake(repo, "summary", "--cores", "2", *SMOKE)  # only ski_rental is left to build
    summary = (repo / "results" / "smoke" / "summary.md").read_text()
    assert summary.count("| ski_rental |") == 3
    for paper in PAPERS:
        assert summary.count(f"| {paper} |") >= 2, paper
