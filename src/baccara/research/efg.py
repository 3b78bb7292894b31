"""A Python OpenSpiel game as one of OpenSpiel's C++ games, for its C++ solvers at C++ speed.

OpenSpiel's C++ algorithms (``pyspiel.CFRPlusSolver``, ``pyspiel.nash_conv``, ...) run on a
Python game by calling back into Python at every state: on Baccarat Banque's 443,527
states one CFR+ iteration takes seconds. `compiled` walks the tree once, writes it in
Gambit's extensive form (`to_efg`: each player's information sets keyed by his
information state string, chance at full precision, each terminal's returns) and loads it
with ``pyspiel.load_efg_game``: the same game, its tree held in C++.

Each action is named by the Python game's action: OpenSpiel numbers the names itself, and
``action_to_string`` on the compiled game gives the Python game's action back
(`python_action`). Each information set is named by the Python game's information state
string: `python_information` reads it back from the compiled game's, to read a policy
trained there by the Python game's names.
OpenSpiel's own ``open_spiel.python.algorithms.gambit.export_gambit`` writes the same
format but builds one growing string, quadratic on a tree this size.

>>> import pyspiel
>>> kuhn = pyspiel.load_game("kuhn_poker")
>>> game = compiled(kuhn)
>>> game.num_players(), game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
(2, True)
>>> returns = pyspiel.expected_returns(game.new_initial_state(), pyspiel.UniformRandomPolicy(game), -1, True)
>>> [round(value, 12) for value in returns] == [
...     round(value, 12)
...     for value in pyspiel.expected_returns(
...         kuhn.new_initial_state(), pyspiel.UniformRandomPolicy(kuhn), -1, True
...     )
... ]
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyspiel

__all__ = ["compiled", "compiled_policy", "python_action", "python_information", "to_efg"]


def _name(text: str) -> str:
    """``text`` as an EFG name holds it: OpenSpiel's parser takes no escapes, so no quotes."""
    return text.replace('"', "")


def _quoted(text: str) -> str:
    return f'"{_name(text)}"'


def to_efg(game: Any) -> str:
    """The whole tree of ``game`` (sequential, finite) in Gambit's EFG text format.

    >>> text = to_efg(pyspiel.load_game("kuhn_poker"))
    >>> text.splitlines()[0]
    'EFG 2 R "kuhn_poker()" { "Player 0" "Player 1" }'
    >>> sum(line.startswith("t ") for line in text.splitlines())  # 6 deals x 5 endings
    30
    """
    players = " ".join(_quoted(f"Player {player}") for player in range(game.num_players()))
    lines = [f"EFG 2 R {_quoted(str(game))} {{ {players} }}"]
    infosets: list[dict[str, int]] = [{} for _ in range(game.num_players())]
    terminals = chances = 0
    stack = [game.new_initial_state()]
    while stack:  # depth first, children in order: the EFG's preorder
        state = stack.pop()
        if state.is_terminal():
            terminals += 1
            returns = " ".join(repr(float(value)) for value in state.returns())
            lines.append(f't "" {terminals} "" {{ {returns} }}')
            continue
        if state.is_chance_node():
            chances += 1
            outcomes = state.chance_outcomes()
            actions = [action for action, _ in outcomes]
            branches = " ".join(f'"{action}" {chance!r}' for action, chance in outcomes)
            lines.append(f'c "" {chances} "" {{ {branches} }} 0')
        else:
            player = state.current_player()
            known, information = infosets[player], state.information_state_string(player)
            infoset = known.setdefault(information, len(known) + 1)
            actions = state.legal_actions()
            names = " ".join(f'"{action}"' for action in actions)
            lines.append(f'p "" {player + 1} {infoset} {_quoted(information)} {{ {names} }} 0')
        stack.extend(state.child(action) for action in reversed(actions))
    return "\n".join(lines) + "\n"


def python_information(information_state: str) -> str:
    """The Python game's information state string in the compiled game's
    (``"player-player-number-name"``; without its quotes, if it had any).

    >>> python_information("2-2-10-banker 2 against 9 stood")
    'banker 2 against 9 stood'
    """
    return information_state.split("-", 3)[3]


def python_action(state: Any, action: int) -> int:
    """The Python game's action for ``action`` at ``state``, a state of a compiled game.

    >>> game = compiled(pyspiel.load_game("kuhn_poker"))
    >>> state = game.new_initial_state()
    >>> [python_action(state, action) for action in state.legal_actions()]
    [0, 1, 2]
    """
    return int(state.action_to_string(state.current_player(), action))


def compiled(game: Any) -> Any:
    """``game`` loaded as OpenSpiel's C++ EFG game (see the module's docstring)."""
    return pyspiel.load_efg_game(to_efg(game))


def _decisions(game: Any) -> Iterator[Any]:
    """Every decision node of ``game``'s tree, depth first."""
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [action for action, _ in state.chance_outcomes()]
        else:
            yield state
            actions = state.legal_actions()
        stack.extend(state.child(action) for action in actions)


def compiled_policy(game: Any, fast: Any, policy: Any) -> Any:
    """``policy`` (an ``open_spiel.python.policy.Policy`` of the Python ``game``) as a
    ``pyspiel.TabularPolicy`` of ``fast = compiled(game)``, for OpenSpiel's C++ tools
    (``pyspiel.nash_conv(fast, ...)``): read once at each information set, by name.

    >>> kuhn = pyspiel.load_game("kuhn_poker")
    >>> from open_spiel.python.policy import UniformRandomPolicy
    >>> fast = compiled(kuhn)
    >>> uniform = compiled_policy(kuhn, fast, UniformRandomPolicy(kuhn))
    >>> round(pyspiel.nash_conv(fast, uniform), 12)  # Kuhn poker's uniform policy
    0.916666666667
    """
    chances: dict[tuple[int, str], dict[int, float]] = {}
    for state in _decisions(game):
        player = state.current_player()
        key = (player, _name(state.information_state_string(player)))
        if key not in chances:
            chances[key] = dict(policy.action_probabilities(state, player))
    table: dict[str, list[tuple[int, float]]] = {}
    for state in _decisions(fast):
        player = state.current_player()
        information = state.information_state_string(player)
        if information not in table:
            read = chances[player, python_information(information)]
            table[information] = [
                (action, read.get(python_action(state, action), 0.0))
                for action in state.legal_actions()
            ]
    return pyspiel.TabularPolicy(table)
