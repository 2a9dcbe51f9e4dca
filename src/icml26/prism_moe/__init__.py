"""prism_moe: PRISM, a dual-stream mixture-of-experts student distilled from conflicting teachers
(arXiv 2606.03444; spec ``shared/papers/prism_moe.md``), on procedural dense-prediction scenes with three small
teachers trained here (the stand-ins for DINOv2, CLIP, SAM and PASCAL-Context / NYUD-v2); at paper scale on
NYUD-v2 or PASCAL-Context with the paper's teachers.

Modules: ``scenes`` (the scenes and their exact dense targets), ``tasks`` (the tasks a data set carries),
``nyud`` and ``pascal_context`` (the paper's data sets from their folders; ``label_files`` and ``squares`` read
and resize their maps), ``teachers`` (three objectives, frozen; the user's torch.export teachers), ``moe``
(FiLM-conditioned noisy top-k router, expert dropout, shared + routed experts, load balance), ``student`` (the ViT
with dual-stream blocks and the baselines' blocks, parameter matching), ``methods`` (who distils what),
``distill`` (stage 1, stage 2, evaluation, routing counts), ``vfm`` (the paper's CLIP, SAM and DINOv2 teachers
from their Hugging Face folders), ``metrics`` (per-task metrics, Delta_m, bootstrap), ``analysis``
(specialisation against a permutation null, gradient conflict), ``verdict``, ``settings``, ``plots``, ``rules``.
"""

# what the paper-scale replicas need (icml26.common.lm.replicas.sources / overlay): the data sets in their real
# layouts in place of the downloads, the paper section's data format, and images small enough for a CPU
REPLICA_KEYS = ("format",)
REPLICA_SIZES = {"data": {"size": 32}}


def replica_data(origin: str, folder) -> None:
    """A tiny copy, in its real layout, of the data set ``folder`` is named for (NYUD-v2 or PASCAL-Context: the
    fetch entry's name or its folder's)."""
    from pathlib import Path

    from . import nyud, pascal_context

    name = Path(folder).name.lower()
    reader = nyud if "nyud" in name else pascal_context if "pascal" in name else None
    if reader is None:
        raise ValueError(f"{folder}: no replica of a data set of that name (NYUD-v2 or PASCAL-Context)")
    reader.write_replica(folder)
