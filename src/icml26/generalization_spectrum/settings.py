"""Cross-key constraints on generalization_spectrum's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path


def problems(cfg: dict) -> Iterator[str]:
    from .prompts import LONGEST_ANSWER, longest_icl_prompt

    evaluation, model = cfg["evaluation"], cfg["model"]
    if max(evaluation["k"]) > evaluation["samples"]:
        yield (
            f"evaluation.k: pass@{max(evaluation['k'])} needs at least that many evaluation.samples "
            f"({evaluation['samples']})"
        )
    if evaluation["max_new_tokens"] < LONGEST_ANSWER:
        yield (
            f"evaluation.max_new_tokens: {evaluation['max_new_tokens']} is below the longest answer "
            f"({LONGEST_ANSWER} tokens)"
        )
    training = cfg["pretraining"]["training"]
    if training["warmup_steps"] >= training["steps"]:
        yield (
            f"pretraining.training.warmup_steps: {training['warmup_steps']} is not below the {training['steps']} steps"
        )
    if model["checkpoint"] is None:
        if model["hidden_size"] % model["heads"]:
            yield f"model.hidden_size: {model['hidden_size']} is not a multiple of model.heads ({model['heads']})"
        need = longest_icl_prompt(cfg["world"]["examples"]) + evaluation["max_new_tokens"]
        if model["context"] < need:
            yield (
                f"model.context: {model['context']} positions cannot hold an in-context prompt with "
                f"{cfg['world']['examples']} examples and its answer ({need})"
            )
    elif not Path(model["checkpoint"]).is_dir():
        yield f"model.checkpoint: {model['checkpoint']} is not a folder (a Hugging Face causal LM with its tokenizer)"
    for name, learner in cfg["learners"].items():
        if 0 not in learner["checkpoints"]:
            yield f"learners.{name}.checkpoints: must include 0 (the base model, where every curve starts)"
