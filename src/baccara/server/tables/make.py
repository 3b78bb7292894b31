"""A table of the server for a game (`make_runner`): the one place that knows which kind
of runner plays which family, with the timings the configuration gives it. The hall
(`baccara.server.cluster.hall`) speaks only to the `Runner` it returns."""

from __future__ import annotations

from baccara.server.infra.config import ServerConfig
from baccara.server.infra.services import TableServices
from baccara.server.tables.audience import Audience
from baccara.server.tables.banque import BanqueRunner
from baccara.server.tables.chemin import CheminRunner
from baccara.server.tables.contract import Runner
from baccara.server.tables.house import HouseRunner, Timing
from baccara.server.tables.players import PlayersTiming
from baccara.variants import Family, Variant

__all__ = ["make_runner"]


def make_runner(
    table: str,
    game: Variant,
    config: ServerConfig,
    services: TableServices,
    *,
    squeeze: bool = False,
    audience: Audience | None = None,
) -> Runner:
    """The runner of ``table``, a table of ``game``, as ``config`` times it."""
    if game.house_banked:
        timing = Timing(
            bet_seconds=config.bet_seconds,
            card_seconds=config.card_seconds,
            result_seconds=config.result_seconds,
            squeeze_seconds=config.squeeze_seconds,
            seat_grace_seconds=config.seat_grace_seconds,
        )
        return HouseRunner(
            table_id=table,
            variant=game,
            services=services,
            decks=config.decks,
            audience=audience,
            timing=timing,
            squeeze=squeeze,
            behind=config.behind,
        )
    kind = CheminRunner if game.family is Family.CHEMIN_DE_FER else BanqueRunner
    clock = PlayersTiming(
        decision_seconds=config.decision_seconds,
        seed_seconds=config.seed_seconds,
        result_seconds=config.result_seconds,
        bot_seconds=config.bot_seconds,
    )
    return kind(
        table_id=table,
        variant=game,
        services=services,
        decks=config.decks,
        audience=audience,
        timing=clock,
        bots=config.bots,
    )
