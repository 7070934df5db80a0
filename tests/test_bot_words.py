"""Choices in plain words on the turn message and in private pickers, and the **?** button
(SimCord, the real bot)."""

from __future__ import annotations

import random

import tests.argoat.argoat_helpers as helpers
from bot.engine.argoat.data import ITEMS
from cogs.picker import DONE
from tests.driver import Driver, offered, open_table, option_steps, press, random_policy, widgets
from tests.test_bot_argoat_kit import build, inject, live, open_argoat, public_messages

ITEM_NAMES = [item.name for item in ITEMS]


def help_text(result) -> str:
    """Everything a press of **?** answered (the reply and its followups)."""
    return "\n".join([result.response.content, *(f.content for f in result.followups)])


async def help_button(message):
    return next(w for w in widgets(message) if w.custom_id.startswith("hp:"))


async def check_words(bot, w, message, actor=None) -> list[tuple[str, str, str]]:
    """Every picker option of ``message`` is labelled in words, not by its notation; returns
    (label, description, notation) of each."""
    found = []
    for widget, step, option in await option_steps(bot, w.channel.id, actor, message):
        notation = " ".join((*step.tokens, option)) if option != DONE else " ".join(step.tokens)
        assert widget.label != option and widget.label not in notation.split(), (widget.label, notation)
        assert len(widget.label) <= (100 if widget.value is not None else 80)
        assert len(widget.description) <= 100
        found.append((widget.label, widget.description, notation))
    assert found
    return found


async def argo_table(w, bot, seeds):
    seeds.value = 3
    await open_table(w.channel, "Argo", [w.alice, w.bob])
    table = await bot.host.current(w.channel.id)
    actors = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    driver = Driver(w.env, bot, w.channel, actors, random_policy(random.Random(3)))
    return driver, table, actors


async def test_argo_buttons_and_select_options_are_in_words(world, simcord_bot, seeds):
    """Random clicks through many Argo decisions: every step's buttons (and select options, if
    a step is that large) are in words."""
    w = world
    driver, table, actors = await argo_table(w, simcord_bot, seeds)
    turn = driver.message(table.record.message_id)
    assert all(label.startswith("🧱 Build ") for label, _, _ in await check_words(simcord_bot, w, turn))
    rng = random.Random(5)
    steps = 0
    for _ in range(150):
        table = await simcord_bot.host.current(w.channel.id)
        prompt = table.game.prompt() if table is not None else None
        if prompt is None or prompt.player is None:
            break
        steps += 1
        message = driver.message(table.record.message_id)
        await check_words(simcord_bot, w, message)
        choices = await option_steps(simcord_bot, w.channel.id, None, message)
        forward = [c for c in choices if c[2] not in ("cancel", "undo")] or choices
        widget, _, _ = rng.choice(forward)
        if widget.value is not None:
            options = [x for x in widgets(message) if x.custom_id == widget.custom_id]
            assert all(x.description for x in options), [x.label for x in options]
            await actors[prompt.player].select(message, [widget.value], custom_id=widget.custom_id)
        else:
            await actors[prompt.player].click(message, custom_id=widget.custom_id)
    assert steps >= 30


CONTROL_STATION = {
    "N1": "Control-Room NS",
    "N2": "Corridor-X NESW",
    "N3": "Core-Room NESW",
    "S1": "Corridor-X NESW",
    "S2": "Corridor-I NS",
    "E1": "Corridor-T NEW",
    "W1": "Corridor-T NEW",
    "N2E1": "Corridor-T ESW",
    "N2W1": "Corridor-T ESW",
    "S1E1": "Corridor-T NEW",
}
"""A station where the Control Room can move a tile to twelve places: a select."""


async def test_select_options_carry_words_and_descriptions(world, simcord_bot, monkeypatch):
    from tests.test_bot_argo_focus import position

    w = world
    _driver, turn = await position(
        w, simcord_bot, monkeypatch, CONTROL_STATION, turn=4, astronauts={"Blue-Grunt": "N1"}
    )
    await press(simcord_bot, w.channel, w.alice, turn, "activate Control-Room")
    await press(simcord_bot, w.channel, w.alice, turn, "E1")
    shown = await check_words(simcord_bot, w, turn)
    options = [x for x in widgets(turn) if x.value is not None]
    assert len(options) == len(shown) > 10, "places and turns of the tile: a select"
    for label, description, notation in shown:
        cell = notation.split()[3]
        assert label.startswith(f"⚙ Control Room: E1 Corridor → {cell}"), (label, notation)
        assert description, label
    r = await w.alice.click(turn, label="?")
    assert all(f"**{label}** — {description}" in help_text(r) for label, description, _ in shown)


