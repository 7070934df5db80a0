"""Clicks per turn and per trade (issue 13): the targets on fixed seeds, the bench counting what the
SimCord driver clicks, and single-choice decisions never waiting for a click."""

from __future__ import annotations

import random
import statistics

import pytest

from bench.clicks import OPTIONS, count
from bot.engine.core import CANCEL, UNDO, Event, Prompt
from bot.tables import only_choice
from cogs.picker import Step, choice_tree, clicks_to
from tests.argo.argo_board import setup as argo_setup
from tests.driver import Driver, open_table, random_policy

SEEDS = range(1, 9)
PLAYERS = ("1001", "1002", "1003")


def test_the_targets_hold_on_fixed_seeds():
    # (the old picker's side of bench/clicks.py needs the git history: not counted here)
    argo, finished = count("Argo", SEEDS, PLAYERS, OPTIONS["Argo"], baseline=None)
    assert finished == len(SEEDS) and len(argo.new.turns) > 100
    assert statistics.median(argo.new.turns) <= 6  # the target: a median Argo turn in 6 clicks
    argoat, _ = count("Argoat", SEEDS, PLAYERS, OPTIONS["Argoat"], baseline=None)
    two_parts = [clicks for parts, clicks in argoat.new.trades if parts == 2]
    assert len(two_parts) >= 20
    assert statistics.median(two_parts) <= 10 and max(two_parts) <= 10  # a trade of two parts


async def test_the_bench_counts_what_the_driver_clicks_in_an_argo_game(world, simcord_bot, seeds):
    w = world
    players = [w.alice, w.bob, w.carol]
    seeds.value = 3
    await open_table(w.channel, "Argo", players)
    actors = {str(p.id): p for p in players}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(3)))
    await driver.play_to_end()
    tally, finished = count("Argo", range(3, 4), tuple(actors), OPTIONS["Argo"], baseline=None)
    assert finished == 1 and driver.clicks == sum(tally.new.turns) > 100
    assert sorted(c for c in driver.counts.per_turn if c) == sorted(c for c in tally.new.turns if c)
    assert driver.single_waits == 0


async def test_the_bench_counts_what_the_driver_clicks_in_argoat_trades(world, simcord_bot, seeds):
    w = world
    players = [w.alice, w.bob, w.carol]
    seeds.value = 2
    await open_table(w.channel, "Argoat", players, options="difficulty=journeyman")
    actors = {str(p.id): p for p in players}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(2)))
    steps = 150
    for _ in range(steps):
        assert await driver.step() is not None
    tally, _ = count(
        "Argoat", range(2, 3), tuple(actors), OPTIONS["Argoat"], baseline=None, max_decisions=steps
    )
    assert driver.clicks == sum(tally.new.turns)
    assert driver.counts.per_trade == tally.new.trades and len(tally.new.trades) >= 3
    assert driver.single_waits == 0


@pytest.mark.parametrize("seed", [5, 7])
async def test_single_choice_decisions_never_wait_for_a_click_and_are_said(world, simcord_bot, seeds, seed):
    w = world
    players = [w.alice, w.bob, w.carol]
    seeds.value = seed
    await open_table(w.channel, "Argo", players)
    actors = {str(p.id): p for p in players}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(seed)))
    said = 0
    seen: set[int] = set()
    while await driver.step() is not None:
        table = await simcord_bot.host.current(w.channel.id)
        if table is None:
            break
        played = [
            e for e in await simcord_bot.host.store.log(table.record.id) if e.action.get("by") == "auto"
        ]
        fresh = [e for e in played if e.seq not in seen]
        seen.update(e.seq for e in played)
        text = driver.message(table.record.message_id).content
        if fresh and table.record.meta.only_choice:
            lines = [line for line in text.splitlines() if line.startswith("⏩ Only one choice: ")]
            assert lines and all("(played for <@" in line for line in lines), text
            assert not any("`" in line for line in lines), lines  # in words, not notation
            said += 1
    assert driver.single_waits == 0  # the driver never met a decision with one choice
    assert said >= 1 and said == len(seen)  # single choices did come up, and each was said


class OneWay:
    """Just enough of a game for only_choice: a prompt, legal actions, what applying gives."""

    def __init__(self, prompt: Prompt, actions: list[dict], events: list[Event] | None = None) -> None:
        self._prompt, self._actions, self._events = prompt, actions, events or []

    def prompt(self) -> Prompt:
        return self._prompt

    def legal_actions(self, player: str) -> list[dict]:
        return self._actions if player == self._prompt.player else []

    def clone(self) -> OneWay:
        return self

    def apply(self, player: str, action: dict) -> list[Event]:
        return self._events

    def harms_actor(self, player: str, events: list[Event]) -> bool:
        return False


