"""The table's metadata as one typed value (bot/table_meta.py): its stored JSON round-trips,
defaults are left out, unknown keys are kept, older shapes are upgraded (also by store migration 9,
on SQLite and PostgreSQL, after which the tables load and play on); and the one notion of who plays
a seat now (``bot.seats.control``)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import seats
from bot.engine.registry import GameRegistry
from bot.seats import Controller, Reason
from bot.store import FINISHED, MIGRATIONS, TableRecord, open_store
from bot.store.forgetting import FORMER
from bot.table_meta import SHAPE, Absence, Clock, Decision, Effect, Hold, OnlyChoice, TableMeta, upgrade
from bot.tables import TableHost
from tests.hostplay import Clock as HostClock
from tests.hostplay import open_game, play, posted
from tests.pebbles import Pebbles

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def full() -> TableMeta:
    """A value with every field set."""
    return TableMeta(
        settings={"clock": 24, "idle": "wait"},
        holders={"bot:1": "bot:hard", "7": "bot:normal"},
        names={"8": "Bea"},
        clock=Clock("8", NOW, half=True, v=3, waiting=True, checked=NOW + timedelta(hours=1)),
        hold=Hold("tm", NOW, 60, v=3),
        paused=NOW,
        effects=(
            Effect("half", "8", "half:8:x", NOW, holder="8"),
            Effect("takeover", "9", "takeover:9:x", NOW, level="hard", not_before=NOW + timedelta(hours=8)),
        ),
        away={"8": Absence("away", NOW + timedelta(days=2)), "9": Absence("missed")},
        missed={"9": 2},
        everyone_away=NOW,
        stand_in=("9",),
        timed_out=("8",),
        quiet={"8": 4},
        quiet_game=("9",),
        recent=(
            Decision("8", {"type": "take", "n": 2}, NOW, 3, 1234),
            Decision("host", {"type": "pass"}, NOW),
        ),
        only_choice=(OnlyChoice("9", "take 1"),),
        bots_asked=3,
        wait_pinged=4,
        unreachable=NOW,
        extra={"later": {"kept": [1, 2]}},
    )


def test_every_field_round_trips_through_the_stored_json():
    meta = full()
    text = meta.dumps()
    assert json.loads(text)["v"] == SHAPE
    assert TableMeta.loads(text) == meta
    assert TableMeta.from_json(json.loads(json.dumps(meta.to_json()))) == meta


def test_defaults_are_registered_and_left_out_of_the_stored_json():
    assert TableMeta().to_json() == {"v": SHAPE}
    assert TableMeta.from_json({}) == TableMeta() == TableMeta.from_json({"v": SHAPE})
    meta = TableMeta.from_json({"v": SHAPE, "holders": {"bot:1": "bot:easy"}})
    assert meta.holder_of("bot:1") == "bot:easy" and meta.holder_of("7") == "7"
    assert meta.clock is None and meta.away == {} and meta.recent == () and meta.paused is None
    # A change back to a default drops the key again.
    assert "away" not in replace(full(), away={}).to_json()


def test_unknown_keys_are_kept_as_they_are_and_written_back():
    stored = {"v": SHAPE, "names": {"8": "Bea"}, "from_a_newer_bot": {"x": [1, None]}}
    meta = TableMeta.from_json(stored)
    assert meta.extra == {"from_a_newer_bot": {"x": [1, None]}}
    assert meta.to_json() == stored
    # The known keys win over an unknown one of the same name (it cannot be: extra never holds one).
    assert "names" not in meta.extra


def test_clocks_holds_and_effects_keep_the_stored_keys_they_always_had():
    clock = {"seat": "8", "since": NOW.isoformat(), "half": True, "late": False, "out": False, "v": 3}
    hold = {
        "key": "tm",
        "since": NOW.isoformat(),
        "seconds": 60,
        "v": 2,
        "waiting": True,
        "checked": NOW.isoformat(),
    }
    takeover = {"kind": "takeover", "seat": "8", "level": "hard", "since": NOW.isoformat(), "key": "k"}
    notice = {
        "kind": "late",
        "seat": "8",
        "holder": "8",
        "since": NOW.isoformat(),
        "key": "l",
        "not_before": NOW.isoformat(),
    }
    stored = {"clock": clock, "hold": hold, "effects": [takeover, notice]}
    meta = TableMeta.from_json(stored)
    assert meta.clock == Clock("8", NOW, half=True, v=3)
    assert meta.hold == Hold("tm", NOW, 60, v=2, waiting=True, checked=NOW)
    assert meta.effects[0] == Effect("takeover", "8", "k", NOW, level="hard")
    assert {k: v for k, v in meta.to_json().items() if k != "v"} == stored


def test_a_newer_shape_is_refused():
    with pytest.raises(ValueError, match="shape 3"):
        TableMeta.from_json({"v": SHAPE + 1})


def test_shape_1_is_upgraded():
    old = {
        "holders": {"bot:1": "bot:easy"},
        "recent": [
            ["8", {"type": "take", "n": 1}, NOW.isoformat()],
            ["9", {"type": "take", "n": 2}, NOW.isoformat(), 5],
            ["8", {"type": "take", "n": 3}, NOW.isoformat(), 6, 99],
        ],
        "only_choice": [["9", "take 1"]],
        "unreachable": {"since": NOW.isoformat()},
        "stand_in": [],
    }
    new = upgrade(old)
    assert new["v"] == SHAPE and new["only_choice"] == [{"seat": "9", "said": "take 1"}]
    assert new["unreachable"] == NOW.isoformat() and old["only_choice"] == [["9", "take 1"]]  # not changed
    meta = TableMeta.from_json(old)
    assert meta.recent == (
        Decision("8", {"type": "take", "n": 1}, NOW),
        Decision("9", {"type": "take", "n": 2}, NOW, 5),
        Decision("8", {"type": "take", "n": 3}, NOW, 6, 99),
    )
    assert meta.only_choice == (OnlyChoice("9", "take 1"),) and meta.unreachable == NOW
    assert meta.holders == {"bot:1": "bot:easy"} and meta.extra == {}
    assert upgrade(new) is new  # the current shape is left alone


def test_no_module_but_table_meta_reads_or_writes_the_stored_keys():
    root = Path(__file__).resolve().parents[1]
    raw = re.compile(r"\bmeta(\[|\.get\(|\.items\(|\.pop\(|\.setdefault\()|\bmeta=\{")
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for path in sorted([*root.glob("bot/**/*.py"), *root.glob("cogs/**/*.py")])
        if path.name != "table_meta.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if raw.search(line)
    ]
    assert found == []


# -- who plays a seat now -----------------------------------------------------------------------


def record(meta: TableMeta, seat_ids: tuple[str, ...] = ("7", "8", "bot:1")) -> TableRecord:
    holders = {"bot:1": "bot:normal", **meta.holders}
    return TableRecord(
        id=1,
        guild_id=1,
        channel_id=10,
        game="Pebbles",
        status="playing",
        host_id="7",
        seats=seat_ids,
        options={},
        seed=1,
        state=None,
        version=5,
        message_id=None,
        deadline=None,
        created_at=NOW,
        updated_at=NOW,
        meta=replace(meta, holders=holders),
    )


def test_a_person_plays_their_own_seat_and_a_bot_its_own():
    table = record(TableMeta())
    person = seats.control(table, "7")
    assert (person.controller, person.reason, person.holder) == (Controller.PERSON, None, "7")
    assert not person.plays_turns and not person.answers_waits and not person.by_bot
    bot = seats.control(table, "bot:1")
    assert (bot.controller, bot.reason, bot.holder) == (Controller.BOT, None, "bot:normal")
    assert bot.plays_turns and bot.by_bot


def test_an_ai_stands_in_for_an_away_person_unless_everyone_is_away():
    away = TableMeta(away={"8": Absence("away")})
    control = seats.control(record(away), "8")
    assert (control.controller, control.reason) == (Controller.STAND_IN, Reason.AWAY)
    assert control.plays_turns and control.answers_waits and seats.ai_plays(record(away), "8")
    # idle=wait: the seat's clock stands still; the AI only lets its waits go
    waiting = seats.control(record(replace(away, settings={"idle": "wait"})), "8")
    assert waiting.reason is Reason.AWAY and not waiting.plays_turns and waiting.answers_waits
    # everyone is away: nobody to play against, the table waits
    both = TableMeta(away={"7": Absence("away"), "8": Absence("missed")})
    assert seats.everyone_away(record(both))
    assert not seats.control(record(both), "8").plays_turns and not seats.ai_plays(record(both), "8")
    assert seats.control(record(both), "bot:1").plays_turns  # bots still play their own seats


def test_a_timed_out_seat_has_its_waits_answered_and_its_turn_taken_over():
    table = record(TableMeta(stand_in=("8",)))
    control = seats.control(table, "8")
    assert (control.controller, control.reason) == (Controller.STAND_IN, Reason.TIMED_OUT)
    assert control.answers_waits and not control.plays_turns  # the take-over effect plays its turn
    assert seats.control(record(TableMeta(timed_out=("8",))), "8").controller is Controller.PERSON


def test_a_seat_handed_to_an_ai_is_stood_in_for_because_its_person_left_or_was_forgotten():
    left = seats.control(record(TableMeta(holders={"8": "bot:hard"})), "8")
    assert (left.controller, left.reason, left.holder) == (Controller.STAND_IN, Reason.LEFT, "bot:hard")
    assert left.plays_turns and left.by_bot
    former = FORMER + "abc123"
    forgotten = seats.control(
        record(TableMeta(holders={former: "bot:normal"}), (former, "8", "bot:1")), former
    )
    assert (forgotten.controller, forgotten.reason) == (Controller.STAND_IN, Reason.FORGOTTEN)
    handed = seats.control(record(TableMeta(holders={"8": "9"})), "8")
    assert (handed.controller, handed.holder) == (Controller.PERSON, "9")  # a person took it over


# -- migration 9 on a database of the older shape ------------------------------------------------


def to_shape_1(meta: dict) -> dict:
    """What a bot before migration 9 stored for ``meta`` (the shape-2 JSON)."""
    old = {k: v for k, v in meta.items() if k != "v"}
    if "recent" in old:
        old["recent"] = [
            [d["who"], d["action"], d["at"], d["version"], d["snowflake"]] for d in old["recent"]
        ]
        old["recent"][0] = old["recent"][0][:3]  # as kept before versions were
    if "only_choice" in old:
        old["only_choice"] = [[o["seat"], o["said"]] for o in old["only_choice"]]
    if "unreachable" in old:
        old["unreachable"] = {"since": old["unreachable"]}
    return old


async def test_migration_9_rewrites_old_tables_which_then_load_and_play_on(store_url):
    clock = HostClock()
    registry = GameRegistry([Pebbles])
    host = TableHost(await open_store(store_url), registry, clock=clock, seeder=lambda: 77)
    await open_game(host, 100, "Pebbles", options="clock=1")
    rng = random.Random(3)
    assert await play(host, 100, rng, steps=3) == 3
    table = await host.current(100)
    await host.note(
        table, lambda meta: replace(meta, unreachable=clock.now, only_choice=(OnlyChoice("100b", "take 1"),))
    )
    await host.set_away("100b", clock.now + timedelta(days=3))
    table_id = (await host.current(100)).record.id
    [(stored,)] = await host.store.sql("SELECT meta FROM tables WHERE id = ?", (table_id,))
    old = to_shape_1(json.loads(stored))
    assert "v" not in old and isinstance(old["recent"][0], list) and old["away"]
    # As a bot before migration 9 left the database: shape-1 meta, schema 8.
    await host.store.sql("UPDATE tables SET meta = ? WHERE id = ?", (json.dumps(old), table_id))
    if store_url.startswith("postgres"):
        await host.store.sql("UPDATE schema_version SET version = ?", (len(MIGRATIONS) - 1,))
    else:
        await host.store.sql(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    await host.close()

    store = await open_store(store_url)
    assert await store.schema_version() == len(MIGRATIONS)
    [(stored,)] = await store.sql("SELECT meta FROM tables WHERE id = ?", (table_id,))
    new = json.loads(stored)
    assert new["v"] == SHAPE and all(isinstance(d, dict) for d in new["recent"])
    assert new["only_choice"] == [{"seat": "100b", "said": "take 1"}] and isinstance(new["unreachable"], str)
    host = TableHost(store, registry, clock=clock, seeder=lambda: 78)
    table = await host.current(100)
    assert table is not None and table.record.meta.recent[0].version is None
    assert table.record.meta.is_away("100b") and table.record.meta.unreachable == datetime(
        2026, 1, 1, tzinfo=UTC
    )
    await posted(host)
    await play(host, 100, rng)
    assert (await host.store.get_table(table_id)).status == FINISHED
    await host.close()
