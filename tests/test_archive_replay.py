"""Replays rebuilt from the event log: one step per turn with the board after it, an animated GIF
with a frame per turn (or per round to fit its budget), public information only, and a replay
of a running game that stops at the current turn."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

import render
from bot.archive.replay import log_rows, rebuild, thin
from bot.archive.results import GameResult, SeatResult
from bot.engine.core import Result
from bot.engine.registry import GameRegistry, discover
from bot.store import SqliteStore
from bot.tables import TableHost
from cogs.archive import ranking_text
from cogs.replay_job import ReplayJob, caption_text, draw, frames_of, ranking_lines
from render.animation import WIDTHS, chosen_frames
from tests.archive_games import SHORT_ARGO, SHORT_ARGOAT, SHORT_ARGOAT_OPTIONS, play
from tests.hostplay import Clock

REGISTRY = GameRegistry(discover())
LABELS = {"111": "alice", "222": "bob"}


async def played(tmp_path, game: str, seed: int, **kwargs):
    """A table of ``game`` played by 111 and 222 (to the end unless ``actions`` says), its log."""
    store = await SqliteStore.open(tmp_path / f"{game}.db")
    try:
        host = TableHost(store, REGISTRY, clock=Clock(), seeder=lambda: seed)
        options = SHORT_ARGOAT_OPTIONS if game == "Argoat" else ""
        table_id = await play(host, 5, game, ["111", "222"], seed, options=options, **kwargs)
        record = await store.get_table(table_id)
        rows = await log_rows(store, table_id)
    finally:
        await store.close()
    assert record is not None
    return record, rows


def gif_frames(data: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF" and image.is_animated
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append(image.convert("RGB"))
    return frames


async def test_an_argo_replay_has_a_frame_per_turn_and_the_ranking_last(tmp_path):
    record, rows = await played(tmp_path, "Argo", SHORT_ARGO)
    game_cls = REGISTRY.get("Argo")
    replay = rebuild(game_cls, record, rows)
    final = game_cls.from_json(record.state)
    turns = final.turn_marker()[0]
    assert len(replay.steps) == turns + 1  # the start, then every turn
    assert [s.turn for s in replay.steps[1:]] == list(range(1, turns + 1))
    assert replay.steps[-1].view == final.view(None)  # the log rebuilds the stored game exactly
    assert replay.complete and replay.result == final.result().to_json()
    drawn = draw(ReplayJob(record, tuple(rows), LABELS))
    anim = drawn.animation
    assert anim.fits and anim.every == 1 and anim.width == WIDTHS[0]
    assert anim.frames == turns + 1 == drawn.turns + 1
    assert len(anim.data) <= 10 * 1024 * 1024
    frames = gif_frames(anim.data)
    assert len(frames) == turns + 1 and {f.width for f in frames} == {WIDTHS[0]}
    captions = frames_of(replay, game_cls, record.id, LABELS)
    assert captions[0].caption[0] == f"Argo · table #{record.id} · the start"
    assert captions[3].caption[0].startswith("Turn 3 · ") and (
        " alice" in captions[3].caption[0] or " bob" in captions[3].caption[0]
    )
    final_result = final.result()
    assert captions[-1].ranking[0] == final_result.text.replace("<p:111>", "Blue alice").replace(
        "<p:222>", "Yellow bob"
    )  # how the game ended, then every player with the tie-break details
    assert captions[-1].ranking[1].startswith("1. ") and "activation" in captions[-1].ranking[1]
    assert all(not f.ranking for f in captions[:-1])


async def test_a_long_argoat_replay_drops_to_a_frame_per_round_to_fit(tmp_path):
    record, rows = await played(tmp_path, "Argoat", SHORT_ARGOAT)
    replay = rebuild(REGISTRY.get("Argoat"), record, rows)
    assert len(replay.steps) == 65  # the start and 64 turns
    budget = 400_000  # far under what a frame per turn needs, as a 10 MiB limit is for long games
    drawn = draw(ReplayJob(record, tuple(rows), LABELS, budget=budget))
    anim = drawn.animation
    assert anim.fits and len(anim.data) <= budget
    assert anim.every >= 2 and anim.every % 2 == 0  # a round of two players, or several rounds
    assert anim.frames == len(chosen_frames(65, anim.every)) == len(thin(replay.steps, anim.every))
    assert len(gif_frames(anim.data)) == anim.frames


async def test_replay_frames_are_the_public_boards_and_no_line_tells_a_secret(tmp_path):
    record, rows = await played(tmp_path, "Argoat", SHORT_ARGOAT, actions=60)
    game_cls = REGISTRY.get("Argoat")
    replay = rebuild(game_cls, record, rows)
    # walk the log again on the engine: at each step's version, the state as the players had it
    live = game_cls.new(record.seats, record.seed, record.options)
    by_version = {step.version: step for step in replay.steps}
    checked_secrets = 0
    for row in rows:
        if row.action.get("type") in ("open", "join", "start"):
            continue
        live.apply(row.actor, {k: v for k, v in row.action.items() if k != "by"})
        step = by_version.get(row.seq)
        if step is None or step is replay.steps[-1]:
            continue
        nxt = replay.steps[step.index + 1] if step.index + 1 < len(replay.steps) else None
        if nxt is not None and nxt.version == row.seq:
            continue
        public = live.view(None)
        assert step.view == public
        text = json.dumps(step.view)
        hidden = [f for f in live.to_json()["state"]["forests"] if not f["flipped"]]
        for seat in record.seats:
            held = live.view(seat)["you"]["items"]
            for item in held:  # a held Item's kind is in its holder's view only
                assert f'"{item}"' not in text
                checked_secrets += 1
        for forest in hidden:
            assert '"content"' not in json.dumps([f for f in step.view["forests"] if not f["flipped"]])
            checked_secrets += 1 if forest else 0
    assert checked_secrets > 0
    # each frame drawn is exactly the picture of its public view (and the captions are the log's
    # public lines): three frames decoded from the GIF against the board drawn from the view
    drawn = draw(ReplayJob(record, tuple(rows), LABELS))
    frames = gif_frames(drawn.animation.data)
    assert len(frames) == len(replay.steps)
    for index in (1, len(frames) // 2, len(frames) - 1):
        previous = replay.steps[index - 1].view
        board = Image.open(io.BytesIO(render.board_png(replay.steps[index].view, previous))).convert("RGB")
        scale = frames[index].width / board.width
        top = frames[index].height - round(board.height * scale)
        sample = frames[index].crop((0, top, frames[index].width, frames[index].height))
        expected = board.resize(sample.size)
        difference = sum(
            abs(a - b) for a, b in zip(sample.tobytes()[::97], expected.tobytes()[::97], strict=True)
        )
        assert difference / (len(sample.tobytes()) // 97) < 40  # the same picture, rescaled


async def test_a_replay_during_a_game_stops_at_the_current_turn(tmp_path):
    record, rows = await played(tmp_path, "Argoat", SHORT_ARGOAT, actions=40)
    assert record.status == "playing"
    game_cls = REGISTRY.get("Argoat")
    replay = rebuild(game_cls, record, rows)
    current = game_cls.from_json(record.state)
    assert not replay.complete and replay.result is None
    # the last step is the last turn anything was played in, showing the board as it is now
    assert replay.steps[-1].turn == max(r.turn for r in rows if r.turn is not None)
    assert current.turn_marker()[0] in (replay.steps[-1].turn, replay.steps[-1].turn + 1)
    assert replay.steps[-1].view == current.view(None)
    assert replay.steps[-1].version == record.version
    drawn = draw(ReplayJob(record, tuple(rows), LABELS))
    assert not drawn.complete and drawn.animation.frames == len(replay.steps)
    assert not frames_of(replay, game_cls, record.id, LABELS)[-1].ranking


@pytest.mark.parametrize("every", [2, 3, 5])
def test_thinning_keeps_the_first_and_last(every):
    steps = list(range(11))
    kept = thin(steps, every)  # type: ignore[arg-type]
    assert kept[0] == 0 and kept[-1] == 10 and kept == [steps[i] for i in chosen_frames(11, every)]


async def test_names_are_those_of_the_moment(tmp_path):
    """A seat handed over mid-game is shown with its holder then; a decision an AI took for a
    person (``by`` in the log) says the AI played it."""
    store = await SqliteStore.open(tmp_path / "handover.db")
    try:
        host = TableHost(store, REGISTRY, clock=Clock(), seeder=lambda: SHORT_ARGO)
        table_id = await play(host, 5, "Argo", ["111", "222"], SHORT_ARGO, actions=6)
        table = await host.current(5)
        assert table is not None and table.game is not None
        handed_at = table.game.turn_marker()[0]
        await host.replace(5, "111", "222", "333")
        rng = random.Random(1)
        while True:  # play on until 333 has played a turn of the seat, and it is 111's turn
            table = await host.current(5)
            assert table is not None and table.game is not None and table.game.result() is None
            seat = table.game.prompt().player
            if seat == "111" and table.game.turn_marker()[0] > handed_at + 1:
                break
            legal = [a for a in table.game.legal_actions(seat) if a["type"] not in ("undo", "cancel")]
            await host.act(5, table.holder_of(seat), rng.choice(legal))
        legal = table.game.legal_actions(seat)
        await host.play_for(5, table_id, table.record.version, seat, legal[0], by="bot:hard")
        record = await store.get_table(table_id)
        rows = await log_rows(store, table_id)
    finally:
        await store.close()
    replay = rebuild(REGISTRY.get("Argo"), record, rows)
    seat_222 = [s for s in replay.steps if s.seat == "222"]
    assert {s.holder for s in seat_222 if s.turn < handed_at} == {"222"}
    assert {s.holder for s in seat_222 if s.turn > handed_at} <= {"333"}
    assert replay.holders["222"] == "333"
    last = replay.steps[-1]
    assert last.deciders[seat][-1] == "bot:hard"
    frames = frames_of(replay, REGISTRY.get("Argo"), record.id, {**LABELS, "333": "carol"})
    assert frames[-1].caption[0].endswith(" alice (played by the AI)")
    captions = [f.caption[0] for f, s in zip(frames, replay.steps, strict=True) if s.seat == "222"]
    assert any(c.endswith(" bob") for c in captions) and any(c.endswith(" carol") for c in captions)


def test_captions_name_players_whether_the_log_has_references_or_mentions():
    names = {"111": "Red alice", "222": "Blue bob"}
    assert caption_text("<p:111> moves E.", names, LABELS) == "Red alice moves E."
    # a log that names who acted when it happened holds mentions: a picture shows display names
    assert caption_text("AI for <@111> moves E; <@333> watches.", names, LABELS) == (
        "AI for alice moves E; a player watches."
    )


ARGO_LIKE = {"a": "A", "b": "B", "c": "C", "d": "D"}


def test_the_ranking_names_the_tie_breaks_and_shares_a_place_only_when_it_stays_shared():
    """Argo's rulebook: "In the event of a tie between humans, the player who Activated the most
    tiles wins. If there is still a tie, the player with the most Astronauts who left the station,
    then it's a shared victory." A tie on points that the Activations break is no shared place;
    a tie on everything is, and is said so."""
    details = {
        "a": "3 activations, 1 escaped",
        "b": "2 activations, 1 escaped",
        "c": "0 activations, 0 escaped",
        "d": "0 activations, 0 escaped",
    }
    broken = Result(("a",), {"a": 10, "b": 10, "c": 4, "d": 4}, "A wins.", ("a", "b", "c", "d"), details)
    assert ranking_lines(broken.to_json(), ARGO_LIKE, "points", "point") == [
        "1. A: 10 points (3 activations, 1 escaped) - winner",
        "2. B: 10 points (2 activations, 1 escaped)",
        "3. C: 4 points (0 activations, 0 escaped) - shared place",
        "3. D: 4 points (0 activations, 0 escaped) - shared place",
    ]
    same = {"a": "3 activations, 1 escaped", "b": "3 activations, 1 escaped"}
    shared = Result(("a", "b"), {"a": 10, "b": 10}, "A and B share the victory.", ("a", "b"), same)
    assert ranking_lines(shared.to_json(), ARGO_LIKE, "points", "point") == [
        "1. A: 10 points (3 activations, 1 escaped) - shared victory",
        "1. B: 10 points (3 activations, 1 escaped) - shared victory",
    ]


def _archived(*seats: tuple[str, int, bool]) -> GameResult:
    return GameResult(
        1, 1, "Argo", 1, "2026-01-01T00:00:00.000000Z",
        tuple(SeatResult(s, s, place, 0, won) for s, place, won in seats),
    )  # fmt: skip


def test_history_says_a_shared_place_once_and_gives_no_medal_when_nobody_won():
    shared = _archived(("1", 1, True), ("2", 1, True), ("3", 3, False))
    assert ranking_text(shared) == "🥇 <@1> and <@2> (shared victory), 🥉 <@3>"
    aliens = _archived(("1", 1, False), ("2", 2, False))  # the Aliens won: nobody did
    assert ranking_text(aliens) == "nobody won · 1. <@1>, 2. <@2>"
