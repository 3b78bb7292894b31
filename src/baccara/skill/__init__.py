"""The players' games: `tableaux` (the house tableaux), `chemin` (Chemin de Fer),
`banque` (Baccarat Banque) and `solver/` (their game-theoretic play)."""
