"""The simulator: `simulation` (jobs, shoes, reports), `strategies` (betting systems and
counting), `bankroll` (strategies over simulated shoes) and the compiled `_kernels`."""
