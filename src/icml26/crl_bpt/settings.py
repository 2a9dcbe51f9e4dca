"""Cross-key constraints on crl_bpt's settings (checked by ``register`` before any job runs)."""

from collections.abc import Iterator
from pathlib import Path


def problems(cfg: dict) -> Iterator[str]:
    from .agent import longest_context
    from .grammar import all_human_templates
    from .scenes import SIZE

    search, human = cfg["search"], cfg["human"]
    if human["count"] > len(all_human_templates()):
        yield f"human.count: {human['count']} exceeds the grammar's {len(all_human_templates())} human templates"
    if search["references"] + 1 > human["count"]:
        yield f"search.references: {search['references']} needs at least {search['references'] + 1} human templates"
    if search["best_human"] > search["references"]:
        yield f"search.best_human: {search['best_human']} exceeds search.references ({search['references']})"
    if search["budget"] < search["references"] + search["samples"] + 1:
        yield (
            f"search.budget: {search['budget']} calls cannot seed {search['references']} references and take one "
            f"step of {search['samples']} samples and the baseline"
        )
    if search["curve_every"] > search["budget"]:
        yield f"search.curve_every: {search['curve_every']} exceeds search.budget ({search['budget']})"
    if cfg["images"]["coop"] and not cfg["blackbox"]["checkpoint"]:
        yield "images.coop: a CoOp data set's photos need a pretrained CLIP (blackbox.checkpoint), not the tiny encoder"
    if not cfg["images"]["coop"] and search["batch_images"] > cfg["images"]["train"]:
        yield f"search.batch_images: {search['batch_images']} exceeds images.train ({cfg['images']['train']})"
    if cfg["sft"]["warmup_steps"] >= cfg["sft"]["steps"]:
        yield f"sft.warmup_steps: {cfg['sft']['warmup_steps']} is not below the {cfg['sft']['steps']} steps"
    box = cfg["blackbox"]
    if box["checkpoint"] is None:
        if box["hidden_size"] % box["heads"]:
            yield f"blackbox.hidden_size: {box['hidden_size']} is not a multiple of blackbox.heads ({box['heads']})"
        if SIZE % box["patch_size"]:
            yield f"blackbox.patch_size: {box['patch_size']} does not divide the {SIZE}-pixel images"
        if box["batch_size"] > cfg["images"]["pool"]:
            yield f"blackbox.batch_size: {box['batch_size']} exceeds images.pool ({cfg['images']['pool']})"
    elif not Path(box["checkpoint"]).is_dir():
        yield f"blackbox.checkpoint: {box['checkpoint']} is not a folder (a Hugging Face CLIP model with its tokenizer)"
    model = cfg["model"]
    if model["checkpoint"] is None:
        if model["hidden_size"] % model["heads"]:
            yield f"model.hidden_size: {model['hidden_size']} is not a multiple of model.heads ({model['heads']})"
        need = longest_context(search["references"]) + search["max_new_tokens"]
        if model["context"] < need:
            yield f"model.context: {model['context']} positions cannot hold the agent's context and answer ({need})"
    elif not Path(model["checkpoint"]).is_dir():
        yield f"model.checkpoint: {model['checkpoint']} is not a folder (a Hugging Face causal LM with its tokenizer)"
