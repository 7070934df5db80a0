"""Bots finish whole games of both games at every player count (few iterations: fast), and the
arena command prints its table."""

from __future__ import annotations

import pytest

from bot.arena import Repetitions, SeatRecord, iter_games, labels, main, play_game, wilson

LEVEL_CYCLE = ("hard", "easy", "normal", "random", "hard")
DECISIONS_PER_SEAT = {"Argo": 100, "Argoat": 160}
"""The turn limit of these games: decisions per seat, far below the arena's cap of 4000 in all
(bots that stall, e.g. short of a Fragment they will not take, run into it)."""


@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [("Argo", 2, 1), ("Argo", 3, 2), ("Argo", 4, 3)] + [("Argoat", n, 10 + n) for n in range(2, 6)],
)
def test_bots_finish_a_whole_game(game, players, seed):
    levels = list(LEVEL_CYCLE[:players])
    limit = DECISIONS_PER_SEAT[game] * players
    record = play_game(game, levels, seed, iterations=3, max_decisions=limit)
    assert record.finished, f"{game} with {players} bots did not finish in {limit} decisions"
    assert [s.level for s in record.seats] == levels
    assert sum(s.won for s in record.seats) >= (0 if game == "Argo" else 1)
    if game == "Argoat":
        winner = next(s for s in record.seats if s.won)
        assert winner.score == 8  # the winner holds all eight Fragments
    searched = sum(len(s.searched_ms) for s in record.seats if s.level != "random")
    assert searched > 0
    assert all(not s.searched_ms for s in record.seats if s.level == "random")


@pytest.mark.parametrize(("game", "seed"), [("Argoat", 21), ("Argoat", 22), ("Argo", 23)])
def test_searching_bots_finish_two_player_games_within_the_turn_limit(game, seed):
    limit = DECISIONS_PER_SEAT[game] * 2
    record = play_game(game, ["normal", "hard"], seed, iterations=25, max_decisions=limit)
    assert record.finished, f"{game} did not finish in {limit} decisions ({record.turns} turns)"


def test_seats_rotate_between_games():
    runs = list(iter_games("Argoat", ["easy", "random", "random"], 3, seed=4, iterations=2))
    first_seats = [order[0] for order, _ in runs]
    assert sorted(first_seats) == [0, 1, 2]
    for order, record in runs:
        assert record.seats[order.index(0)].level == "easy"


def test_arena_command_prints_a_table(capsys):
    main(["argo", "--bots", "random,random", "--games", "3", "--seed", "7"])
    out = capsys.readouterr().out
    assert "Argo, 2 players, 3 games: 3 finished" in out
    assert "Aliens won" in out
    assert "random-1" in out and "random-2" in out


def test_wilson_interval_and_labels():
    lo, hi = wilson(19, 20)
    assert 0.76 < lo < 0.77 and 0.99 < hi < 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    assert labels(["hard", "easy", "hard"]) == ["hard-1", "easy", "hard-2"]


def test_the_greedy_player_beats_random_play_and_finishes():
    for game in ("Argoat", "Argo"):
        runs = list(iter_games(game, ["greedy", "random"], 4, seed=100, max_decisions=600))
        assert all(record.finished for _, record in runs)
        greedy = sum(record.seats[order.index(0)].won for order, record in runs)
        rand = sum(record.seats[order.index(1)].won for order, record in runs)
        assert greedy >= 3 and rand == 0, (game, greedy, rand)


def test_repetitions_count_turns_that_end_where_the_seat_had_already_been():
    record = SeatRecord("hard", False, 0)
    repetitions = Repetitions()
    shuttle = [{"at": "temple"}, {"at": "tower"}, {"at": "temple"}, {"at": "tower"}, {"at": "temple"}]
    for turn, where in enumerate(shuttle):
        repetitions.turn_ended(record, "a", {**where, "turn": turn, "prompt": {"text": f"turn {turn}"}})
    assert (record.turn_ends, record.repeats, record.longest_repeat_run) == (5, 3, 3)
    repetitions.turn_ended(record, "a", {"at": "temple", "emeralds": 4, "turn": 9})  # something gained
    repetitions.turn_ended(record, "a", {"at": "tower", "turn": 10})
    assert (record.turn_ends, record.repeats, record.longest_repeat_run) == (7, 4, 3)
    other = SeatRecord("greedy", False, 0)
    repetitions.turn_ended(other, "b", {"at": "temple", "turn": 11})  # another seat's first time
    assert other.repeats == 0


def test_a_game_records_each_seats_turn_ends():
    record = play_game("Argoat", ["normal", "greedy"], 21, iterations=25, max_decisions=320)
    assert record.finished
    ends = [s.turn_ends for s in record.seats]
    assert sum(ends) in (record.turns - 1, record.turns) and min(ends) > 0  # the Temple gives extra turns
    assert all(s.repeats <= s.turn_ends for s in record.seats)
