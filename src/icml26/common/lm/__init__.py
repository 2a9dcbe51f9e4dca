"""A small causal-LM toolkit on Hugging Face model classes, shared by the language-model papers.

One stack for every paper that trains a small LM from scratch on a task language, fine-tunes it, samples
from it and updates it with policy-gradient objectives, so their results are comparable, and so the same
code runs a user's own checkpoint (a local Hugging Face folder) at ``paper`` scale:

- :mod:`.tokenizer` closed task vocabularies (word or character level) as Hugging Face tokenizers;
- :mod:`.model` a seeded tiny ``LlamaForCausalLM`` from sizes in the config, or a local checkpoint;
- :mod:`.sft` supervised fine-tuning with the loss on answer tokens only;
- :mod:`.sampling` batched generation with the sampling policy's per-token log-probabilities, and the
  log-probability of given continuations;
- :mod:`.policy_gradient` GRPO advantages, the clipped surrogate with a k3 KL penalty, REINFORCE with a
  running baseline (pure torch: no ``transformers`` import).

Submodules import ``transformers`` (seconds); import them inside the rule functions that need them so other
papers' jobs never pay for it. docs/ARCHITECTURE.md ("Shared LM toolkit") says when a paper should use it.
"""

import os

# Nothing is ever downloaded: models and tokenizers are built here or loaded from local folders. Set before
# any submodule imports transformers (huggingface_hub reads it once, at import).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
