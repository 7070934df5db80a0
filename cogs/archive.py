"""The archive on Discord: ``/game replay``, ``stats``, ``leaderboard``, ``history`` and ``open``
(added to the ``/game`` group), the private step-through viewer, and the Replay / Stats buttons
of a finished game's final message. What they show is computed by ``bot.archive`` from the
store; pictures are drawn off the event loop (``cogs.replay_job``)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import seats
from bot.archive import ledger, names
from bot.archive.ratings import PROVISIONAL_GAMES, Ladder
from bot.archive.replay import LogRow, Replay, log_rows, rebuild
from bot.archive.results import USED, GameResult, SeatResult
from bot.engine.core import counted, format_text, whole_number
from bot.store import FINISHED, PLAYING, StoreError, TableRecord
from cogs.boards import BOARDS, DRAWING
from cogs.components import BotItem, table_number
from cogs.replay_job import Drawer, DrawnReplay, ReplayJob, played_by, ranking_lines
from cogs.replies import acknowledge, choices_or_nothing, reply, trim, update_message

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

SYNC_SECONDS = 600
"""How often the archive looks for finished tables it has not recorded (a game is recorded when
it ends, and before every read; this catches one missed by a crash in between)."""
HISTORY_PAGE = 8
LEADERBOARD_SIZE = 10
KEPT_REPLAYS = 4
"""Rebuilt replays kept in memory for the step-through viewer (by table and version)."""
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
NOT_HERE = "The archive belongs to a server; use this command in a server channel."


def _cog(interaction: discord.Interaction) -> ArchiveCog:
    cog = interaction.client.get_cog("ArchiveCog")  # type: ignore[attr-defined]
    assert isinstance(cog, ArchiveCog)
    return cog


def seat_text(result: GameResult, seat: SeatResult) -> str:
    """A seat of an archived game as the game named it ("<@alice>", "Bot 3 (easy)", "a former
    player"), marked when the game is not rated for its person (an AI played most of it)."""
    name = names.holder_name(seat.player, names.seat_number([s.seat for s in result.seats], seat.seat))
    if seat.rated:
        return name
    return f"{name} (unrated: the AI played {seat.by_ai} of {seat.decisions} decisions)"


def place_text(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st..."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def channel_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel, or to a message in it."""
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


def ranking_text(result: GameResult) -> str:
    """A finished game's ranking on one line: each place once, a place shared by several seats
    (equal on the score and every tie-break) said so, medals only if someone won (when the Aliens
    win nobody does)."""
    won = any(s.winner for s in result.seats)
    groups: dict[int, list[SeatResult]] = {}
    for seat in result.ranked():
        groups.setdefault(seat.place, []).append(seat)
    parts = []
    for place, group in groups.items():
        mark = MEDALS.get(place, f"{place}.") if won else f"{place}."
        who = " and ".join(seat_text(result, s) for s in group)
        shared = ""
        if len(group) > 1:
            shared = " (shared victory)" if group[0].winner else " (shared)"
        parts.append(f"{mark} {who}{shared}")
    return ("nobody won · " if not won else "") + ", ".join(parts)


def visible(interaction: discord.Interaction, channel_id: int) -> bool:
    """True if the user may see that channel (archive lines never tell about hidden channels)."""
    guild = interaction.guild
    if guild is None:
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return False
    member = interaction.user if isinstance(interaction.user, discord.Member) else None
    if member is None:
        return False
    return channel.permissions_for(member).view_channel


# -- components ---------------------------------------------------------------------------------


class ArchiveButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ar:(?P<action>replay|stats|view):(?P<table>\d+)",
):
    """Replay and Stats beside Rematch on a final message; "Step through" on a replay."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "replay": ("Replay", discord.ButtonStyle.secondary),
        "stats": ("Stats", discord.ButtonStyle.secondary),
        "view": ("Step through", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, table_id: int, row: int = 0) -> None:
        label, style = self.LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, row=row, custom_id=f"ar:{action}:{table_id}")
        )
        self.action = action
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ArchiveButton:
        return cls(match["action"], table_number(match["table"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        if self.action == "replay":
            await cog.post_replay(interaction, self.table_id)
        elif self.action == "stats":
            await cog.stats_button(interaction, self.table_id)
        else:
            await cog.open_viewer(interaction, self.table_id)


class StepButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"rv:(?P<table>\d+):(?P<upto>\d+):(?P<step>\d+):(?P<kind>first|prev|next|last)",
):
    """A page button of the step-through viewer: to step ``step`` of the replay up to ``upto``."""

    LABELS: ClassVar[dict[str, str]] = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}

    def __init__(self, table_id: int, upto: int, step: int, kind: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[kind],
                style=discord.ButtonStyle.primary
                if kind in ("prev", "next")
                else discord.ButtonStyle.secondary,
                disabled=disabled,
                row=0,
                custom_id=f"rv:{table_id}:{upto}:{step}:{kind}",
            )
        )
        self.table_id, self.upto, self.step = table_id, upto, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StepButton:
        return cls(
            table_number(match["table"]),
            table_number(match["upto"]),
            table_number(match["step"]),
            match["kind"],
        )

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).show_step(interaction, self.table_id, self.upto, self.step)


class StepSelect(
    BotItem, discord.ui.DynamicItem[discord.ui.Select], template=r"rs:(?P<table>\d+):(?P<upto>\d+)"
):
    """The viewer's turn select (values are step numbers)."""

    def __init__(
        self, table_id: int, upto: int, options: Sequence[tuple[int, str]] = (), current: int = 0
    ) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder="Go to a turn…",
                row=1,
                options=[
                    discord.SelectOption(label=label[:100], value=str(step), default=step == current)
                    for step, label in options
                ]
                or [discord.SelectOption(label="start", value="0")],
                custom_id=f"rs:{table_id}:{upto}",
            )
        )
        self.table_id, self.upto = table_id, upto

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StepSelect:
        return cls(table_number(match["table"]), table_number(match["upto"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else "0"
        step = whole_number(value, 0) or 0
        await _cog(interaction).show_step(interaction, self.table_id, self.upto, step)


class HistoryButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ah:(?P<member>\d+):(?P<page>\d+):(?P<kind>prev|next)",
):
    """Paging /game history (member 0: the whole server)."""

    def __init__(self, member: int, page: int, kind: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="◀ Newer" if kind == "prev" else "Older ▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ah:{member}:{page}:{kind}",
            )
        )
        self.member, self.page = member, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryButton:
        return cls(table_number(match["member"]), table_number(match["page"]), match["kind"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).show_history(interaction, self.member, self.page, edit=True)


ITEMS = (ArchiveButton, StepButton, StepSelect, HistoryButton)
"""The archive's dynamic items, for ``bot.add_dynamic_items``."""


def final_buttons(table_id: int) -> list[discord.ui.Item[Any]]:
    """The Replay and Stats buttons of a finished game's final message (beside Rematch)."""
    return [ArchiveButton("replay", table_id), ArchiveButton("stats", table_id)]


def step_options(total: int, current: int, replay: Replay) -> list[tuple[int, str]]:
    """At most 25 steps for the turn select: spread over the game, the current one included."""
    wanted = 25
    if total <= wanted:
        picks = list(range(total))
    else:
        picks = sorted({round(i * (total - 1) / (wanted - 2)) for i in range(wanted - 1)} | {current})
    found = []
    for index in picks[:wanted]:
        step = replay.steps[index]
        found.append((index, "The start" if step.turn is None else f"Turn {step.turn}"))
    return found


# -- the cog ----------------------------------------------------------------------------------


class ArchiveCog(commands.Cog):
    """Replays, ratings, stats, history and open tables (commands live in the /game group)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.drawer = Drawer(bot.settings.ai_workers)
        self._replays: OrderedDict[tuple[int, int], Replay] = OrderedDict()
        self._drawn: OrderedDict[tuple[int, int, tuple[tuple[str, str], ...]], DrawnReplay] = OrderedDict()
        self._drawing: dict[int, asyncio.Lock] = {}

    @property
    def store(self):
        """The bot's store."""
        return self.bot.host.store

    async def cog_load(self) -> None:
        self.keep_up.start()

    async def cog_unload(self) -> None:
        self.keep_up.cancel()
        self.drawer.close()

    @commands.Cog.listener()
    async def on_table_finished(self, record: TableRecord) -> None:
        """A game has just ended: record its result and update its ladder."""
        await self.sync()

    @tasks.loop(seconds=SYNC_SECONDS)
    async def keep_up(self) -> None:
        """Record the tables that finished since, and update their ladders."""
        await self.sync()

    async def sync(self) -> None:
        """Bring results and ladders up to date (best effort: a store failure is logged)."""
        try:
            await ledger.sync(self.store, self.bot.registry)
        except StoreError as exc:
            log.warning("archive: results not recorded now: %s", exc)

    # -- finding tables -------------------------------------------------------------------------

    async def _replayable(self, interaction: discord.Interaction, table_id: int | None) -> TableRecord | None:
        """The table to replay (answering the user if there is none they may see)."""
        if interaction.guild is None:
            await reply(interaction, NOT_HERE)
            return None
        if table_id is None:
            record = await self.store.open_table(interaction.channel_id or 0)
            if record is None or record.status != PLAYING:
                rows = await self.store.sql(
                    "SELECT id FROM tables WHERE channel_id = ? AND status = 'finished' "
                    "ORDER BY id DESC LIMIT 1",
                    (interaction.channel_id or 0,),
                )
                record = await self.store.get_table(int(rows[0][0])) if rows else None
            if record is None:
                await reply(
                    interaction, "No game has been finished in this channel yet (name one with `table`)."
                )
                return None
        else:
            record = await self.store.get_table(table_id)
            if record is None or record.guild_id != interaction.guild_id:
                await reply(interaction, f"There is no table #{table_id} on this server.")
                return None
        if record.status not in (PLAYING, FINISHED) or record.state is None:
            await reply(interaction, f"Table #{record.id} has no game to replay (it never finished).")
            return None
        if not visible(interaction, record.channel_id):
            await reply(interaction, f"Table #{record.id} is in a channel you can't see.")
            return None
        return record

    async def _labels(
        self, interaction: discord.Interaction, record: TableRecord, rows: Sequence[LogRow]
    ) -> dict[str, str]:
        """Display names of everyone who held a seat, for the pictures."""
        ids = set(seats.holders(record).values()) | set(record.seats)
        for row in rows:
            for key in ("from", "to", "by"):
                if isinstance(row.action.get(key), str):
                    ids.add(row.action[key])
        found = {}
        guild = interaction.guild
        for holder in sorted(i for i in ids if i.isdigit()):
            member = guild.get_member(int(holder)) if guild is not None else None
            if member is None and guild is not None:
                try:
                    member = await guild.fetch_member(int(holder))
                except discord.HTTPException:
                    member = None
            found[holder] = member.display_name if member is not None else "a player"
        return found

    # -- replay ---------------------------------------------------------------------------------

    async def post_replay(self, interaction: discord.Interaction, table_id: int | None) -> None:
        """Post the animated replay of a table (a running one up to now), with a Step through
        button; a "drawing" message shows meanwhile."""
        record = await self._replayable(interaction, table_id)
        if record is None:
            return
        rows = await log_rows(self.store, record.id, upto=record.version)
        running = record.status == PLAYING
        what = "so far" if running else "of the whole game"
        await interaction.response.send_message(
            f"🎞️ Drawing the replay of **{record.game}** table #{record.id} {what}…"
        )
        labels = await self._labels(interaction, record, rows)
        lock = self._drawing.setdefault(record.id, asyncio.Lock())
        key = (record.id, record.version, tuple(sorted(labels.items())))
        try:
            async with lock:  # one drawing per table at a time; the same replay is drawn once
                drawn = self._drawn.get(key) or await self.drawer.draw(ReplayJob(record, tuple(rows), labels))
            self._drawn[key] = drawn
            self._drawn.move_to_end(key)
            while len(self._drawn) > KEPT_REPLAYS:
                self._drawn.popitem(last=False)
        except Exception:
            log.exception("table #%s: the replay could not be drawn", record.id)
            await interaction.edit_original_response(
                content=f"I could not draw the replay of table #{record.id}."
            )
            return
        finally:
            if not lock.locked():
                self._drawing.pop(record.id, None)
        animation = drawn.animation
        if not animation.fits:
            await interaction.edit_original_response(
                content=f"The replay of table #{record.id} is too large to upload, even one frame a round. "
                "Press **Step through** to page through it.",
                view=self._replay_view(record.id),
            )
            return
        pace = (
            "a frame per turn" if animation.every == 1 else f"a frame every {animation.every} turns (a round)"
        )
        status = (
            f"up to turn {drawn.turns} (the game is still running)" if running else f"{drawn.turns} turns"
        )
        await interaction.edit_original_response(
            content=f"🎞️ **{record.game}** table #{record.id}: {status}, {pace}. "
            "Press **Step through** to page through it turn by turn (only you see it).",
            attachments=[discord.File(io.BytesIO(animation.data), filename=animation.filename)],
            view=self._replay_view(record.id),
        )

    def _replay_view(self, table_id: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(ArchiveButton("view", table_id))
        return view

    async def _replay(self, record: TableRecord, upto: int) -> Replay:
        """The table's replay up to version ``upto`` (rebuilt on a worker thread, then kept)."""
        key = (record.id, upto)
        if key in self._replays:
            self._replays.move_to_end(key)
            return self._replays[key]
        rows = await log_rows(self.store, record.id, upto=upto)
        game_cls = self.bot.registry.get(record.game)
        assert game_cls is not None
        replay = await asyncio.get_running_loop().run_in_executor(DRAWING, rebuild, game_cls, record, rows)
        self._replays[key] = replay
        while len(self._replays) > KEPT_REPLAYS:
            self._replays.popitem(last=False)
        return replay

    async def open_viewer(self, interaction: discord.Interaction, table_id: int) -> None:
        """The private step-through viewer of a table, at its start (a running game: up to now)."""
        record = await self._replayable(interaction, table_id)
        if record is None:
            return
        await acknowledge(interaction, ephemeral=True, thinking=True)
        payload = await self._step_payload(record, record.version, 0)
        payload["files"] = payload.pop("attachments")
        await interaction.followup.send(**payload, ephemeral=True)

    async def show_step(self, interaction: discord.Interaction, table_id: int, upto: int, step: int) -> None:
        """Turn the viewer (an ephemeral message) to another step."""
        record = await self._replayable(interaction, table_id)
        if record is None:
            return
        await acknowledge(interaction)
        payload = await self._step_payload(record, min(upto, record.version), step)
        await interaction.edit_original_response(**payload)

    async def _step_payload(self, record: TableRecord, upto: int, index: int) -> dict[str, Any]:
        replay = await self._replay(record, upto)
        total = len(replay.steps)
        index = min(max(index, 0), total - 1)
        step = replay.steps[index]
        previous = replay.steps[index - 1].view if index > 0 else None
        png = await BOARDS.png(step.view, previous)
        holders_now = dict(replay.holders)
        numbers = {seat: names.seat_number(record.seats, seat) for seat in record.seats}
        named = {seat: names.holder_name(holders_now.get(seat, seat), numbers[seat]) for seat in record.seats}
        if step.seat and step.holder:
            named[step.seat] = names.holder_name(step.holder, numbers.get(step.seat, 0))
        if step.turn is None:
            head = f"**{record.game}** table #{record.id} · the start (step 1 of {total})"
            body = ["Seats: " + ", ".join(named[s] for s in record.seats)]
        else:
            head = f"**{record.game}** table #{record.id} · turn {step.turn} (step {index + 1} of {total})"
            who = named.get(step.seat or "", "") or "?"
            others = [d for d in step.deciders.get(step.seat or "", []) if d != step.holder]
            played_for = played_by(others, numbers.get(step.seat or "", 0))
            body = [f"{who}'s turn{played_for}:"]
            body += [f"• {format_text(line, named)}" for line in step.lines] or ["• (nothing public)"]
        if index == total - 1 and not replay.complete:
            body.append("This is the current turn: the game is still running.")
        if index == total - 1 and replay.result is not None:
            body.append(f"🏁 {format_text(str(replay.result.get('text', '')), named)}")
            game_cls = self.bot.registry.get(record.game)
            label, one = (game_cls.score_label, game_cls.score_label_one) if game_cls else ("points", "point")
            body += ranking_lines(replay.result, named, label, one)
        view = discord.ui.View(timeout=None)
        view.add_item(StepButton(record.id, upto, 0, "first", disabled=index == 0))
        view.add_item(StepButton(record.id, upto, max(index - 1, 0), "prev", disabled=index == 0))
        view.add_item(
            StepButton(record.id, upto, min(index + 1, total - 1), "next", disabled=index >= total - 1)
        )
        view.add_item(StepButton(record.id, upto, total - 1, "last", disabled=index >= total - 1))
        view.add_item(StepSelect(record.id, upto, step_options(total, index, replay), index))
        files = [discord.File(io.BytesIO(png), filename="board.png")] if png else []
        return {"content": trim("\n".join([head, *body])), "attachments": files, "view": view}

    # -- stats and leaderboard -----------------------------------------------------------------

    async def _game_name(self, interaction: discord.Interaction, game: str | None, player: str) -> str | None:
        """The game asked for, else the player's most played one here (answering if none)."""
        if game:
            game_cls = self.bot.registry.get(game)
            if game_cls is None:
                known = ", ".join(self.bot.registry.names())
                await reply(interaction, f"Unknown game. Choose one of: {known}.")
                return None
            return game_cls.name
        played = await ledger.played_games(self.store, interaction.guild_id or 0, player)
        if not played:
            await reply(
                interaction, f"{names.entry_name(player)} has not finished a game on this server yet."
            )
            return None
        return played[0]

    async def stats(self, interaction: discord.Interaction, player: str, game: str | None) -> None:
        """/game stats: a player's record at one game on this server."""
        if interaction.guild is None:
            await reply(interaction, NOT_HERE)
            return
        await self.sync()
        name = await self._game_name(interaction, game, player)
        if name is None:
            return
        guild = interaction.guild_id or 0
        ladder = await ledger.ladder(self.store, guild, name)
        mine, total = await ledger.history(self.store, guild, player, name, limit=1000)
        await reply(interaction, stats_text(player, name, ladder, mine, total, guild, interaction))

    async def stats_button(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Stats button of a final message: the clicker's record at that game."""
        record = await self.store.get_table(table_id)
        game = record.game if record is not None else None
        await self.stats(interaction, str(interaction.user.id), game)

    async def leaderboard(self, interaction: discord.Interaction, game: str | None) -> None:
        """/game leaderboard: the server's top players at a game by conservative rating."""
        if interaction.guild is None:
            await reply(interaction, NOT_HERE)
            return
        await self.sync()
        user = str(interaction.user.id)
        name = await self._game_name(interaction, game, user)
        if name is None:
            return
        ladder = await ledger.ladder(self.store, interaction.guild_id or 0, name)
        await reply(interaction, leaderboard_text(name, ladder, user))

    # -- history and open tables ---------------------------------------------------------------

    async def show_history(
        self, interaction: discord.Interaction, member: int, page: int, *, edit: bool
    ) -> None:
        """/game history (and its page buttons): finished tables, newest first."""
        if interaction.guild is None:
            await reply(interaction, NOT_HERE)
            return
        await self.sync()
        player = str(member) if member else None
        found, _ = await ledger.history(self.store, interaction.guild_id or 0, player, limit=1000)
        shown = [f for f in found if visible(interaction, f.channel_id)]
        pages = max(1, -(-len(shown) // HISTORY_PAGE))
        page = min(max(page, 0), pages - 1)
        whose = f"of {names.mention(player)} " if player else ""
        if not shown:
            text = f"📜 No finished tables {whose}on this server yet."
        else:
            lines = [f"📜 Finished tables {whose}on this server, newest first (page {page + 1} of {pages}):"]
            for item in shown[page * HISTORY_PAGE : (page + 1) * HISTORY_PAGE]:
                result = item.result
                link = channel_link(result.guild_id, item.channel_id, item.message_id)
                when = f"<t:{_epoch(result.finished_at)}:d>"
                head = f"• **#{result.table_id} {result.game}** · {when}"
                lines.append(f"{head} · {ranking_text(result)} · [view]({link})")
            text = "\n".join(lines)
        view = discord.ui.View(timeout=None)
        if page > 0:
            view.add_item(HistoryButton(member, page - 1, "prev"))
        if page < pages - 1:
            view.add_item(HistoryButton(member, page + 1, "next"))
        payload: dict[str, Any] = {"content": trim(text), "view": view}
        if edit:
            await update_message(interaction, **payload)
        else:
            await reply(interaction, payload["content"], view=view)

    async def open_tables(self, interaction: discord.Interaction) -> None:
        """/game open: the server's lobbies waiting for players (not those with listed=off, nor
        full ones: they wait for their host to start, not for players)."""
        if interaction.guild is None:
            await reply(interaction, NOT_HERE)
            return
        lobbies = await ledger.open_lobbies(self.store, interaction.guild_id or 0)
        lines = []
        for record in lobbies:
            if seats.settings(record).get("listed") == "off" or not visible(interaction, record.channel_id):
                continue
            game_cls = self.bot.registry.get(record.game)
            most = game_cls.max_players if game_cls is not None else len(record.seats)
            if len(record.seats) >= most:
                continue
            options = " ".join(f"{k}={v}" for k, v in record.options.items())
            link = channel_link(record.guild_id or 0, record.channel_id, record.message_id)
            lines.append(
                f"• **#{record.id} {record.game}** in <#{record.channel_id}> · {len(record.seats)} of {most} "
                f"seats taken, {max(most - len(record.seats), 0)} free · "
                f"host {names.holder_name(record.host_id, 0)}"
                + (f" · {options}" if options else "")
                + f" · [join]({link})"
            )
        if not lines:
            text = "🪑 No table on this server is waiting for players. Open one with `/game new`."
        else:
            text = "🪑 Tables waiting for players:\n" + "\n".join(lines)
        await reply(interaction, trim(text))


def _epoch(moment: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp())


def stats_text(
    player: str,
    game: str,
    ladder: Ladder,
    mine: Sequence[ledger.Finished],
    total: int,
    guild_id: int,
    interaction: discord.Interaction,
) -> str:
    """What /game stats says about ``player`` at ``game`` on this server: games, wins and places
    count the rated games only (a game an AI played most of for them is listed, marked unrated)."""
    who = names.entry_name(player)
    if total == 0 or not mine:
        return f"{who} has not finished a game of {game} on this server yet."
    seats_of = [next(s for s in f.result.seats if s.player == player) for f in mine]
    rated = [s for s in seats_of if s.rated]
    unrated = len(seats_of) - len(rated)
    lines = [f"📊 {who} at **{game}** on this server"]
    rating = ladder.ratings.get(player)
    if rating is None or not rated:
        lines.append(
            f"No rating yet: {counted(unrated, 'game')} finished, none rated (the AI played most of "
            "the decisions of each)."
        )
    else:
        provisional = (
            f" · provisional ({rating.games} of {PROVISIONAL_GAMES} games)"
            if rating.provisional(player)
            else ""
        )
        lines.append(
            f"Rating **{rating.mu:.1f}** ± {rating.sigma:.1f} (μ ± σ; leaderboard value μ − 3σ = "
            f"{rating.conservative:.1f}){provisional}"
        )
        wins = sum(1 for s in rated if s.winner)
        best = min(s.place for s in rated)
        rate = 100 * wins / len(rated)
        also = f" · {unrated} more unrated (the AI played most of them)" if unrated else ""
        lines.append(
            f"Games {len(rated)} · wins {wins} ({rate:.0f} %) · best finish {place_text(best)}{also}"
        )
    noun = USED.get(game, ("", None))[0]
    if noun:
        used: dict[str, int] = {}
        for seat in seats_of:
            for name, count in seat.used.items():
                used[name] = used.get(name, 0) + count
        if used:
            top = max(sorted(used), key=lambda n: used[n])
            lines.append(f"Favourite {noun}: {top} ({used[top]} times)")
    lines.append("Last results:")
    for item, seat in list(zip(mine, seats_of, strict=True))[:5]:
        result = item.result
        link = channel_link(guild_id, item.channel_id, item.message_id)
        won = any(s.winner for s in result.seats)
        medal = MEDALS.get(seat.place, "▫️") if won and seat.rated else "▫️"
        shared = any(s.place == seat.place and s.seat != seat.seat for s in result.seats)
        tie = " (shared)" if shared else ""
        not_rated = " · unrated (the AI played most of it)" if not seat.rated else ""
        when = f"<t:{_epoch(result.finished_at)}:d>"
        lines.append(
            f"{medal} {place_text(seat.place)}{tie} of {len(result.seats)}{not_rated} · "
            f"table #{result.table_id} · {when} · [view]({link})"
        )
    return "\n".join(lines)


def leaderboard_text(game: str, ladder: Ladder, user: str) -> str:
    """What /game leaderboard says: the top ten, and the caller's own place if below."""
    ranked = ladder.top()
    if not ranked:
        return f"Nobody has finished a game of {game} on this server yet."
    lines = [f"🏆 **{game}** on this server, by conservative rating (μ − 3σ):"]

    def line(place: int, player: str) -> str:
        rating = ladder.ratings[player]
        mark = " *(provisional)*" if rating.provisional(player) else ""
        return (
            f"{MEDALS.get(place, f'{place}.')} {names.entry_name(player)} **{rating.conservative:.1f}** "
            f"(μ {rating.mu:.1f} ± {rating.sigma:.1f}) · {rating.games} games, {rating.wins} wins{mark}"
        )

    for place, (player, _) in enumerate(ranked[:LEADERBOARD_SIZE], start=1):
        lines.append(line(place, player))
    places = {player: place for place, (player, _) in enumerate(ranked, start=1)}
    if user in places and places[user] > LEADERBOARD_SIZE:
        lines.append("…")
        lines.append(line(places[user], user))
    return "\n".join(lines)


# -- commands (added to the /game group) -------------------------------------------------------


@choices_or_nothing
async def finished_table_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The server's finished tables matching what the user typed (newest first)."""
    if interaction.guild_id is None:
        return []
    found = await ledger.finished_tables(_cog(interaction).store, interaction.guild_id, current)
    return [app_commands.Choice(name=f"#{i} {g}", value=str(i)) for i, g in found]


async def game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Registered games matching what the user typed."""
    known = _cog(interaction).bot.registry.names()
    return [app_commands.Choice(name=n, value=n) for n in known if current.lower() in n.lower()][:25]


@app_commands.command(
    name="replay", description="An animated replay of a game (the channel's last by default)"
)
@app_commands.describe(table="Which finished table (default: this channel's running or last finished game)")
@app_commands.autocomplete(table=finished_table_names)
async def replay_command(interaction: discord.Interaction, table: str | None = None) -> None:
    async with interaction.client.working():  # type: ignore[attr-defined]
        wanted = table.strip().lstrip("#") if table and table.strip() else None
        number = whole_number(wanted, 1) if wanted is not None else None
        if wanted is not None and number is None:
            await reply(
                interaction, "Name the table by its number, e.g. `12` (the list shows finished tables)."
            )
            return
        await _cog(interaction).post_replay(interaction, number)


@app_commands.command(name="stats", description="A player's record at a game on this server")
@app_commands.describe(member="Whose record (default: yours)", game="Which game (default: their most played)")
@app_commands.autocomplete(game=game_names)
async def stats_command(
    interaction: discord.Interaction, member: discord.Member | None = None, game: str | None = None
) -> None:
    async with interaction.client.working():  # type: ignore[attr-defined]
        who = member or interaction.user
        await _cog(interaction).stats(interaction, str(who.id), game)


@app_commands.command(name="leaderboard", description="This server's best players at a game")
@app_commands.describe(game="Which game (default: the one you played most)")
@app_commands.autocomplete(game=game_names)
async def leaderboard_command(interaction: discord.Interaction, game: str | None = None) -> None:
    async with interaction.client.working():  # type: ignore[attr-defined]
        await _cog(interaction).leaderboard(interaction, game)


@app_commands.command(name="history", description="Finished tables of this server (or of a member)")
@app_commands.describe(member="Only this member's games")
async def history_command(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
    async with interaction.client.working():  # type: ignore[attr-defined]
        await _cog(interaction).show_history(interaction, member.id if member else 0, 0, edit=False)


@app_commands.command(name="open", description="Tables on this server waiting for players")
async def open_command(interaction: discord.Interaction) -> None:
    async with interaction.client.working():  # type: ignore[attr-defined]
        await _cog(interaction).open_tables(interaction)


COMMANDS: tuple[Any, ...] = (
    replay_command,
    stats_command,
    leaderboard_command,
    history_command,
    open_command,
)


async def setup_archive(bot: TableBot, group: app_commands.Group) -> None:
    """Add the archive to the bot: its cog, its dynamic items, and its commands to ``group``
    (the /game group), before the command tree is synced."""
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(ArchiveCog(bot))
    for command in COMMANDS:
        group.add_command(command)
