"""Drawing a replay off the event loop: the job a worker process runs (rebuild the game from its
log, caption every turn, animate the public boards) and the pool that runs it."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from bot import seats, workers
from bot.archive import names
from bot.archive.replay import LogRow, Replay, Step, rebuild
from bot.archive.results import places
from bot.engine.core import Game, Result, format_text
from bot.engine.registry import GameRegistry, discover
from bot.store import TableRecord
from bot.thinking import _exit_with_parent
from render.animation import BUDGET, Animation, Frame, animate

log = logging.getLogger(__name__)

_REGISTRY: GameRegistry | None = None


def holder_label(holder: str, number: int, labels: Mapping[str, str]) -> str:
    """Who held seat number ``number`` as a picture names them: the display name the cog found,
    a bot by its seat and level ("Bot 3 (hard)", as in the game), "a former player"."""
    return names.holder_name(holder, number, names.picture_name(labels))


def seat_names(view: dict[str, Any], holders: Mapping[str, str], labels: Mapping[str, str]) -> dict[str, str]:
    """Each seat as a picture names it: its colour and who played it ("Red alice", "Blue Bot 2
    (easy)"); ``holders`` in seat order."""
    colours = {str(p.get("id")): str(p.get("colour", "")) for p in view.get("players", [])}
    return {
        seat: f"{colours.get(seat, '')} {holder_label(h, number, labels)}".strip()
        for number, (seat, h) in enumerate(holders.items(), start=1)
    }


MENTION = re.compile(r"<@!?(\d+)>")


def caption_text(line: str, names: Mapping[str, str], labels: Mapping[str, str]) -> str:
    """A public log line for a picture: player references by colour and name, and mentions
    (logs that name who acted when it happened write them) by display name."""
    return MENTION.sub(lambda m: labels.get(m.group(1), "a player"), format_text(line, names))


def played_by(others: Sequence[str], number: int, person: Callable[[str], str] = names.mention) -> str:
    """ " (played by …)" for the deciders of a turn who were not its seat's holder: "the AI" for an
    AI that played for a person, anyone else by name; empty if there is none."""
    said = list(
        dict.fromkeys("the AI" if seats.is_bot(d) else names.holder_name(d, number, person) for d in others)
    )
    return f" (played by {', '.join(said)})" if said else ""


def who_played(step: Step, labels: Mapping[str, str], number: int) -> str:
    """Who played a step's turn (seat number ``number``): its seat's holder, and who decided for
    them if someone else did (the AI for an idle player)."""
    if step.holder is None:
        return ""
    others = [d for d in step.deciders.get(step.seat or "", []) if d != step.holder]
    person = names.picture_name(labels)
    return holder_label(step.holder, number, labels) + played_by(others, number, person)


def ranking_lines(
    result: Mapping[str, Any], named: Mapping[str, str], score_label: str, label_one: str
) -> list[str]:
    """The final ranking (a ``Result.to_json()``), one line per player: place, name, score and
    the tie-break details the game gives (Argo: Activations, escaped Astronauts; Argoat:
    Emeralds). Places are the game's: a place is shared only by seats equal on the score and
    every tie-break (a shared victory, as the rulebook has it), and said so."""
    ranked = Result(
        tuple(result.get("winners", ())),
        dict(result.get("scores", {})),
        str(result.get("text", "")),
        tuple(result.get("ranking", ())),
        dict(result.get("details", {})),
    )
    found = places(ranked)
    sharing = Counter(found.values())
    lines = []
    for player, place in found.items():
        score = int(ranked.scores.get(player, 0))
        unit = label_one if score == 1 else score_label
        detail = ranked.details.get(player, "")
        extra = f" ({detail})" if detail else ""
        if player in ranked.winners:
            tag = " - shared victory" if sharing[place] > 1 else " - winner"
        else:
            tag = " - shared place" if sharing[place] > 1 else ""
        lines.append(f"{place}. {named.get(player, player)}: {score} {unit}{extra}{tag}")
    return lines


def frames_of(replay: Replay, game_cls: type[Game], table_id: int, labels: Mapping[str, str]) -> list[Frame]:
    """The captioned frames of a replay: the start, then every turn; the final ranking on the
    last frame of a finished game."""
    holders = dict(replay.holders)
    numbers = {seat: number for number, seat in enumerate(holders, start=1)}
    frames = []
    for step in replay.steps:
        step_holders = {**holders, **({step.seat: step.holder} if step.seat and step.holder else {})}
        named = seat_names(step.view, step_holders, labels)
        if step.turn is None and step.seat is None:
            caption = [f"{replay.game} · table #{table_id} · the start", " · ".join(named.values())]
        else:
            colour = named.get(step.seat or "", "").split(" ")[0]
            turn = f"Turn {step.turn}" if step.turn is not None else f"Step {step.index}"
            who = who_played(step, labels, numbers.get(step.seat or "", 0))
            caption = [f"{turn} · {colour} {who}".strip()]
            caption.append(" ".join(caption_text(line, named, labels) for line in step.lines) or " ")
        frames.append(Frame(step.view, caption))
    if replay.result is not None and frames:
        named = seat_names(replay.steps[-1].view, holders, labels)
        text = caption_text(str(replay.result.get("text", "")), named, labels)
        lines = ranking_lines(replay.result, named, game_cls.score_label, game_cls.score_label_one)
        frames[-1].ranking = [text, *lines] if text else lines
    return frames


@dataclass(frozen=True)
class ReplayJob:
    """Everything a worker needs to draw a table's replay (all picklable)."""

    record: TableRecord
    rows: tuple[LogRow, ...]
    labels: dict[str, str]
    """Display names of the people who held seats (Discord user id → name)."""
    budget: int = BUDGET


@dataclass(frozen=True)
class DrawnReplay:
    """A drawn replay and what it covers."""

    animation: Animation
    turns: int
    complete: bool


def draw(job: ReplayJob) -> DrawnReplay:
    """Rebuild the table from its log and animate its public boards (runs in a worker)."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = GameRegistry(discover())
    game_cls = _REGISTRY.get(job.record.game)
    if game_cls is None:
        raise LookupError(f"unknown game {job.record.game}")
    replay = rebuild(game_cls, job.record, job.rows)
    frames = frames_of(replay, game_cls, job.record.id, job.labels)
    animation = animate(frames, players=len(job.record.seats), budget=job.budget)
    return DrawnReplay(animation, len(replay.steps) - 1, replay.complete)


class Drawer:
    """Draws replays in worker processes (``workers`` > 0; two at most, forked warm from the bot's
    worker server on first use, ending with the bot) or, with ``workers=0`` (tests), on one
    thread of this process."""

    def __init__(self, workers: int) -> None:
        self.workers = min(max(workers, 0), 2)
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=workers.context(), initializer=_exit_with_parent
                )
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")
        return self._pool

    async def draw(self, job: ReplayJob) -> DrawnReplay:
        """The drawn replay of ``job``, without blocking the event loop."""
        try:
            return await self._drawn(job)
        except BrokenProcessPool:
            log.warning("a replay worker died; starting a new one")
            self._pool = None
            return await self._drawn(job)

    async def _drawn(self, job: ReplayJob) -> DrawnReplay:
        loop = asyncio.get_running_loop()
        if self.workers == 0:
            return await loop.run_in_executor(self._executor(), draw, job)
        await workers.started()  # then a worker is forked at once
        pool = self._executor()
        # submitting may start a worker (multiprocessing then polls its others): on a thread
        submitted = await loop.run_in_executor(None, workers.bare, pool.submit, draw, job)
        return await asyncio.wrap_future(submitted)

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