async def test_the_help_button_lists_every_offered_option_privately(world, simcord_bot, seeds, make_bot):
    w = world
    driver, table, actors = await argo_table(w, simcord_bot, seeds)
    decider = actors[table.game.prompt().player]
    other = next(a for a in actors.values() if a is not decider)
    turn = driver.message(table.record.message_id)
    await press(simcord_bot, w.channel, decider, turn, (await offered(simcord_bot, w.channel, turn))[0])
    shown = await check_words(simcord_bot, w, turn)
    before = len(w.channel.history())
    r = await other.click(turn, custom_id=(await help_button(turn)).custom_id)
    assert r.response.ephemeral and len(w.channel.history()) == before
    assert r.response.id not in [m.id for m in w.channel.history(viewer=decider)]
    text = help_text(r)
    assert "What is being decided" in text and "Building phase" in text
    assert "Chosen so far: **🧱 Build " in text
    for label, description, notation in shown:
        assert f"**{label}**" in text and f"`{notation}`" in text and description in text
    assert (await simcord_bot.host.current(w.channel.id)).record.version == table.record.version

    new_bot = make_bot()  # the ? survives a restart (a dynamic item)
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()
    driver.bot = new_bot
    r = await decider.click(turn, custom_id=(await help_button(turn)).custom_id)
    assert r.response.ephemeral and all(f"`{n}`" in help_text(r) for _, _, n in shown)


async def test_private_choices_and_their_help_name_items_to_their_holder_only(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players, {**helpers.BASE, "0,2": "lake"}, forests=[("0,3", "S", "Eden")])
    helpers.setup(game, str(w.alice.id), emeralds=2, items=["water", "wings"])
    helpers.setup(game, str(w.bob.id), emeralds=1)
    turn = await inject(bot, w, game, w.alice)
    public = [wd.label for wd in widgets(turn)]
    assert "Use an Item" in public and public[-1] == "?"  # she moves in public; Items privately
    assert not any(name in label for label in public for name in ITEM_NAMES)

    r = await w.bob.click(turn, label="?")  # someone else: the public choices, not Alice's Items
    assert r.response.ephemeral and "Use an Item" in help_text(r)
    assert not any(name in help_text(r) for name in ITEM_NAMES)

    r = await w.alice.click(turn, label="?")  # Alice herself, on the public message: the same
    assert r.response.ephemeral and not any(name in help_text(r) for name in ITEM_NAMES)

    picker = (await w.alice.click(turn, label="Use an Item")).response
    shown = await check_words(bot, w, picker, w.alice)
    assert {label for label, _, _ in shown} == {
        "✨ Use the Water of Life",
        "✨ Use the Wings of the Holy Dragon",
    }
    r = await w.alice.click(picker, label="?")  # in her private picker: her Items, explained
    text = help_text(r)
    assert r.response.ephemeral and r.response.id not in [m.id for m in w.channel.history(viewer=w.bob)]
    for label, description, notation in shown:
        assert f"**{label}**" in text and description in text and f"`{notation}`" in text

    second = (await w.alice.click(turn, label="Use an Item")).response
    await press(bot, w.channel, w.alice, second, "use Water")
    assert (await live(bot, w)).game.state.extra_turns == 1
    r = await w.alice.click(picker, label="?")  # the first picker is out of date now
    assert r.response.ephemeral and r.response.content.startswith("That board is out of date.")
    assert r.response.attachments  # with the board as it is now, like every stale component
    for msg in public_messages(w):  # the words never showed Alice's Items in public
        seen = msg.content + "".join(wd.label + wd.description for wd in widgets(msg))
        assert not any(name in seen for name in ITEM_NAMES if name != "Water of Life"), seen


def test_turn_views_keep_discords_row_budget() -> None:
    """Every combination of step size and row-4 buttons fits 5 rows of at most 5 buttons (or
    one select), and every turn message and picker carries exactly one **?**."""
    from datetime import UTC, datetime

    import discord

    from bot.engine.core import Prompt
    from bot.store.records import TableRecord
    from cogs.components import HelpButton, private_view, turn_view
    from cogs.picker import Step

    now = datetime.now(UTC)
    record = TableRecord(1, 1, 1, "Argo", "playing", "a", ("a", "b"), {}, 1, {}, 7, None, None, now, now)
    prompts = [
        Prompt("a", "x"),
        Prompt("a", "x", others=("b",), others_label="Time Machine"),
        Prompt("a", "x", private=True, others=("b",)),
        Prompt(None, "x", others=("a", "b"), others_label="Time Machine", timeout=60),
    ]
    for size in (1, 5, 6, 10, 11, 25, 60):
        step = Step((0, 1), ("move",), tuple(f"o{i}" for i in range(size)))
        for page in (0, 1, 2):
            views = [turn_view(record, prompt, step, page) for prompt in prompts]
            views.append(private_view(record, step, page))
            for view in views:
                rows: dict[int, list] = {}
                for item in view.children:
                    rows.setdefault(getattr(item, "item", item).row, []).append(item)
                assert set(rows) <= set(range(5))
                for items in rows.values():
                    selects = [i for i in items if isinstance(getattr(i, "item", i), discord.ui.Select)]
                    assert len(items) <= 5 and (not selects or len(items) == 1)
                helps = [c for c in view.children if c.custom_id.startswith("hp:")]
                assert len(helps) == 1 and helps[0].item.label == "?"
                assert len(view.to_components()) <= 5
    assert HelpButton.__discord_ui_compiled_template__.match("hp:p:1:7:0.1")
