"""A bot's time is a budget per turn shared among the turn's decisions by need: a search stops
once its choice cannot change, a wide decision gets a larger share than a narrow one, the host
keeps each seat's spending per turn, and a decision alone is searched on every free worker."""

from __future__ import annotations

import asyncio
import random

import pytest
from ai_positions import HiddenNim, positions

from bot.ai import LEVELS, TurnLedger, decide
from bot.ai.argo import ArgoPolicy
from bot.ai.budget import FLOOR_SHARE, allotment, need
from bot.ai.policy import policy_for
from bot.ai.search import ISMCTS, Node
from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame
from bot.thinking import Part, Thinker, merge_parts


def test_decided_means_the_runner_up_cannot_catch_up_in_the_iterations_left():
    game = HiddenNim.new(["a", "b"], 1, {"pile": 9})
    legal = game.legal_actions("a")
    search = ISMCTS(game, "a", policy_for(game), random.Random(0), legal)
    keys = search.root_key_list
    for key, visits in zip(keys, (30, 19, 2), strict=True):
        search.root.children[key] = Node(2)
        search.root.children[key].visits = visits
    assert search.decided(10.0)  # a lead of 11 over the runner-up
    assert not search.decided(11.0)  # 11 more visits could tie it


def hard_search(game, player: str, seed: int) -> ISMCTS:
    """A search of ``hard`` at this decision, set up as ``decide`` sets up its own."""
    policy = policy_for(game)
    rng = random.Random(f"{seed}:hard")
    world = game.determinize(player, random.Random(rng.getrandbits(64)))
    policy.begin(world, player, rng)
    options = policy.root_candidates(world, player, game.legal_actions(player), rng, short=False)
    return ISMCTS(game, player, policy, rng, options)


@pytest.mark.parametrize(("cls", "players", "seed"), [(ArgoGame, 3, 4), (ArgoatGame, 3, 8)])
def test_a_search_stopped_early_gives_the_answer_of_the_whole_search(cls, players, seed):
    games = positions(cls, players, seed, count=10, every=5 if cls is ArgoGame else 17)
    stopped = 0
    for n, game in enumerate(games):
        player = game.prompt().player
        if player is None or len(game.legal_actions(player)) < 2:
            continue
        early = hard_search(game, player, n).run(iterations=300)
        whole = hard_search(game, player, n).run(iterations=300, stop_when_decided=False)
        assert whole.iterations == 300
        assert early.action == whole.action, game.notation(early.action) if early.action else None
        if early.decided:
            stopped += 1
            assert early.iterations < 300
    assert stopped >= 2  # some roots were decided before their last iteration


def test_a_clear_choice_stops_well_before_its_time_is_up():
    game = HiddenNim.new(["a", "b"], 3, {"pile": 10})  # taking 2 leaves a multiple of four: it wins
    action, result = decide(game, "a", level="hard", seed=1, budget_s=1.0)
    assert action == {"type": "take", "n": 2}
    assert result is not None and result.decided


def test_a_wide_decision_gets_a_larger_share_of_what_is_left_than_a_narrow_one():
    left, turn = 2.0, LEVELS["hard"].turn_budget_s
    wide = allotment(left, need(45), need(17), turn)
    narrow = allotment(left, need(3), need(17), turn)
    assert narrow < wide < left
    assert allotment(left, need(17), 0.0, turn) == left  # the turn's last decision: all of it
    assert allotment(0.0, need(17), need(17), turn) == FLOOR_SHARE * turn  # spent: a quick look


def test_argo_expects_less_of_its_turn_as_the_turn_goes_on():
    policy = ArgoPolicy()
    game = ArgoGame.new(["a", "b"], 2, {})
    later: dict[str, float] = {}
    for _ in range(60):
        prompt = game.prompt()
        player = prompt.player
        st = game.st
        if player is not None and st.turn >= st.n and st.pending is None:  # one action in round 1
            key = st.phase if st.phase != "actions" else f"action {st.actions_used + 1}"
            later.setdefault(key, policy.need_after(game, player))
        legal = [a for a in game.legal_actions(player) if a["type"] not in ("undo", "cancel")]
        game.apply(player, legal[0])
    assert later["alien"] > later["build"] > later["action 1"] > later["action 2"] > 0


def test_the_ledger_counts_a_seats_spending_per_turn_and_table():
    ledger = TurnLedger()
    ledger.spend(1, "bot:1", 7, 0.5)
    ledger.spend(1, "bot:1", 7, 0.25)
    assert ledger.left(1, "bot:1", 7, 3.0) == pytest.approx(2.25)
    assert ledger.left(2, "bot:1", 7, 3.0) == 3.0  # another table
    assert ledger.left(1, "bot:2", 7, 3.0) == 3.0  # another seat
    assert ledger.left(1, "bot:1", 8, 3.0) == 3.0  # its next turn starts afresh
    ledger.spend(1, "bot:1", 8, 4.0)
    assert ledger.left(1, "bot:1", 8, 3.0) == 0.0
    ledger.forget(1)
    assert ledger.spent(1, "bot:1", 8) == 0.0


def test_searches_on_several_workers_add_up_their_root_statistics():
    a, b, c = {"type": "take", "n": 1}, {"type": "take", "n": 2}, {"type": "take", "n": 3}
    first = Part(a, {"take 1": (50, 0.6, a), "take 2": (40, 0.5, b), "take 3": (10, 0.1, c)})
    second = Part(b, {"take 1": (30, 0.5, a), "take 2": (60, 0.55, b), "take 3": (10, 0.1, c)})
    assert merge_parts([first, second]) == b  # 100 visits against 80
    tied = Part(a, {"take 1": (40, 0.5, a), "take 2": (50, 0.7, b)})
    assert merge_parts([Part(a, {"take 1": (50, 0.6, a), "take 2": (40, 0.5, b)}), tied]) == b  # the mean
    assert merge_parts([Part(c, None), second]) == c  # the first did not search: its answer stands
    assert merge_parts([first, Part(c, None)]) == a  # a part that did not search adds nothing


async def test_a_decision_alone_is_searched_on_both_workers_and_two_tables_take_one_each():
    thinker = Thinker(workers=2, budget_s=0.4)
    game = ArgoGame.new(("a", "b"), 1, {})
    for _ in range(8):  # past the first round: a decision with a real choice
        player = game.prompt().player
        game.apply(player, next(a for a in game.legal_actions(player) if a["type"] not in ("undo", "cancel")))
    seat = game.prompt().player
    try:
        await thinker.start()
        alone = asyncio.ensure_future(thinker.choose(game, seat, "hard", 1, table=1))
        await asyncio.sleep(0.05)
        assert thinker.workers_busy == 2
        assert await alone in game.legal_actions(seat)
        both = [asyncio.ensure_future(thinker.choose(game, seat, "hard", n, table=n)) for n in (1, 2)]
        await asyncio.sleep(0.05)
        assert thinker.workers_busy == 2  # one worker each, not both for the first
        assert all(a in game.legal_actions(seat) for a in await asyncio.gather(*both))
    finally:
        thinker.close()
