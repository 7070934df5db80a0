"""Discord's contract (tests/discord_api): bodies Discord would reject are named with their route,
field and limit; a SimCord test whose bot sends one fails; a whole game sends only accepted bodies,
and they are checked on every kind of route the game uses."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.discord_api.contract import SPEC_COMMIT, SPEC_PATH, SPEC_URI, contract
from tests.driver import Driver, open_table, random_policy

CHANNEL_MESSAGES = "/channels/111/messages"
CALLBACK = "/interactions/222/a-token/callback"


def select(options: int) -> dict:
    return {
        "type": 3,
        "custom_id": "argo:pick:1",
        "options": [{"label": f"move {i}", "value": str(i)} for i in range(options)],
    }


def button(label: str = "Join", custom_id: str = "argo:join:1") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def only(violations):
    assert len(violations) == 1, [str(v) for v in violations]
    return violations[0]


def test_the_spec_is_the_noted_commit():
    assert len(SPEC_COMMIT) == 40
    assert SPEC_PATH.stat().st_size > 1_000_000  # the whole description, not a pointer
    assert contract().spec["openapi"].startswith("3.1")


def test_routes_map_to_the_spec_operations():
    c = contract()
    assert c.operation("POST", "/channels/1/messages").template == "/channels/{channel_id}/messages"
    assert c.operation("POST", "/api/v10/channels/1/messages").template == "/channels/{channel_id}/messages"
    assert (
        c.operation("PATCH", "/webhooks/1/tok/messages/@original").template
        == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert (
        c.operation("PATCH", "/webhooks/1/tok/messages/55").template
        == "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    )
    assert c.operation("POST", "/users/@me/channels").template == "/users/@me/channels"
    assert c.operation("POST", "/no/such/route") is None


def test_a_body_discord_accepts_passes():
    body = {
        "content": "x" * 2000,
        "components": [row(select(25)), row(button("l" * 80, "c" * 100))] + [row(button())] * 3,
        "allowed_mentions": {"parse": [], "users": [123456789012345678]},  # ints, as discord.py sends
        "embeds": [{"title": "t" * 256, "description": "d" * 4096}],
    }
    assert contract().check("POST", CHANNEL_MESSAGES, body) == []
    assert contract().check("GET", CHANNEL_MESSAGES, None) == []  # no body, nothing to check


def test_content_over_2000_characters_names_the_field_and_the_limit():
    v = only(contract().check("POST", CHANNEL_MESSAGES, {"content": "x" * 2001}))
    assert v.route == "/channels/{channel_id}/messages"
    assert (v.field, v.rule, v.limit) == ("$.content", "maxLength", 2000)
    assert "2001 characters" in str(v) and "POST /channels/{channel_id}/messages: $.content" in str(v)
    # the interaction reply's schema has the limit itself: reported once
    v = only(contract().check("POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}))
    assert (v.field, v.rule, v.limit) == ("$.data.content", "maxLength", 2000)


def test_26_select_options_names_the_select_and_the_limit():
    body = {"type": 7, "data": {"content": "Pick", "components": [row(button()), row(select(26))]}}
    v = only(contract().check("POST", CALLBACK, body))
    assert v.route == "/interactions/{interaction_id}/{interaction_token}/callback"
    assert (v.field, v.rule, v.limit) == ("$.data.components[1].components[0].options", "maxItems", 25)
    assert "26 items, the limit is 25" in str(v)


@pytest.mark.parametrize(
    ("component", "field", "rule", "limit"),
    [
        (button(custom_id="c" * 101), "custom_id", "maxLength", 100),
        (button(label="l" * 81), "label", "maxLength", 80),
        ({**select(3), "placeholder": "p" * 151}, "placeholder", "maxLength", 150),
        ({**select(1), "options": [{"label": "o" * 101, "value": "1"}]}, "options[0].label", "maxLength",
         100),
        ({**select(3), "max_values": 26}, "max_values", "maximum", 25),
    ],
)
def test_component_limits_name_the_field(component, field, rule, limit):
    body = {"content": "hi", "components": [row(component)]}
    v = only(contract().check("PATCH", "/webhooks/1/tok/messages/@original", body))
    assert (v.field, v.rule, v.limit) == (f"$.components[0].components[0].{field}", rule, limit)


def test_message_and_embed_limits():
    c = contract()
    v = only(c.check("POST", CHANNEL_MESSAGES, {"components": [row(button())] * 6}))
    assert (v.field, v.rule, v.limit) == ("$.components", "maxItems", 5)
    six_buttons = row(*[button(custom_id=str(i)) for i in range(6)])
    v = only(c.check("POST", CHANNEL_MESSAGES, {"components": [six_buttons]}))
    assert (v.field, v.rule, v.limit) == ("$.components[0].components", "maxItems", 5)
    v = only(c.check("PATCH", "/channels/1/messages/2", {"embeds": [{"title": "t" * 257}]}))
    assert (v.field, v.rule, v.limit) == ("$.embeds[0].title", "maxLength", 256)
    v = only(c.check("POST", CHANNEL_MESSAGES, {"embeds": [{"description": "d" * 4000}] * 2}))
    assert (v.field, v.rule, v.limit) == ("$.embeds", "maxCharacters", 6000)


@pytest.mark.parametrize(
    "body",
    [
        {"type": 6},
        {"type": 5, "data": {"flags": 64}},
        {"type": 4, "data": {"content": "hi", "components": [row(button(), button(custom_id="b"))]}},
        {"type": 7, "data": {"content": None, "embeds": None, "components": [row(select(25))]}},
        {"type": 7, "data": {"components": [row(select(26))]}},
        {"type": 4, "data": {"components": [row(button(label="l" * 81))]}},
        {"type": 4, "data": {"components": [{"type": 1, "components": []}]}},
        {"type": 4, "data": {"components": [row({"type": 2, "style": 9, "custom_id": "x"})]}},
        {"type": 4, "data": {"components": [row({**button(), "type": True})]}},
        {"type": 4, "data": {"allowed_mentions": None, "components": [row(button())], "tts": "no"}},
        {"type": 99},
        {"data": {}},
    ],
)
def test_the_fast_unions_accept_and_reject_what_jsonschema_does(body):
    """contract.Unions checks a union's one branch of the body's kind; plain jsonschema tries them
    all. Both must agree (these bodies stay under the limits that the spec does not encode)."""
    c = contract()
    pointer = c.operation("POST", CALLBACK).schema_pointer
    plain = Draft202012Validator({"$ref": SPEC_URI + pointer}, registry=c.registry)
    assert (c.check("POST", CALLBACK, body) == []) == plain.is_valid(body)


def test_a_body_of_no_kind_and_an_unknown_route_are_reported():
    c = contract()
    v = only(c.check("POST", CALLBACK, {"type": 99}))
    assert v.field == "$" and v.rule == "anyOf"  # the callback type matches no kind of answer
    v = only(c.check("POST", "/no/such/route", {"content": "hi"}))
    assert v.rule == "operation" and v.route == "/no/such/route"


# A SimCord test whose bot sends a body Discord rejects fails, through the hook in tests/conftest.py.
INNER_CONFTEST = """
import discord
import pytest
from discord.ext import commands

