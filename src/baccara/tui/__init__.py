"""The terminal games: `table` (Punto Banco with humans and bots) and `skill` (Chemin de
Fer and Baccarat Banque)."""
