"""ArgoatGame: the engine contract (prompts, legal actions, apply, undo, JSON) over the rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Self

from bot.engine.core import (
    CANCEL,
    SYSTEM,
    TIMEOUT,
    UNDO,
    Action,
    Event,
    Game,
    HelpPage,
    IllegalAction,
    OptionSpec,
    Prompt,
    RandomSource,
    Result,
    counted,
    player_ref,
)

from . import frontier_actions, items, movement, trades, words
from .data import (
    DEFAULT_DIFFICULTY,
    DEFAULT_TRADE_WAIT,
    DIFFICULTIES,
    FRONTIER_BY_KEY,
    ITEM_BY_KEY,
    ITEM_RULES,
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from .determinize import determinize_state
from .effects import name_at
from .events import event
from .events import prompt as make_prompt
from .geometry import OFFSETS, Coord, fmt, step
from .help import PAGES as HELP_PAGES
from .notation import notation as _notation
from .setup import new_state
from .state import DRAFT, DREAM, OFFER, OVER, PLACE_FOREST, PLACE_FRONTIER, TURN, State
from .views import build_view

_NO_REASON = "That is not a legal choice right now."

UNDOABLE = frozenset({"move", "bleina"})
"""Actions undone by restoring a movement snapshot (:meth:`State.movement_snapshot`). Building
a trade (``trade``, ``trade_part``) is undone part by part; every other action is a barrier
that empties the undo stack."""

TURN_PROMPTS_MAX = 256
"""At most this many turn prompts are kept per game (emptied when full): a long game cannot grow
memory without limit."""

PROPOSE: Action = {"type": "propose"}
DECLINE: Action = {"type": "decline"}
WITHDRAW: Action = {"type": "withdraw"}


@lru_cache(maxsize=2048)
def _draft_prompt(proposer: str, partner: str, parts: trades.Parts) -> Prompt:
    """The prompt while ``proposer`` builds a trade (cached and shared: never change it).

    Always private: the proposer builds the trade in a picker only they see (the terms so far
    are public in the view; the choices may name the proposer's Items)."""
    terms = trades.describe(proposer, partner, parts)
    text = (
        f"{player_ref(proposer)} is preparing a trade with {player_ref(partner)}: {terms}. "
        "Add a part, propose it, or cancel."
    )
    return make_prompt(proposer, text, private=True)


@lru_cache(maxsize=2048)
def _offer_prompt(
    proposer: str, partner: str, parts: trades.Parts, executable: bool, wait: int = 0, key: str = ""
) -> Prompt:
    """The prompt while a trade waits for ``partner``'s answer (cached and shared: never change it).

    ``wait`` minutes (0: none) until the offer lapses as declined (:data:`TIMEOUT`); ``key``
    names this offer's timer."""
    terms = trades.describe(proposer, partner, parts)
    text = f"{player_ref(partner)}, {player_ref(proposer)} offers you a trade: {terms}. Accept or decline?"
    if not executable:
        text += " (It can no longer be carried out: decline it.)"
    asks_items = any(p[0] == trades.ASK and p[1] == trades.ITEM for p in parts)
    return Prompt(
        partner,
        text,
        (proposer,),
        "Withdraw",
        wait * 60 if wait else None,
        asks_items,
        key if wait else "",
    )


class ArgoatGame(Game):
    """A game of Argoat: explore the Frontier, gather the eight Fragments, flip Eden."""

    name: ClassVar[str] = "Argoat"
    score_label: ClassVar[str] = "Fragments"
    score_label_one: ClassVar[str] = "Fragment"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "difficulty",
            "Starting frontiers: journeyman (quicker) or adventurer",
            DEFAULT_DIFFICULTY,
            choices=DIFFICULTIES,
        ),
        OptionSpec(
            "trade_wait",
            "Minutes a trade offer waits for its answer before it counts as declined (0: no limit)",
            DEFAULT_TRADE_WAIT,
            minimum=0,
            maximum=24 * 60,
        ),
    )
    rules_summary: ClassVar[str] = (
        "Gather all eight Fragments of Ancient Knowledge, then end your move on the Dark "
        "Forest hiding Eden to flip it and win.\n"
        "Each turn: trade with players on your Frontier and use Items whenever you like, move "
        "one space along a road (required; a Bleina carries you further for an Emerald), then "
        "end your turn by resolving your Frontier's action.\n"
        "Returning to the Frontier Town discovers a new Frontier; Dragon frontiers bring Dark "
        "Forests. Exploring a Dark Forest costs one Emerald per Check Marker already on it.\n"
        "Items are secret (sent to you by DM); Fragments and Emeralds are public."
    )

    @classmethod
    def help_topics(cls) -> dict[str, HelpPage]:
        """The Argoat pages of ``/game rules`` (bot/engine/argoat/help.py)."""
        return dict(HELP_PAGES)

    def __init__(self, players: Sequence[str], state: State) -> None:
        self._players = tuple(players)
        self._s = state
        self._version = 0
        self._cache_version = -1
        """The version the cached legal actions below were computed for."""
        self._cache_player = ""
        self._cache_actions: list[Action] = []
        """The legal actions of the first player asked at that version (usually the only one)."""
        self._cache: dict[str, list[Action]] = {}
        self._others_version = -1
        """The legal actions of the other players asked at that version."""
        self._prompt: Prompt | None = None
        self._prompt_version = -1
        self._accept_cache: tuple[int, list[Action]] = (-1, [])
        self._menu: tuple[trades.SideMenu, trades.SideMenu] | None = None
        """What each side of the trade being built could give (see :func:`trades.menus`)."""
        self._turn_prompts: dict[tuple[str, Coord, int, bool], Prompt] = {}
        self._words: tuple[int, dict[str, Any]] = (-1, {})
        """The option words' index of legal actions by token prefix, per player, and the version
        it was made for (see :mod:`.words`)."""

    # -- construction and JSON -----------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], seed: int, options: Mapping[str, Any]) -> Self:
        """A fresh game for 2–5 players (ids in seat order)."""
        players = list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise IllegalAction(f"Argoat needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may sit at the table only once.")
        raw = options.get("difficulty", DEFAULT_DIFFICULTY)
        difficulty = cls.option_specs[0].parse(str(raw))
        state = new_state(players, seed, str(difficulty))
        state.trade_wait = int(cls.option_specs[1].parse(str(options.get("trade_wait", DEFAULT_TRADE_WAIT))))
        return cls(players, state)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game stored by :meth:`to_json`."""
        return cls(list(data["players"]), State.from_json(dict(data["state"])))

    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON-safe data."""
        return {"game": self.name, "players": list(self._players), "state": self._s.to_json()}

    def clone(self) -> Self:
        """An independent copy (the state copied field by field; caches start empty, except
        the map-derived ones, copied shallowly)."""
        return type(self)(self._players, self._s.copy())

    def determinize(self, player: str, rng: RandomSource) -> Self:
        """A copy in which everything ``player`` cannot see is redrawn from ``rng``: the other
        players' Items (but those ``player`` knows they hold), the Supply, the Discovery Deck's
        order, the unseen Dark Forests and the Darkness Deck, the game's generator. See
        :mod:`.determinize` and ``docs/argoat-determinize.md``."""
        if player not in self._players:
            raise ValueError(f"{player!r} does not play in this game")
        return type(self)(self._players, determinize_state(self._s, player, rng))

    @property
    def players(self) -> tuple[str, ...]:
        """Player ids in seat order."""
        return self._players

    @property
    def state(self) -> State:
        """The underlying state (for tests and tools; the host uses views)."""
        return self._s

    def touch(self) -> None:
        """Forget everything cached after the state was changed from outside (tests): legal
        actions, prompts, trade menus. (Changes to the map also need
        :meth:`State.rebuild_roads`.)"""
        self._version += 1
        self._menu = None
        self._turn_prompts = {}

    # -- prompts -------------------------------------------------------------------------

    def prompt(self) -> Prompt | None:
        """Who must decide what now, or None once Eden has been found."""
        if self._prompt_version == self._version:
            return self._prompt
        s = self._s
        if s.phase == TURN:  # the common case, cached by what its text depends on
            me = s.seats[s.active]
            stage = 0 if not s.move.moved else 2 if me.pos == s.start else 1
            key = (me.id, me.pos, stage, bool(me.items))
            prompt = self._turn_prompts.get(key)
            if prompt is None:
                if len(self._turn_prompts) >= TURN_PROMPTS_MAX:
                    self._turn_prompts.clear()
                prompt = self._turn_prompts[key] = self._turn_prompt()
        else:
            prompt = self._make_prompt()
        self._prompt = prompt
        self._prompt_version = self._version
        return prompt

    def _turn_prompt(self) -> Prompt:
        s = self._s
        me = s.current
        who = player_ref(me.id)
        here = name_at(s, me.pos)
        if not s.move.moved:
            text = (
                f"{who}, it is your turn on {here} ({fmt(me.pos)}): move one space "
                "(required), and trade or use Items whenever you like."
            )
        elif me.pos == s.start:
            text = (
                f"{who} is back on {here} ({fmt(me.pos)}), where the turn began: move on "
                "(Q4: the turn must end elsewhere while you can still move), trade or use Items."
            )
        else:
            text = (
                f"{who} is on {here} ({fmt(me.pos)}): move on if you can, trade or use "
                f"Items, or end your turn to resolve {here}'s action."
            )
        if not me.items:
            return make_prompt(me.id, text)
        # Only using an Item names one: moves, trades and the end are chosen in public, and the
        # Items in private. The button shows whenever Items are held (their number is public).
        return make_prompt(me.id, text, private=True, secret_verbs=("use",), secret_label="Use an Item")

    def _make_prompt(self) -> Prompt | None:
        s = self._s
        if s.phase == OVER:
            return None
        me = s.current
        if s.phase == TURN:
            return self._turn_prompt()
        if s.phase == DRAFT:
            assert s.trade is not None
            return _draft_prompt(me.id, s.trade[0], s.trade[1])
        if s.phase == OFFER:
            assert s.trade is not None
            key = f"offer:{s.turn}:{len(s.offered)}"
            return _offer_prompt(me.id, s.trade[0], s.trade[1], bool(self._accepts()), s.trade_wait, key)
        who = player_ref(me.id)
        if s.phase == PLACE_FRONTIER:
            assert s.drawn is not None
            name = FRONTIER_BY_KEY[s.drawn].name
            return make_prompt(me.id, f"{who}, choose where to place {name}.")
        if s.phase == PLACE_FOREST:
            assert s.placed is not None
            return make_prompt(
                me.id, f"{who}, choose where the Dark Forest joins {name_at(s, s.placed)} ({fmt(s.placed)})."
            )
        assert s.phase == DREAM and s.drawn is not None
        name = FRONTIER_BY_KEY[s.drawn].name
        return make_prompt(me.id, f"{who}, resolve {name}'s action, drawn at the Hill of Dreams.")

    # -- legal actions -------------------------------------------------------------------

    def legal_actions(self, player: str) -> list[Action]:
        """Every action ``player`` may take now, in a stable order."""
        return list(self._legal_now(player))

    def _legal_now(self, player: str) -> list[Action]:
        """The cached legal actions of ``player`` for the current version (do not change)."""
        if self._cache_version == self._version:
            if player == self._cache_player:
                return self._cache_actions
            if self._cache_version != self._others_version:
                self._cache = {}
                self._others_version = self._cache_version
            cached = self._cache.get(player)
            if cached is None:
                cached = self._cache[player] = self._legal(player)
            return cached
        self._cache_version = self._version
        self._cache_player = player
        self._cache_actions = self._legal(player)
        return self._cache_actions

    def _legal(self, player: str) -> list[Action]:
        s = self._s
        phase = s.phase
        if phase == OVER:
            return []
        me = s.seats[s.active]
        if phase == OFFER:
            assert s.trade is not None
            if player == s.trade[0]:
                return [*self._accepts(), DECLINE]
            if player == me.id:
                return [WITHDRAW]
            return []
        if player != me.id:
            return []
        if phase == TURN:  # the hot path of every game: kept flat
            here = me.pos
            move = s.move
            actions = movement.move_actions(s)
            # Q4: the turn may end where it began only when no walk or ride leads elsewhere
            may_end = move.moved and (here != s.start or not actions)
            if me.items:
                actions += items.item_actions(s)
            for seat in s.seats:  # trade partners: on the same frontier (Q3)
                if seat is not me and seat.pos == here and trades.can_trade(s, me, seat):
                    actions.append({"type": "trade", "with": seat.id})
            if may_end:
                actions += frontier_actions.end_actions(s, frontier_actions.action_kind(s, here))
            if s.undo:
                actions.append(UNDO)
        elif phase == DRAFT:
            assert s.trade is not None
            menu = self._menu
            if menu is None:  # nothing but the trade changes while it is being built
                menu = self._menu = trades.menus(s, me, s.seat(s.trade[0]))
            actions = trades.menu_actions(menu, s.trade[1])
            if s.trade[1]:
                actions.append(PROPOSE)
            actions.append(CANCEL)
            actions.append(UNDO)
        elif phase in (PLACE_FRONTIER, PLACE_FOREST):
            actions = frontier_actions.place_actions(s)
        else:
            actions = frontier_actions.dream_actions(s)
        return actions

    def _accepts(self) -> list[Action]:
        """The partner's ways to accept the trade on offer (cached for the current version)."""
        version, accepts = self._accept_cache
        if version != self._version:
            accepts = trades.accept_actions(self._s)
            self._accept_cache = (self._version, accepts)
        return accepts

    def notation(self, action: Action) -> str:
        """The short text form of ``action`` (see ``docs/argoat-notation.md``)."""
        return _notation(action, self._colour_of)

    def choice_words(self, player: str, tokens: tuple[str, ...], option: tuple[str, ...]) -> tuple[str, str]:
        """The label and description of a menu option in plain words (see argoat/words.py)."""
        return words.choice_words(self, player, tuple(tokens), tuple(option))

    def _colour_of(self, player: str) -> str:
        return self._s.seat(player).colour

    # -- applying actions ----------------------------------------------------------------

    def apply(self, player: str, action: Action) -> list[Event]:
        """Perform a legal action; IllegalAction (and no change at all) otherwise."""
        if player == SYSTEM:
            return self._timeout(action)
        if action not in self._legal_now(player):
            raise IllegalAction(self._why(player, action))
        s = self._s
        kind = action["type"]
        events: list[Event] = []
        if kind in UNDOABLE:
            snapshot = s.movement_snapshot()
            movement.apply_move(s, action, events)
            s.undo.append(snapshot)
        elif kind == "end":  # the most common barrier, tested first
            self._end(action, events)
            s.undo.clear()
        elif kind == "trade_part":
            assert s.trade is not None
            s.trade[1] = (*s.trade[1], (action["side"], action["what"], action.get("which")))
        elif kind == "trade":
            self._menu = None
            s.trade = [action["with"], ()]
            s.phase = DRAFT
        elif kind == "cancel":
            s.trade = None
            s.phase = TURN
        elif kind == "undo":
            self._undo(events)
        else:  # every other action is a barrier: no undo past it
            if kind == "use":
                items.apply_item(s, action, events)
            elif kind == "propose":
                self._propose(events)
            elif kind == "place":
                frontier_actions.apply_place(s, action, events)
            else:
                self._answer(kind, action, events)
            s.undo.clear()
        self._version += 1
        return events

    def _timeout(self, action: Action) -> list[Event]:
        """The host's :data:`TIMEOUT`: a trade offer that waited ``trade_wait`` minutes lapses,
        declined (see docs/rules-notes.md)."""
        s = self._s
        if action != TIMEOUT or s.phase != OFFER or s.trade is None or not s.trade_wait:
            raise IllegalAction("Nothing is waiting for a timeout now.")
        events = [
            event(
                f"{player_ref(s.trade[0])} did not answer {player_ref(s.current.id)}'s trade in "
                "time: it counts as declined.",
                kind="trade_declined",
                data={"from": s.current.id, "to": s.trade[0], "expired": True},
            )
        ]
        s.trade = None
        s.phase = TURN
        s.undo.clear()
        self._version += 1
        return events

    def _undo(self, events: list[Event]) -> None:
        s = self._s
        who = s.current.id
        if s.phase == DRAFT:
            assert s.trade is not None
            if s.trade[1]:
                s.trade[1] = s.trade[1][:-1]
            else:
                s.trade = None
                s.phase = TURN
            return
        s.restore_movement(s.undo.pop())
        events.append(
            event(f"{player_ref(who)} takes back their last move.", kind="undo", data={"player": who})
        )

    def _propose(self, events: list[Event]) -> None:
        s = self._s
        assert s.trade is not None
        s.phase = OFFER
        s.offered.append(s.trade[0])
        terms = trades.describe(s.current.id, s.trade[0], s.trade[1])
        events.append(
            event(
                f"{player_ref(s.current.id)} offers {player_ref(s.trade[0])} a trade: {terms}.",
                kind="trade_offer",
                data={"from": s.current.id, "to": s.trade[0], **trades.public_data(s.trade[1])},
            )
        )

    def _answer(self, kind: str, action: Action, events: list[Event]) -> None:
        s = self._s
        assert s.trade is not None
        proposer, partner = player_ref(s.current.id), player_ref(s.trade[0])
        if kind == "accept":
            trades.execute(s, list(action.get("items", [])), events)
        elif kind == "decline":
            events.append(
                event(
                    f"{partner} declines {proposer}'s trade.",
                    kind="trade_declined",
                    data={"from": s.current.id, "to": s.trade[0]},
                )
            )
        else:
            events.append(
                event(
                    f"{proposer} withdraws the trade offered to {partner}.",
                    kind="trade_withdrawn",
                    data={"from": s.current.id, "to": s.trade[0]},
                )
            )
        s.trade = None
        s.phase = TURN

    def _end(self, action: Action, events: list[Event]) -> None:
        s = self._s
        if s.phase == DREAM:
            frontier_actions.apply_dream(s, action, events)
            return
        me = s.seats[s.active]
        here = me.pos
        at = fmt(here)
        events.append(
            event(
                f"{player_ref(me.id)} ends their move on {name_at(s, here)} ({at}).",
                kind="end",
                data={"player": me.id, "at": at},
            )
        )
        frontier_actions.resolve(s, frontier_actions.action_kind(s, here), action.get("choice"), events)

    def parse(self, player: str, text: str) -> Action:
        """The legal action typed as ``text``; if none, IllegalAction saying why, then what is legal."""
        try:
            return super().parse(player, text)
        except IllegalAction as exc:
            words = text.lower().split()
            verb = "bleina" if words[:2] == ["move", "bleina"] else (words[0] if words else "")
            guess: Action = {"type": verb}
            if verb == "use" and len(words) > 1:
                guess["item"] = words[1]
            elif verb == "move" and len(words) > 1:
                guess["dir"] = words[1].upper()
            elif verb == "bleina":
                guess["path"] = [w.upper() for w in words[2:]]
            reason = self._why(player, guess)
            if reason == _NO_REASON:
                raise
            raise IllegalAction(f"{reason} {exc}") from None

    def _why(self, player: str, action: Action) -> str:
        """A sentence saying why ``action`` is not allowed for ``player`` now."""
        s = self._s
        if s.phase == OVER:
            return "The game is over."
        if player not in self._players:
            return "You are not playing in this game."
        prompt = self.prompt()
        if prompt is None or player not in prompt.deciders():
            if s.phase == OFFER and s.trade is not None:
                return f"Only {player_ref(s.trade[0])} can answer this trade now."
            return f"It is {player_ref(s.current.id)}'s turn, not yours."
        kind = action.get("type") if isinstance(action, dict) else None
        if s.phase == TURN:
            if kind == "end" and not s.move.moved:
                return "You must move before ending your turn (Q4)."
            if (
                kind == "end"
                and s.current.pos == s.start
                and not any(a["type"] == "end" for a in self._legal_now(player))
            ):
                return "Your turn must end on another frontier than the one where it began (Q4): move on."
            if kind in ("move", "bleina") and self._back_to_start(action):
                return (
                    "That would leave you stuck on the frontier where your turn began: the turn "
                    "must end elsewhere (Q4)."
                )
            if kind == "move" and (s.move.steps >= s.move.max_steps or s.move.over or s.move.bleina_used):
                return "You have no ordinary movement left this turn."
            if kind == "move":
                return "No road leads that way from your Frontier."
            if kind == "bleina":
                return (
                    "You can ride a Bleina only from a Frontier where one stands, once per "
                    "turn, not with the Wings of the Holy Dragon (Q15), paying 1 Emerald "
                    "unless a Flute was used, and only along roads."
                )
            if kind == "use":
                if action.get("item") not in s.current.items:
                    return "You do not hold that Item."
                return "That Item cannot be used that way now."
            if kind == "trade":
                return (
                    "You can only trade with another player on your own Frontier (Q3), "
                    "and only when there is something to trade."
                )
            if kind == "end":
                return "Choose one of the listed ways to resolve your Frontier's action."
            if kind in ("place", "accept", "decline", "withdraw", "cancel", "propose"):
                return "There is nothing of that kind to do right now."
        if s.phase in (PLACE_FRONTIER, PLACE_FOREST, DREAM):
            if kind in ("trade", "use", "move", "bleina", "undo"):
                return (
                    "You are resolving a Frontier Action: nothing else may be done until "
                    "it is finished (Q12)."
                )
            if kind == "place":
                return "That card cannot be placed there: its roads must match every neighbour."
        if s.phase == DRAFT and kind not in ("trade_part", "propose", "cancel", "undo"):
            return "Finish building your trade first: add a part, propose it, or cancel."
        if s.phase == OFFER and kind == "accept":
            return "Choose one of the listed ways to accept, or decline."
        return _NO_REASON

    def _back_to_start(self, action: Action) -> bool:
        """Whether a (refused) movement action would end where the turn began."""
        s = self._s
        start = s.turn_start()
        path = [action.get("dir")] if action.get("type") == "move" else action.get("path")
        if start is None or not isinstance(path, list) or not all(p in OFFSETS for p in path):
            return False
        end = s.current.pos
        for side in path:
            end = step(end, side)
        return end == start

    # -- views and result ----------------------------------------------------------------

    def view(self, player: str | None) -> dict[str, Any]:
        """JSON-safe state; public for None, plus ``player``'s own Items and peeks."""
        return build_view(self, player)

    def secrets_text(self, player: str) -> str:
        """The player's Items and what they saw in Dark Forests, in plain words."""
        you = build_view(self, player).get("you")
        if you is None:
            return ""
        peeks = "; ".join(f"{p['at']}: {p['content']}" for p in you["peeks"]) or "none yet"
        lines = [f"Dark Forests you have looked into: {peeks}."]
        if you.get("trade_terms"):
            lines.append(f"Your trade: {you['trade_terms']}")
        held = Counter(you["items"])
        if not held:
            lines.append("Your Items: none.")
            return "\n".join(lines)
        lines.append("Your Items:")
        for key, count in held.items():
            item = ITEM_BY_KEY[key]
            copies = f" ×{count}" if count > 1 else ""
            lines.append(f"• **{item.name}**{copies}: {item.summary}")
        lines.append(ITEM_RULES)  # last: the part a very full hand may lose to the length limit
        return "\n".join(lines)

    def turn_marker(self) -> tuple[Any, ...]:
        """(turn number, active player, finished): changes exactly when a turn begins."""
        s = self._s
        return (s.turn, s.active, s.winner is not None)

    def result(self) -> Result | None:
        """None while the game runs; the winner and Fragment counts once Eden is flipped (the
        others ranked by Fragments, then Emeralds)."""
        s = self._s
        if s.winner is None:
            return None
        winner = s.seats[s.winner]
        scores = {seat.id: len(seat.fragments) for seat in s.seats}
        others = sorted(
            (seat for seat in s.seats if seat is not winner), key=lambda x: (-len(x.fragments), -x.emeralds)
        )
        ranking = (winner.id, *(seat.id for seat in others))
        details = {seat.id: counted(seat.emeralds, "Emerald") for seat in s.seats}
        text = (
            f"{player_ref(winner.id)} gathered all eight Fragments and found Eden "
            f"after {counted(s.turn, 'turn')}."
        )
        return Result((winner.id,), scores, text, ranking, details)
