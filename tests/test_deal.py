"""The dealer's chance model, and every table derived from it, checked exhaustively.

Source: the standard Punto Banco tableau as printed in the seed documents (000, 002,
004), the cells of `baccara.rules`. Each compiled table is compared with the model
entry by entry, and the outcome of every one of the 10**6 six-card sequences by point
values is compared between the model and each engine (exact tables, the simulator's
compiled coup, the solver's enumeration).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from numba import njit
from tests.support.played import play_banque, play_chemin

from baccara import deal, rules
from baccara.cards import Card
from baccara.coup import deal_coup
from baccara.deal import (
    ALL_FREE,
    OVER,
    PUNTO_BANCO,
    Choose,
    Deal,
    DealError,
    DealState,
    DrawingRules,
    Over,
    Side,
    play,
    step,
)
from baccara.exact import _tables as exact_tables
from baccara.shoe import Shoe
from baccara.sim import _kernels as kernels
from baccara.skill import records, tableaux
from baccara.skill.solver.models import deal_finals

SEQUENCES = 10**6
Outcomes = np.ndarray[Any, np.dtype[np.int64]]


# -- the model, cell by cell -----------------------------------------------------------


def test_the_first_four_cards_alternate_player_first() -> None:
    assert deal.FIRST_CARDS == (Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER)
    assert "".join(deal.order_of(3, 3)) == "PBPBPB"
    assert "".join(deal.order_of(3, 2)) == "PBPBP"
    assert "".join(deal.order_of(2, 3)) == "PBPBB"
    assert "".join(deal.order_of(2, 2)) == "PBPB"


@pytest.mark.parametrize("pt", range(10))
@pytest.mark.parametrize("bt", range(10))
def test_every_two_card_cell_follows_the_rulebook(pt: int, bt: int) -> None:
    state = DealState(player=(pt, 0), banker=(bt, 0))
    now = step(state)
    if rules.is_natural(pt) or rules.is_natural(bt):
        assert now is OVER  # naturals: nobody draws
        return
    if rules.player_draws(pt):
        assert now == Deal(Side.PLAYER)
        for third in range(10):
            after = step(state.given(Side.PLAYER, third))
            expected = Deal(Side.BANKER) if rules.banker_draws(bt, third) else OVER
            assert after == expected, (pt, bt, third)
            if isinstance(after, Deal):
                assert step(state.given(Side.PLAYER, third).given(Side.BANKER, 0)) is OVER
    else:
        assert now == (Deal(Side.BANKER) if rules.banker_draws(bt, None) else OVER)


def test_free_cells_ask_and_take_the_choice() -> None:
    french = tableaux.chance_tableau("french")
    state = DealState(player=(2, 3), banker=(3, 0))
    assert step(state, french) == Choose(Side.PLAYER, 5, None)
    drew = state.chose(Side.PLAYER, True)
    assert step(drew, french) == Deal(Side.PLAYER)
    assert step(drew.given(Side.PLAYER, 9), french) == Choose(Side.BANKER, 3, 9)
    assert step(drew.given(Side.PLAYER, 8), french) is OVER  # 3 against an 8: bound to stand
    assert step(state.chose(Side.PLAYER, False), french) == Deal(Side.BANKER)
    with pytest.raises(DealError, match="must choose"):
        play((2, 3, 3, 0, 9, 9), french)
    assert play((2, 3, 3, 0, 9, 9), french, player_choice=True, banker_choice=False) == (
        deal.Ending(player=(2, 3, 9), banker=(3, 0))
    )


@pytest.mark.parametrize("house", list(tableaux.House))
def test_skill_tableaux_bind_like_punto_banco_outside_their_free_cells(
    house: tableaux.House,
) -> None:
    table = tableaux.chance_tableau(house)
    assert table.player[:8] == tuple(
        None if cell is tableaux.Cell.FREE else cell is tableaux.Cell.DRAW
        for cell in tableaux.PUNTER_TABLE
    )
    free = set(tableaux.free_cells(house))
    for total in range(8):
        for col in range(rules.NO_CARD + 1):
            third = None if col == rules.NO_CARD else col
            cell = table.banker[total][col]
            if (total, third) in free:
                assert cell is None
            else:
                assert cell == rules.banker_draws(total, third)


def test_impossible_states_are_refused() -> None:
    with pytest.raises(DealError, match="before the fourth"):
        step(DealState(banker=(1,)))
    with pytest.raises(DealError, match="after a natural"):
        step(DealState(player=(4, 4, 1), banker=(0, 0)))
    with pytest.raises(DealError, match="no card is due"):
        DealState(player=(4, 4), banker=(0, 0)).dealt(3)
    with pytest.raises(DealError, match="ran out"):
        play((1, 1, 1, 1))
    with pytest.raises(DealError, match="rows for totals 0-7"):
        DrawingRules.from_rows(player=(True,) * 7)
    assert not PUNTO_BANCO.free and ALL_FREE.free


# -- every 6-card sequence through the model ---------------------------------------------


@cache
def model_outcomes() -> tuple[Outcomes, int]:
    """(Player total, Banker total, Player cards, Banker cards) of every value sequence.

    Walks the model's whole chance tree: each coup that ends after ``d`` cards stands
    for the ``10**(6 - d)`` sequences that share those cards (the rest are not dealt).
    Returns the outcomes in ``np.indices`` order and the number of ended coups.
    """
    out = np.full((SEQUENCES, 4), -1, dtype=np.int64)
    ended = 0

    def walk(state: DealState, prefix: int, depth: int) -> None:
        nonlocal ended
        now = step(state)
        if isinstance(now, Over):
            span = 10 ** (6 - depth)
            end = deal.Ending(player=state.player, banker=state.banker)
            row = (end.player_total, end.banker_total, len(end.player), len(end.banker))
            out[prefix * span : (prefix + 1) * span] = row
            ended += 1
            return
        assert isinstance(now, Deal)
        for value in range(10):
            walk(state.given(now.side, value), prefix * 10 + value, depth + 1)

    walk(DealState(), 0, 0)
    assert (out >= 0).all()
    return out, ended


def test_the_model_ends_every_sequence() -> None:
    outcomes, ended = model_outcomes()
    # 10**4 four-card deals; the naturals end there, the rest after 5 or 6 cards
    assert ended == 339_400
    assert len({tuple(row) for row in np.unique(outcomes, axis=0).tolist()}) == 205
    # spot check against the doctest coup: P 2,3,4 B 5,0,9
    index = int("253049")
    assert outcomes[index].tolist() == [9, 4, 3, 3]


def _sequences() -> Outcomes:
    return np.indices((10,) * 6).reshape(6, -1).astype(np.int64)


def test_the_ending_table_is_the_model_entry_by_entry() -> None:
    table = deal.ending_table()
    outcomes, _ = model_outcomes()
    seq = _sequences()
    p_two, b_two = (seq[0] + seq[2]) % 10, (seq[1] + seq[3]) % 10
    index = deal.ending_index(p_two, b_two, seq[4], seq[5])  # type: ignore[arg-type]
    assert (np.array(table)[index] == outcomes).all()
    assert len(table) == 10**4


@pytest.mark.slow
def test_the_tables_deal_is_the_model_on_every_six_card_sequence(full_size: bool) -> None:
    """`coup.deal_coup` (the table's, the terminal's and the web's deal) plays every one
    of the 10**6 sequences of point values as the model does (sized down: every 7th,
    so every value in every position still comes; ``--slow``: all)."""
    outcomes, _ = model_outcomes()
    rank = {0: "K", 1: "A", **{v: str(v) for v in range(2, 10)}}
    cards = {v: Card.parse(f"{rank[v]}s") for v in range(10)}
    stride = 1 if full_size else 7
    for index, sequence in enumerate(_sequences().T.tolist()):
        if index % stride:
            continue
        coup = deal_coup(Shoe.stacked([cards[v] for v in sequence]))
        got = (coup.player_total, coup.banker_total, len(coup.player), len(coup.banker))
        assert got == tuple(outcomes[index]), sequence


# -- the exact engine -----------------------------------------------------------------------


def test_the_exact_engine_plays_every_sequence_as_the_model() -> None:
    outcomes, _ = model_outcomes()
    seq, p_total, b_total, p_drew, b_drew = exact_tables._play_all()
    assert (seq == _sequences()).all()
    mine = np.stack([p_total, b_total, p_drew + 2, b_drew + 2], axis=1)
    assert (mine == outcomes).all()


def test_every_exact_table_entry_counts_the_models_orderings() -> None:
    outcomes, _ = model_outcomes()
    table = exact_tables.outcome_table()
    flat = (
        ((outcomes[:, 0] * 10 + outcomes[:, 1]) * 2 + outcomes[:, 2] - 2) * 2 + outcomes[:, 3] - 2
    )
    assert (table.classes[table.sequence_column] == flat).all()
    tree = exact_tables.monomial_tree()
    seq = np.sort(_sequences(), axis=0)
    key = np.zeros(SEQUENCES, dtype=np.int64)
    for row in seq:
        key = key * 10 + row
    leaf_key = np.zeros(len(tree.leaf_value), dtype=np.int64)
    for col in tree.leaf_multiset.T:
        leaf_key = leaf_key * 10 + col
    leaf = np.searchsorted(leaf_key, key)
    assert (leaf_key[leaf] == key).all()
    column = np.searchsorted(table.classes, flat)
    counts = np.zeros_like(table.counts)
    np.add.at(counts, (leaf, column), 1)
    assert (counts == table.counts).all()  # 5,005 multisets x every class, each entry


# -- the simulator --------------------------------------------------------------------------


def test_every_simulator_table_entry_is_the_models() -> None:
    table = deal.ending_table()
    for index, (p, b, p_cards, b_cards) in enumerate(table):
        end = int(kernels.OUTCOME[index])
        assert end == ((p * 10 + b) * 2 + p_cards - 2) * 2 + b_cards - 2
        packed = int(kernels.DEAL[index])
        assert packed & 7 == p_cards + b_cards
        assert int(kernels.ENDS[packed >> 3]) == end


@njit(cache=True)
def _compiled_outcomes() -> Any:  # pragma: no cover - compiled
    # Every sequence through the kernel's own coup (`_coup`): card code of a value v
    # is the spade of rank v (a ten for 0), so no pair can make a suited pair.
    out = np.empty((10**6, 5), dtype=np.int64)
    cards = np.empty(6, dtype=np.uint8)
    values = np.empty(6, dtype=np.uint8)
    for n in range(10**6):
        rest = n
        for i in range(5, -1, -1):
            v = rest % 10
            rest //= 10
            values[i] = v
            cards[i] = (v - 1) * 4 if v > 0 else 36
        used, key = kernels._coup(cards, values, 0)
        out[n, 0] = used
        out[n, 1] = key
    return out


def test_the_compiled_coup_plays_every_sequence_as_the_model() -> None:
    outcomes, _ = model_outcomes()
    compiled = _compiled_outcomes()
    decoded = np.array([kernels.decode(int(k)) for k in range(kernels.NKEYS)], dtype=np.int64)
    rows = decoded[compiled[:, 1]]
    mine = np.stack([rows[:, 0], rows[:, 1], rows[:, 2] + 2, rows[:, 3] + 2], axis=1)
    assert (mine == outcomes).all()
    assert (compiled[:, 0] == outcomes[:, 2] + outcomes[:, 3]).all()
    # pairs: each hand's first two cards (the same value here is the same card: suited)
    seq = _sequences()
    assert (rows[:, 4] == 2 * (seq[0] == seq[2])).all()
    assert (rows[:, 5] == 2 * (seq[1] == seq[3])).all()


# -- the solver -----------------------------------------------------------------------------


def test_the_solver_reads_the_first_four_cards_where_the_model_deals_them() -> None:
    four = np.indices((10,) * 4).reshape(4, -1).astype(np.int64)
    deals = np.vstack([four, np.zeros((2, four.shape[1]), dtype=np.int64)])
    pt, bt, *_ = deal_finals(deals, punter_draws=False)
    for n, values in enumerate(four.T.tolist()):  # all 10**4 four-card deals
        state = DealState()
        for points in values:
            state = state.dealt(points)
        assert (pt[n], bt[n]) == (sum(state.player) % 10, sum(state.banker) % 10)


@pytest.mark.parametrize("punter_draws", [False, True])
@pytest.mark.parametrize("banker_draws", [False, True])
def test_the_solver_deals_the_third_cards_as_the_model(
    punter_draws: bool, banker_draws: bool
) -> None:
    # every non-natural pair of two-card totals, every 5th and 6th card value
    cells = [
        (pt, bt, c5, c6)
        for pt in range(8)
        for bt in range(8)
        for c5 in range(10)
        for c6 in range(10)
    ]
    deals = np.array([(pt, bt, 0, 0, c5, c6) for pt, bt, c5, c6 in cells], dtype=np.int64).T
    _, _, pfin, col, bdraw = deal_finals(deals, punter_draws)
    for n, (pt, bt, c5, c6) in enumerate(cells):
        end = play(
            (pt, bt, 0, 0, c5, c6),
            ALL_FREE,
            player_choice=punter_draws,
            banker_choice=banker_draws,
        )
        assert pfin[n] == end.player_total
        assert col[n] == (end.player[2] if punter_draws else rules.NO_CARD)
        assert (bdraw[n] if banker_draws else bt) == end.banker_total
    assert len(cells) == 6_400


# -- several tableaux (Baccarat Banque), and the players' engines ---------------------------

SPEAKERS = pytest.mark.parametrize("punter_speaks", [False, True])


def _replay(
    state: deal.HalvesState, finals: list[tuple[int, ...]], tableau: DrawingRules
) -> deal.HalvesState:
    """Walk the model from the first cards to the end, each choice and card as ``finals``
    (each hand's points as the coup ended) has them; the state at the end."""
    while not isinstance(now := deal.step_halves(state, tableau), Over):
        hand = len(finals) - 1 if now.side is Side.BANKER else now.half
        held = (*state.punters, state.banker)[hand]
        if isinstance(now, Choose):
            state = state.chose(now, len(finals[hand]) == 3)
        else:
            assert len(finals[hand]) == 3, f"the model deals a card to hand {hand}: {finals}"
            state = state.given(now, finals[hand][len(held)])
    return state


def test_the_model_of_two_tableaux_deals_round_the_hands_then_by_the_punters_row() -> None:
    first = deal.HalvesState.of(2)
    order = []
    for points in range(6):
        now = deal.step_halves(first)
        assert isinstance(now, Deal)
        order.append("B" if now.side is Side.BANKER else "LR"[now.half])
        first = first.given(now, points)
    assert "".join(order) == "LRBLRB"  # Source: BanqueTable._deal, the seeds' Banque deal
    chemin = tableaux.chance_tableau()
    for left in range(8):
        for right in range(10):
            state = deal.HalvesState(punters=((0, left), (0, right)), banker=(0, 3))
            now = deal.step_halves(state, chemin)
            if left <= 4:  # draws on 0-4
                assert now == Deal(Side.PLAYER, 0)
            elif left == 5:  # free on 5
                assert now == Choose(Side.PLAYER, 5, None, 0)
            elif right <= 4:  # the left stands on 6-7: the right's turn
                assert now == Deal(Side.PLAYER, 1)
            elif right == 5:
                assert now == Choose(Side.PLAYER, 5, None, 1)
            else:  # both stand (or the right shows a natural): the banker chooses
                assert now == Choose(Side.BANKER, 3, None)
    naturals = deal.HalvesState(punters=((0, 8), (0, 9)), banker=(0, 3))
    assert deal.step_halves(naturals) is OVER  # both tableaux settled at once
    banker = deal.HalvesState(punters=((0, 1), (0, 2)), banker=(4, 4))
    assert deal.step_halves(banker) is OVER  # the banker's natural settles both
    with pytest.raises(DealError, match="impossible deal"):
        deal.step_halves(deal.HalvesState(punters=((1, 2), ())))


def test_one_tableau_is_the_single_model() -> None:
    chemin = tableaux.chance_tableau(banker_free=True)
    for pt in range(10):
        for bt in range(10):
            single = DealState(player=(0, pt), banker=(0, bt))
            several = deal.HalvesState(punters=((0, pt),), banker=(0, bt))
            one, other = step(single, chemin), deal.step_halves(several, chemin)
            if isinstance(one, Choose) and one.side is Side.BANKER:
                assert other == Choose(Side.BANKER, bt, None)  # no column read with several
            else:
                assert one == other


@SPEAKERS
def test_every_banque_coup_the_engine_plays_is_the_models(punter_speaks: bool) -> None:
    table, _ = play_banque(seed=4, punter_speaks=punter_speaks)
    coups = records.banque_coups(table.log)
    assert len(coups) > 20
    chemin = tableaux.chance_tableau()
    for coup in coups:
        finals = [
            tuple(c.points for c in cards)
            for cards in (coup.left_cards, coup.right_cards, coup.banker_cards)
        ]
        first = deal.HalvesState(punters=(finals[0][:2], finals[1][:2]), banker=finals[2][:2])
        end = _replay(first, finals, chemin)
        assert [*end.punters, end.banker] == finals


@SPEAKERS
def test_every_chemin_coup_the_engine_plays_is_the_models(punter_speaks: bool) -> None:
    table, _ = play_chemin(seed=4, punter_speaks=punter_speaks)
    coups = records.chemin_coups(table.log)
    assert len(coups) > 20
    chemin = tableaux.chance_tableau()
    for coup in coups:
        punter = tuple(c.points for c in coup.punter_cards)
        banker = tuple(c.points for c in coup.banker_cards)
        state = DealState(player=punter[:2], banker=banker[:2])
        while not isinstance(now := step(state, chemin), Over):
            hand = punter if now.side is Side.PLAYER else banker
            if isinstance(now, Choose):
                state = state.chose(now.side, len(hand) == 3)
            else:
                assert len(hand) == 3, f"the model deals a card the engine did not: {coup}"
                state = state.given(now.side, hand[2])
        assert (state.player, state.banker) == (punter, banker)
