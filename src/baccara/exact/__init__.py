"""Exact odds for any shoe: `odds` (every bet, every variant), `batch` (many shoes at once)
and the compiled enumeration in `_kernels`."""
