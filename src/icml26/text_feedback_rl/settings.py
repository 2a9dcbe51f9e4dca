"""Cross-key constraints on text_feedback_rl's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path


def problems(cfg: dict) -> Iterator[str]:
    from .dialogue import longest_second_prompt
    from .tasks import CodeTask

    low, high = cfg["permutation"]["constraints"]
    if low > high:
        yield f"permutation.constraints: the fewest ({low}) exceeds the most ({high})"
    if "sd" not in cfg["methods"] and any(m.startswith("sd_") for m in cfg["methods"]):
        yield "methods: the SD ablations (sd_turn2_baseline, sd_importance) are compared with sd, which is missing"
    if cfg["evaluation"]["curve_problems"] > cfg["problems"]["test"]:
        yield (
            f"evaluation.curve_problems: {cfg['evaluation']['curve_problems']} exceeds the "
            f"{cfg['problems']['test']} test problems"
        )
    wanted = cfg["problems"]["train"] + cfg["problems"]["test"]
    if "code" in cfg["tasks"] and CodeTask(cfg["code"]["length"]).distinct() < wanted:
        yield (
            f"problems: the code task of length {cfg['code']['length']} has "
            f"{CodeTask(cfg['code']['length']).distinct()} distinct problems, fewer than train + test = {wanted}"
        )
    if cfg["rl"]["prompts"] > cfg["problems"]["train"]:
        yield f"rl.prompts: {cfg['rl']['prompts']} exceeds the {cfg['problems']['train']} training problems"
    if cfg["sft"]["warmup_steps"] >= cfg["sft"]["steps"]:
        yield f"sft.warmup_steps: {cfg['sft']['warmup_steps']} is not below the {cfg['sft']['steps']} steps"
    model = cfg["model"]
    if model["checkpoint"] is None:
        if model["hidden_size"] % model["heads"]:
            yield f"model.hidden_size: {model['hidden_size']} is not a multiple of model.heads ({model['heads']})"
        need = max(longest_second_prompt(task, cfg[task]) for task in cfg["tasks"])
        if model["context"] < need:
            yield f"model.context: {model['context']} positions cannot hold a second-turn prompt and answer ({need})"
    elif not Path(model["checkpoint"]).is_dir():
        yield f"model.checkpoint: {model['checkpoint']} is not a folder (a Hugging Face causal LM with its tokenizer)"
