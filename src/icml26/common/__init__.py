"""What every paper pipeline shares: determinism, canonical I/O, figures, claims."""
