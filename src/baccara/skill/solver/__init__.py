"""Game-theoretic play: `models` (chance weights), `chemin` and `banque` (the solvers) and
`check` (a Monte Carlo check of a solution)."""
