# icml26 entry points. Everything runs inside .venv (created by `make setup`).
#   make setup && make run     every registered paper at quick scale, summary and report
#   make setup && make test    the whole test suite (unit, workflow, DVC round trip, SLURM)
SHELL := /bin/bash
VENV ?= .venv
BIN := $(VENV)/bin
export PATH := $(abspath $(BIN)):$(PATH)
CORES ?= 2
SCALE ?= quick
PAPER ?=
OVERLAYS ?=
# The target (PAPER) goes before CONFIG: --configfile takes every word after it as a config file
CONFIG := --configfile config/$(SCALE).yaml $(OVERLAYS)
# With PAPER, only that paper is registered: another paper's unfetched model (paper scale) does not stop the run
ONLY := $(if $(PAPER),--config 'papers=[$(PAPER)]',)
STAGES ?= $(if $(PAPER),$(PAPER)@$(SCALE),)
# WARM=1: jobs start from a fork server that has numpy, pandas, matplotlib, scikit-learn and torch imported
# (icml26.common.forkserver): seconds less per job, the same outputs
SNAKEMAKE := $(if $(filter 1,$(WARM)),$(BIN)/python -m icml26.common.forkserver run -- ,)$(BIN)/snakemake

.PHONY: help setup system-deps venv run verify units smoke paper report lint test test-fast fetch gpu-check pull push slurm bench docs dvc-stages clean

help:  ## every target, with what it does
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /  make \1\t/' | expand -t 22

setup: system-deps venv  ## system packages (SLURM, munge) and the Python environment

system-deps:  ## Debian packages: SLURM and munge (the SLURM test), Fashion-MNIST (optifluence's quick scale), Coq 8.16 (coins)
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null \
				|| [ ! -d /usr/share/datasets/fashion-mnist ] || ! command -v coqc >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge \
				dataset-fashion-mnist coq libcoq-stdlib >/dev/null; \
		fi; \
	else echo "system-deps: not root or no apt-get; install slurm-wlm, munge, dataset-fashion-mnist, coq and libcoq-stdlib yourself"; fi

venv: $(BIN)/snakemake  ## the pinned Python environment in .venv

$(BIN)/snakemake: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,lint]'
	@touch $@

verify:  ## this work tree's results (make run) against the committed ones, within each paper's tolerances (PAPER=...)
	$(BIN)/python -m icml26.common.verify --scale $(SCALE) $(PAPER)

units:  ## which kept paper-scale jobs (results/paper/<slug>/units/) a run at this checkout would reuse, and what changed for the others (PAPER=...)
	$(BIN)/python -m icml26.common.unit_keys check $(if $(PAPER),results/paper/$(PAPER)/units,results/paper/*/units)

run:  ## every registered paper at SCALE (default quick), the summary and the HTML report (OVERLAYS=my.yaml ...)
	$(BIN)/python -m icml26.common.config $(CONFIG)
	$(SNAKEMAKE) $(PAPER) --cores $(CORES) --rerun-incomplete $(CONFIG) $(ONLY)
	$(BIN)/snakemake $(PAPER) --cores 1 $(CONFIG) $(ONLY) --report results/$(SCALE)/report.html
	@$(BIN)/python -m icml26.common.summary $(SCALE) $(PAPER)

smoke:  ## every registered paper at smoke scale: a quick tour, through the fork server (WARM=0: cold)
	$(MAKE) run SCALE=smoke WARM=$(or $(WARM),1)

paper:  ## every registered paper at paper scale on this machine (see `slurm` for a cluster)
	$(MAKE) run SCALE=paper

# The papers with a verdict at SCALE (results/<scale>/<slug>/claims.json): a report need not check the config of
# papers never run there (at paper scale, models not fetched)
BUILT = $(shell ls results/$(SCALE)/*/claims.json 2>/dev/null | cut -d/ -f3 | paste -sd, -)

report:  ## HTML report of whatever has been built (any subset of papers; PAPER=... for one)
	@[ -n "$(PAPER)$(BUILT)" ] || { echo "make report: no paper has results at $(SCALE) scale (results/$(SCALE)/*/claims.json): make run SCALE=$(SCALE) PAPER=<paper> first"; exit 2; }
	$(BIN)/snakemake --cores 1 $(CONFIG) $(or $(ONLY),--config 'papers=[$(BUILT)]') --report results/$(SCALE)/report.html

# One worker more than cores: the SLURM tests mostly wait on the scheduler. Sharing and order: tests/conftest.py
XDIST := -n $(shell expr $(CORES) + 1) --no-loadscope-reorder

test:  ## the full suite, as CI runs it
	$(BIN)/python -m pytest $(XDIST)

lint:  ## style, as CI checks it: ruff (rules and format), snakefmt, snakemake --lint (bar the conda advice)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/snakefmt --check Snakefile workflow/rules
	$(BIN)/python scripts/lint_workflow.py

test-fast:  ## unit tests only (seconds)
	$(BIN)/python -m pytest $(XDIST) -m "not workflow and not slurm"

fetch:  ## the paper's own models and data for paper scale (PAPER=<slug>; FROM=<folder> offline): checksums, DVC
	@test -n "$(PAPER)" || { echo "make fetch: name the paper: make fetch PAPER=<slug> (its paper: section's fetch: list)"; exit 2; }
	$(BIN)/python -m icml26.common.fetch $(PAPER) $(if $(FROM),--from $(FROM),)

pull:  ## fetch DVC-tracked data/results, then mark them up to date for Snakemake
	@$(BIN)/python -m icml26.common.dvc_pull $(STAGES)
	$(BIN)/dvc pull $(STAGES)
	$(BIN)/snakemake $(PAPER) --cores 1 $(CONFIG) $(ONLY) --touch

push:  ## send DVC-tracked data/results to the DVC remote (STAGES or PAPER@SCALE)
	$(BIN)/dvc push $(STAGES)

slurm:  ## the same DAG through SLURM (workflow/profiles/slurm)
	$(BIN)/snakemake $(PAPER) --profile workflow/profiles/slurm $(CONFIG) $(ONLY)

docs:  ## README's papers table and measured figures, the docs pages' figures (from the quick results)
	$(BIN)/python -m icml26.common.docs

dvc-stages:  ## dvc.yaml from workflow/papers.yaml
	$(BIN)/python -m icml26.common.registry dvc

gpu-check:  ## the paper-scale model paths on this machine's GPU (or CPU) on tiny replicas, a table of devices and verdicts
	$(BIN)/python scripts/gpu_check.py --cores $(CORES) $(if $(PAPERS),--papers $(PAPERS),)

bench:  ## platform benchmarks -> benchmarks/RESULTS.md
	$(BIN)/python benchmarks/measure.py $(if $(PAPERS),--papers $(PAPERS),)

clean:  ## remove generated outputs (not the DVC cache)
	rm -rf results/*/ data/ logs/ benchmarks/smoke benchmarks/quick benchmarks/paper .snakemake