def test_only_choice_takes_one_action_and_nothing_else():
    move = {"type": "move"}
    assert only_choice(OneWay(Prompt("a", "go"), [move]), "a") == move  # type: ignore[arg-type]
    assert only_choice(OneWay(Prompt("a", "go"), [move]), "b") is None  # type: ignore[arg-type]
    # undo and cancel are choices: the player may want to take something back
    assert only_choice(OneWay(Prompt("a", "go"), [move, dict(UNDO)]), "a") is None  # type: ignore[arg-type]
    assert only_choice(OneWay(Prompt("a", "go"), [move, dict(CANCEL)]), "a") is None  # type: ignore[arg-type]
    # never a private prompt, nor while others may act out of turn, nor one giving secret news
    assert only_choice(OneWay(Prompt("a", "go", private=True), [move]), "a") is None  # type: ignore[arg-type]
    assert only_choice(OneWay(Prompt("a", "go", others=("b",)), [move]), "a") is None  # type: ignore[arg-type]
    secret = [Event("You drew the Staff.", to="a")]
    assert only_choice(OneWay(Prompt("a", "go"), [move], secret), "a") is None  # type: ignore[arg-type]
    public = [Event("a moved.")]
    assert only_choice(OneWay(Prompt("a", "go"), [move], public), "a") == move  # type: ignore[arg-type]


def test_an_only_choice_that_kills_the_players_own_astronaut_is_left_to_them():
    # Blue's last Astronaut can only walk into the Alien on N1: the host asks instead of playing it.
    gone = {"Blue-Grunt": "dead", "Blue-Robot": "escaped", "Blue-Explorer": "dead", "Blue-Chief": "dead"}
    game = argo_setup({"N1": "Corridor-I NS"}, astronauts=gone, aliens=["N1"], actions_used=1)
    assert [game.notation(a) for a in game.legal_actions("p0")] == ["move Pilot N1"]
    assert only_choice(game, "p0") is None
    safe = argo_setup({"N1": "Corridor-I NS"}, astronauts=gone, actions_used=1)
    assert only_choice(safe, "p0") == safe.legal_actions("p0")[0]


async def test_the_driver_follows_pages_and_counts_them_as_the_picker_does(world, simcord_bot):
    w = world
    lobby = (
        await w.alice.slash(w.channel, "game new", game="Pebbles", options="pile=60 maxtake=40")
    ).response
    await w.bob.click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")
    actors = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(1)))
    table = await simcord_bot.host.current(w.channel.id)
    action = table.game.parse(str(w.alice.id), "take 30")
    expected = clicks_to(choice_tree(table.game, str(w.alice.id), private=False), action)
    await driver.choose("take 30")
    assert expected == driver.clicks == 3  # "take", "Next ▶", then 30 on the second page
    assert (await simcord_bot.host.current(w.channel.id)).game.to_json()["pile"] == 30


def every_step(tree, path=()):
    """Every step of a choice tree, depth first."""
    step = tree.walk(path)
    if isinstance(step, Step):
        yield step
        for index in range(len(step.options)):
            yield from every_step(tree, (*step.path, index))


@pytest.mark.parametrize("name", ["Argo", "Argoat"])
def test_no_step_of_a_played_game_offers_a_single_option_that_needs_another_click(name):
    from bot.engine.argo import ArgoGame
    from bot.engine.argoat import ArgoatGame

    game = (ArgoGame if name == "Argo" else ArgoatGame).new(list(PLAYERS), 4, OPTIONS[name])
    rng = random.Random(4)
    steps = merged = 0
    for _ in range(400):
        prompt = game.prompt()
        if prompt is None:
            break
        player = prompt.player
        if player is None:
            game.apply("system", {"type": "timeout"})
            continue
        for private in (False, True):
            tree = choice_tree(game, player, private=private)
            if not tree:
                continue
            for step in every_step(tree):
                steps += 1
                merged += any(" " in option for option in step.options)
                assert len(step.options) >= 2 or (step.path == () and len(tree) == 1), step
                assert len(step.options) <= 25 or " " not in "".join(step.options), step  # paged: one token
        game.apply(player, rng.choice(game.legal_actions(player)))
    assert steps > 150 and merged > steps // 2, (steps, merged)
