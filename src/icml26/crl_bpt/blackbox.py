"""The black box: a frozen CLIP-style dual encoder reachable only through ``score(template)``, with a call
budget that can never be exceeded.

The encoder is Hugging Face's ``CLIPModel`` with a tiny config, trained here with the CLIP loss on the procedural
images of :mod:`.scenes` and the grammar captions of :mod:`.grammar` (a substitution: the paper's black box is a
pretrained CLIP; at ``paper`` scale ``blackbox.checkpoint`` loads the user's own CLIP folder, model and
tokenizer, the same way). Features are pooled by us at each text's last token (its end-of-text token, which is
where CLIP pools), because ``CLIPTextTransformer``'s own pooling treats an ``eos_token_id`` of 2, ours, as a
legacy config and pools at the largest token id instead.

``score`` classifies a batch of images among every class name filled into the template and returns the accuracy
and the mean margin ``p(correct) - max p(wrong)`` of the softmax over classes. Every call spends one unit of the
budget, an invalid template too (no class slot, or more than one: accuracy 0, margin -1, never a crash).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from transformers import CLIPConfig, CLIPModel, PreTrainedTokenizerBase
from transformers.image_utils import OPENAI_CLIP_MEAN, OPENAI_CLIP_STD

from . import grammar
from .scenes import CLASSES

INVALID = (0.0, -1.0)  # (accuracy, margin) of a template the black box cannot use


class BudgetExhausted(RuntimeError):
    """A call was asked for after the budget was spent; the call is refused, the counter stays at the limit."""


class CallBudget:
    """Counts black-box calls; ``spend`` refuses any call beyond ``limit``."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"a call budget must be at least 1, got {limit}")
        self.limit, self.used = int(limit), 0

    @property
    def remaining(self) -> int:
        return self.limit - self.used

    def spend(self) -> None:
        if self.used >= self.limit:
            raise BudgetExhausted(f"the budget of {self.limit} black-box calls is spent")
        self.used += 1


def tokenizer() -> PreTrainedTokenizerBase:
    """The black box's word-level tokenizer: the template language and the class names."""
    from ..common.lm.tokenizer import task_tokenizer

    return task_tokenizer(grammar.words() + grammar.class_words())


def load_encoder(folder: str, device: str = "cpu"):
    """A CLIP model (on ``device``) and its tokenizer from a local folder (ours or the user's); a folder of another
    architecture, damaged weights or weights that do not cover the model are one line naming it
    (:mod:`..common.checkpoints`)."""
    from ..common.checkpoints import load_pretrained
    from ..common.lm.tokenizer import load_tokenizer

    model = load_pretrained(CLIPModel, folder, model_types={"clip"}, what="CLIP model")
    return model.to(device).eval(), load_tokenizer(folder)


ENCODER_SIZES = ("hidden_size", "layers", "heads", "intermediate_size", "patch_size", "projection_dim", "max_words")


@dataclass(frozen=True)
class EncoderSettings:
    """The dual encoder built here (quick defaults: about 0.2 M parameters)."""

    hidden_size: int = 64
    layers: int = 2
    heads: int = 4
    intermediate_size: int = 128
    patch_size: int = 4
    projection_dim: int = 64
    max_words: int = 24


