"""The turn: free actions, the mandatory move, Bleina rides, ending the turn, undo, refusals."""

from __future__ import annotations

from argoat_helpers import BASE, act, bleinas, notations, refuses, scenario, setup, xy

from bot.engine.core import CANCEL, UNDO

# Town with the Adventurer frontiers, plus Lake Heol north of the Temple.
LONG = {**BASE, "0,2": "lake"}


def test_move_one_space_along_a_road() -> None:
    game = scenario(LONG)
    moves = [n for n in notations(game, "ann") if n.startswith("move ") and "bleina" not in n]
    assert moves == ["move N", "move E", "move S", "move W"]
    act(game, "ann", "move N")
    assert game.state.seat("ann").pos == (0, 1)
    assert not [n for n in notations(game, "ann") if n.startswith("move")]
    assert "end" in notations(game, "ann")


def test_no_move_where_no_road_leads() -> None:
    game = scenario(LONG)
    setup(game, "ann", at="0,1")  # Forgotten Temple: roads N, S, W only
    assert "move E" not in notations(game, "ann")
    assert "move W" not in notations(game, "ann")  # a road, but no card beyond it
    message = refuses(game, "ann", {"type": "move", "dir": "E"})
    assert "road" in message


def test_free_actions_before_and_after_moving() -> None:
    game = scenario(LONG)
    setup(game, "bob", at="0,1")
    setup(game, "ann", emeralds=3)
    assert "trade Blue" not in notations(game, "ann")  # Bob is not on the Town (Q3)
    act(game, "ann", "move N")
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    act(game, "bob", "accept")
    act(game, "ann", "trade Blue")  # any number of trades in a turn
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    act(game, "bob", "accept")
    assert game.state.seat("bob").emeralds == 3
    assert "end" in notations(game, "ann")


def test_trade_before_moving_is_allowed() -> None:
    game = scenario(LONG)
    assert "trade Blue" in notations(game, "ann")
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    act(game, "bob", "accept")
    assert game.state.seat("ann").emeralds == 0
    assert game.state.move.moved is False
    assert "end" not in notations(game, "ann")


def test_the_frontier_action_ends_the_turn() -> None:
    game = scenario(LONG)
    act(game, "ann", "move S")  # Glittering Cave
    events = act(game, "ann", "end")
    assert game.state.seat("ann").emeralds == 2
    assert game.state.current.id == "bob"
    assert game.legal_actions("ann") == []
    assert "turn" in [e.kind for e in events]
    assert game.prompt() is not None and game.prompt().player == "bob"


def test_play_passes_to_the_left_in_seat_order() -> None:
    game = scenario(LONG, active="cid")
    act(game, "cid", "move S")
    act(game, "cid", "end")
    assert game.state.current.id == "ann"


def test_bleina_before_moving_carries_you_two_spaces_for_an_emerald() -> None:
    game = scenario(LONG)
    bank = game.state.bank
    assert "move bleina N N" in notations(game, "ann")
    act(game, "ann", "move bleina N N")
    s = game.state
    assert s.seat("ann").pos == (0, 2)
    assert s.bleinas == [(0, 2)]
    assert s.seat("ann").emeralds == 0 and s.bank == bank + 1
    assert not [n for n in notations(game, "ann") if n.startswith("move")]


def test_bleina_after_moving_gives_one_extra_space() -> None:
    game = scenario(LONG)
    bleinas(game, "0,1")
    act(game, "ann", "move N")
    # (not "move bleina S": back on the Town where the turn began, Ann would be stuck there, Q4)
    assert [n for n in notations(game, "ann") if "bleina" in n] == ["move bleina N"]
    act(game, "ann", "move bleina N")
    assert game.state.seat("ann").pos == (0, 2)
    assert game.state.bleinas == [(0, 2)]
    assert game.state.seat("ann").emeralds == 0


def test_bleina_only_once_per_turn() -> None:
    game = scenario(LONG, n=4)
    bleinas(game, "0,0", "0,2")
    setup(game, "ann", emeralds=5)
    act(game, "ann", "move bleina N N")  # onto Lake Heol, where the other Bleina waits
    assert game.state.seat("ann").pos == (0, 2)
    assert not [n for n in notations(game, "ann") if "bleina" in n]


def test_bleina_needs_an_emerald_and_a_bleina_here() -> None:
    game = scenario(LONG)
    setup(game, "ann", emeralds=0)
    assert not [n for n in notations(game, "ann") if "bleina" in n]
    setup(game, "ann", emeralds=1)
    bleinas(game, "1,0")
    assert not [n for n in notations(game, "ann") if "bleina" in n]
    message = refuses(game, "ann", {"type": "bleina", "path": ["N", "N"]})
    assert "Bleina" in message


def test_undo_takes_back_a_move_and_a_bleina_ride() -> None:
    game = scenario(LONG)
    assert "undo" not in notations(game, "ann")
    bank = game.state.bank
    act(game, "ann", "move bleina N N")
    events = act(game, "ann", "undo")
    assert [e.kind for e in events] == ["undo"]
    s = game.state
    assert s.seat("ann").pos == (0, 0) and s.bleinas == [(0, 0)]
    assert s.seat("ann").emeralds == 1 and s.bank == bank
    act(game, "ann", "move N")
    act(game, "ann", "undo")
    assert game.state.seat("ann").pos == (0, 0)
    assert game.state.move.moved is False
    assert "undo" not in notations(game, "ann")


def test_using_an_item_is_an_undo_barrier() -> None:
    game = scenario(LONG)
    setup(game, "ann", items=["water"])
    act(game, "ann", "move N")
    assert "undo" in notations(game, "ann")
    act(game, "ann", "use Water")
    assert "undo" not in notations(game, "ann")


def test_illegal_actions_change_nothing() -> None:
    game = scenario(LONG)
    assert "turn" in refuses(game, "bob", {"type": "move", "dir": "N"})
    assert "not playing" in refuses(game, "zed", {"type": "move", "dir": "N"})
    assert "Q4" in refuses(game, "ann", {"type": "end"})
    refuses(game, "ann", UNDO)
    refuses(game, "ann", CANCEL)
    refuses(game, "ann", {"type": "nonsense"})
    refuses(game, "ann", {"type": "use", "item": "staff", "target": "0,1"})
    refuses(game, "ann", {"type": "place", "at": "5,5"})


def test_parse_matches_typed_text() -> None:
    game = scenario(LONG)
    assert game.parse("ann", "  MOVE   n ") == {"type": "move", "dir": "N"}
    assert game.parse("ann", "move bleina n n") == {"type": "bleina", "path": ["N", "N"]}
    assert xy("-2,3") == (-2, 3)
