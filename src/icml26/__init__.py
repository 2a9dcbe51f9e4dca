"""icml26: reproducible, Snakemake-orchestrated pipelines for ICML 2026 papers.

Each paper lives in its own subpackage (``icml26.<slug>``) whose ``rules``
module holds the functions that Snakemake rules call; ``icml26.common`` holds
what every paper shares (determinism, canonical I/O, figures, claims).
"""

__version__ = "0.1.0"