def build_encoder(settings: EncoderSettings, tokenizer: PreTrainedTokenizerBase, image_size: int, seed: int):
    common = {
        "hidden_size": settings.hidden_size,
        "intermediate_size": settings.intermediate_size,
        "num_hidden_layers": settings.layers,
        "num_attention_heads": settings.heads,
    }
    config = CLIPConfig(
        text_config={
            **common,
            "vocab_size": len(tokenizer),
            "max_position_embeddings": settings.max_words,
            "pad_token_id": tokenizer.pad_token_id,
            "bos_token_id": tokenizer.bos_token_id,
            "eos_token_id": tokenizer.eos_token_id,
        },
        vision_config={**common, "image_size": image_size, "patch_size": settings.patch_size, "num_channels": 3},
        projection_dim=settings.projection_dim,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return CLIPModel(config)


def text_ids(tokenizer: PreTrainedTokenizerBase, texts: Sequence[str], limit: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-padded ids and attention mask, each text framed by the begin- and end-of-text tokens (added here
    when the tokenizer does not add them itself, as ours does not) and cut to ``limit`` tokens, end token kept."""
    rows = []
    for ids in tokenizer(list(texts), add_special_tokens=True)["input_ids"]:
        if tokenizer.bos_token_id is not None and (not ids or ids[0] != tokenizer.bos_token_id):
            ids = [tokenizer.bos_token_id, *ids]
        if not ids or ids[-1] != tokenizer.eos_token_id:
            ids = [*ids, tokenizer.eos_token_id]
        rows.append(ids if len(ids) <= limit else [*ids[: limit - 1], tokenizer.eos_token_id])
    width = max(len(r) for r in rows)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, : len(r)], mask[i, : len(r)] = torch.as_tensor(r), 1
    return ids, mask


def text_features(model: CLIPModel, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Unit-norm text embeddings pooled at each row's last attended token (on the model's device)."""
    ids, mask = ids.to(model.device), mask.to(model.device)
    hidden = model.text_model(input_ids=ids, attention_mask=mask).last_hidden_state
    pooled = hidden[torch.arange(len(ids)), mask.sum(dim=1) - 1]
    return torch.nn.functional.normalize(model.text_projection(pooled), dim=-1)


def pixels(model: CLIPModel, images: np.ndarray) -> torch.Tensor:
    """Images ``[n, 3, h, w]`` (float in [0, 1], or uint8 photos: the CoOp sets) resized to the model's input size
    and normalised as CLIP expects, on the model's device."""
    x = torch.as_tensor(images, dtype=torch.float32, device=model.device)
    if images.dtype == np.uint8:
        x = x / 255.0
    size = model.config.vision_config.image_size
    if x.shape[-1] != size:
        x = torch.nn.functional.interpolate(x, size=(size, size), mode="bilinear", align_corners=False)
    mean = torch.tensor(OPENAI_CLIP_MEAN, device=x.device).view(1, 3, 1, 1)
    std = torch.tensor(OPENAI_CLIP_STD, device=x.device).view(1, 3, 1, 1)
    return (x - mean) / std


def image_features(model: CLIPModel, images: np.ndarray, batch: int = 512) -> torch.Tensor:
    parts = []
    for start in range(0, len(images), batch):
        pooled = model.vision_model(pixel_values=pixels(model, images[start : start + batch])).pooler_output
        parts.append(torch.nn.functional.normalize(model.visual_projection(pooled), dim=-1))
    return torch.cat(parts)


def clip_loss(model: CLIPModel, image_embeds: torch.Tensor, text_embeds: torch.Tensor) -> torch.Tensor:
    """The symmetric contrastive loss of CLIP on a batch of matching (image, caption) pairs."""
    logits = model.logit_scale.exp() * image_embeds @ text_embeds.T
    target = torch.arange(len(logits), device=logits.device)
    return (torch.nn.functional.cross_entropy(logits, target) + torch.nn.functional.cross_entropy(logits.T, target)) / 2


def train_encoder(
    model: CLIPModel,
    tokenizer: PreTrainedTokenizerBase,
    images: np.ndarray,
    captions: Callable[[np.ndarray, np.random.Generator], list[str]],
    *,
    steps: int,
    batch_size: int,
    lr: float,
    seed: int,
    log: Callable[[str], None] = print,
    log_every: int = 100,
) -> list[float]:
    """CLIP-loss training on ``images`` with fresh captions each step (``captions(indices, rng)``); returns the
    loss of every step. AdamW with cosine decay; the same seed gives the same weights on CPU."""
    from transformers import get_cosine_schedule_with_warmup

    rng = np.random.default_rng(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    schedule = get_cosine_schedule_with_warmup(optimizer, max(1, steps // 20), steps)
    losses = []
    model.train()
    for step in range(1, steps + 1):
        chosen = rng.choice(len(images), size=batch_size, replace=False)
        ids, mask = text_ids(tokenizer, captions(chosen, rng), model.config.text_config.max_position_embeddings)
        pooled = model.vision_model(pixel_values=pixels(model, images[chosen])).pooler_output
        loss = clip_loss(
            model,
            torch.nn.functional.normalize(model.visual_projection(pooled), dim=-1),
            text_features(model, ids, mask),
        )
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if step % log_every == 0 or step == steps:
            log(f"dual encoder step {step}/{steps}: loss {loss.item():.3f}")
    model.eval()
    return losses


class Classifier:
    """The frozen encoder as a zero-shot classifier of a fixed image set; ``correct(template)`` per image.

    Not counted: :class:`BlackBox` wraps it with the budget for the agent, the evaluation reads it directly.
    Everything it computes stays on the model's device; what it returns is on the CPU.
    """

    def __init__(
        self,
        model: CLIPModel,
        tokenizer: PreTrainedTokenizerBase,
        images: np.ndarray,
        labels: np.ndarray,
        classes: Sequence[str] = CLASSES,
    ):
        self.model, self.tokenizer, self.classes = model.eval(), tokenizer, list(classes)
        self.labels = torch.as_tensor(labels, device=model.device)
        with torch.no_grad():
            self.images = image_features(model, images)
        self._texts: dict[str, torch.Tensor] = {}

    def class_embeddings(self, template: str) -> torch.Tensor:
        if template not in self._texts:
            limit = self.model.config.text_config.max_position_embeddings
            with torch.no_grad():
                ids, mask = text_ids(self.tokenizer, [grammar.fill(template, c) for c in self.classes], limit)
                self._texts[template] = text_features(self.model, ids, mask)
        return self._texts[template]

    def probabilities(self, template: str, index: np.ndarray | None = None) -> torch.Tensor:
        images = self.images if index is None else self.images[torch.as_tensor(index, device=self.images.device)]
        with torch.no_grad():
            return torch.softmax(self.model.logit_scale.exp() * images @ self.class_embeddings(template).T, dim=-1)

    def correct(self, template: str) -> np.ndarray:
        """Whether each image is classified right with ``template`` (all wrong for an invalid template)."""
        if not grammar.has_slot(template):
            return np.zeros(len(self.labels), dtype=bool)
        return (self.probabilities(template).argmax(dim=-1) == self.labels).cpu().numpy()

    def accuracy_margin(self, template: str, index: np.ndarray) -> tuple[float, float]:
        if not grammar.has_slot(template):
            return INVALID
        p = self.probabilities(template, index)
        labels = self.labels[torch.as_tensor(index, device=self.labels.device)]
        right = p.gather(1, labels[:, None]).squeeze(1)
        wrong = p.scatter(1, labels[:, None], -1.0).max(dim=1).values
        return float((p.argmax(dim=-1) == labels).float().mean()), float((right - wrong).mean())


class BlackBox:
    """What the agent sees: ``score(template, batch)`` on a batch of the training images, one budget unit each."""

    def __init__(self, classifier: Classifier, budget: CallBudget):
        self._classifier, self.budget = classifier, budget
        self.seconds = 0.0  # time spent inside calls (for the timing outputs)

    @property
    def images(self) -> int:
        return len(self._classifier.labels)

    def score(self, template: str, batch: np.ndarray) -> tuple[float, float]:
        import time

        self.budget.spend()
        start = time.perf_counter()
        found = self._classifier.accuracy_margin(template, batch)
        self.seconds += time.perf_counter() - start
        return found


def reward(accuracy: float, margin: float) -> float:
    """The spec's reward ``30·acc + 10·margin`` (an invalid template gets -10)."""
    return 30.0 * accuracy + 10.0 * margin