from tests.conftest import pytest_configure, pytest_runtest_call  # the contract's hook


@pytest.fixture
def simcord_bot():
    return commands.Bot(command_prefix="!", intents=discord.Intents.default())
"""

INNER_TEST = """
import discord
import pytest


async def send_too_long(env, bot):
    channel = env.create_guild("Lab").create_text_channel("games")
    with pytest.raises(discord.HTTPException):  # SimCord refuses it too, but the bot may catch that
        await bot.get_channel(channel.id).send("x" * 2001)


async def test_too_long(simcord_env, simcord_bot):
    await send_too_long(simcord_env, simcord_bot)


@pytest.mark.discord_contract(False)
async def test_too_long_on_purpose(simcord_env, simcord_bot):
    await send_too_long(simcord_env, simcord_bot)
"""


def test_a_simcord_test_that_sends_a_rejected_body_fails(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent(INNER_CONFTEST))
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(INNER_TEST))
    (tmp_path / "pytest.ini").write_text("[pytest]\nasyncio_mode = auto\n")
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", "-rf"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    out = run.stdout + run.stderr
    assert "1 failed, 1 passed" in out, out
    assert "1 request body Discord would reject" in out, out
    assert "POST /channels/{channel_id}/messages: $.content: 2001 characters, the limit is 2000" in out, out
    summary = out.split("short test summary")[-1]
    assert "test_inner.py::test_too_long " in summary and "test_too_long_on_purpose" not in summary


async def test_a_whole_game_sends_only_accepted_bodies_on_every_kind_of_route(world, simcord_bot, seeds):
    w = world
    players = [w.alice, w.bob]
    seeds.value = 11
    await open_table(w.channel, "Argo", players)
    policy = random_policy(random.Random(11))
    driver = Driver(w.env, simcord_bot, w.channel, {str(p.id): p for p in players}, policy)
    assert await driver.play_to_end() > 10
    c = contract()
    assert c.check_log(w.env.http_requests) == []
    checked = Counter(
        c.operation(e.method, e.path).template for e in w.env.http_requests if e.json is not None
    )
    for kind in (
        "/channels/{channel_id}/messages/{message_id}",  # a retired turn: PATCH
        "/interactions/{interaction_id}/{interaction_token}/callback",  # every click's answer
        "/webhooks/{webhook_id}/{webhook_token}",  # followups
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",  # a deferred answer filled in
        "/applications/{application_id}/commands",  # the command sync
    ):
        assert checked[kind] > 0, (kind, checked)
    assert sum(checked.values()) > 100
