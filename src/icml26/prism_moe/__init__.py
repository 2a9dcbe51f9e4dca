"""prism_moe: PRISM, a dual-stream mixture-of-experts student distilled from conflicting teachers
(arXiv 2606.03444; spec ``shared/papers/prism_moe.md``), on procedural dense-prediction scenes with three small
teachers trained here (the stand-ins for DINOv2, CLIP, SAM and PASCAL-Context / NYUD-v2).

Modules: ``scenes`` (the scenes and their exact dense targets), ``teachers`` (three objectives, frozen; the
user's torch.export teachers), ``moe`` (FiLM-conditioned noisy top-k router, expert dropout, shared + routed
experts, load balance), ``student`` (the ViT with dual-stream blocks and the baselines' blocks, parameter
matching), ``methods`` (who distils what), ``distill`` (stage 1, stage 2, evaluation, routing counts),
``vfm`` (the paper's CLIP, SAM and DINOv2 teachers from their Hugging Face folders), ``metrics`` (per-task
metrics, Delta_m, bootstrap), ``analysis`` (specialisation against a permutation null,
gradient conflict), ``verdict``, ``settings``, ``plots``, ``rules``.
"""
