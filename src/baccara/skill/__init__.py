"""The players' games: `tableaux` (the house tableaux), `chemin` (Chemin de Fer),
`banque` (Baccarat Banque) and `solver/` (their game-theoretic play).

Each game registers itself in `baccara.skill.games` as its module loads; importing the
package loads them, so the registry is whole whatever module is asked for first."""

from baccara.skill import chemin, banque  # noqa: I001 (registration order: the games' order)

__all__ = ["banque", "chemin"]
