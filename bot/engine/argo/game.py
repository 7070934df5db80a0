"""ArgoGame: the engine contract (core.Game) on top of the rules: turns, prompts, Time Machine,
cancel and undo."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Self

from bot.engine.argo import building, effects, legal, modules, movement, resolution, words
from bot.engine.argo.data import (
    CORE_ROOM,
    MODULE_IDS,
    SETUP_CORRIDOR_IDS,
    TEAM_SIZE,
    TILES,
    WAKING_ROOM_ID,
    pods_for,
)
from bot.engine.argo.geometry import OPPOSITE, SIDES, distinct_rotations, step
from bot.engine.argo.help import PAGES as HELP_PAGES
from bot.engine.argo.notation import notation as _notation
from bot.engine.argo.notation import viewer
from bot.engine.argo.state import OWN_ALL, State
from bot.engine.argo.text import owner, who
from bot.engine.argo.view import build_view
from bot.engine.core import (
    CANCEL,
    SYSTEM,
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
    Rng,
    counted,
    player_ref,
)

TM_LABEL: Final = "Time Machine"
TM_WAIT_DEFAULT: Final = 120
"""Minutes a Time Machine moment is held open by default: in asynchronous play a moment that
lasts no time is no chance at all (see docs/rules-notes.md, "Time Machine in async play")."""

_TURN_FIELDS: Final = (
    "actions_used",
    "active",
    "alien_victory",
    "core_start",
    "end_reason",
    "final_turns",
    "finished",
    "hold",
    "moved",
    "pending",
    "phase",
    "turn",
    "undo_base",
    "undo_log",
    "window",
)
"""The fields the turn flow (this module) reassigns on the present state object."""
_STACK_FREE: Final = ("phase", "memo", "prompt")
"""Entries of ``ArgoGame._cache`` that do not depend on the order of the face-down stack (the
engine reads it only to reveal a tile), so a determinised copy may start with them."""


def _listed(action: Action, options: list[Action]) -> bool:
    """``action in options``, looking for the very object first (what bots and menus pass)."""
    for option in options:
        if option is action:
            return True
    return action in options


class ArgoGame(Game):
    """A game of Argo for 2 to 4 players, every rule of the rulebook included."""

    name = "Argo"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec(
            "difficulty",
            "How dangerous the Aliens are (easy, medium, hard).",
            "medium",
            ("easy", "medium", "hard"),
        ),
        OptionSpec(
            "deep_space", "Meaner Teleporters: with only one in play, it kills.", "off", ("off", "on")
        ),
        OptionSpec(
            "tm_wait",
            "Minutes to wait for Time Machine interrupts (0: no waiting).",
            TM_WAIT_DEFAULT,
            minimum=0,
            maximum=1440,
        ),
    )
    rules_summary = (
        "Escape the Alien-infested station! Each turn: move one Alien (it kills), build a tile, "
        "then take two actions: Move Astronauts or Activate Modules.\n"
        "Astronauts score the seat values of Escape Pods that take off; killing with Aliens "
        "scores too, but every death feeds the Aliens' score.\n"
        "If the Aliens end with more points than the best player, everybody loses."
    )

    @classmethod
    def help_topics(cls) -> dict[str, HelpPage]:
        """The Argo pages of ``/game rules`` (bot/engine/argo/help.py)."""
        return dict(HELP_PAGES)

    def __init__(self, st: State) -> None:
        self.st = st
        self._cache: dict[Any, Any] = {}
        self._revealed = False
        self._tell = True
        """False for a copy made to look ahead (see :meth:`determinize`): it records no events,
        words no prompts and keeps no undo snapshot."""

    # ----- creation and storage -------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[str], seed: int, options: Mapping[str, Any]) -> Self:
        """A fresh game: Waking Room, four corridors, stacks, display, random first player."""
        if not cls.min_players <= len(players) <= cls.max_players:
            raise IllegalAction("Argo is played by 2 to 4 players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may sit only once.")
        values: dict[str, Any] = {s.name: s.default for s in cls.option_specs}
        for key, value in options.items():
            spec = next((s for s in cls.option_specs if s.name == key), None)
            if spec is None:
                raise IllegalAction(f"Unknown option '{key}'.")
            values[key] = spec.parse(str(value))
        rng = Rng(seed)
        st = State()
        st.owned = OWN_ALL
        st.players = tuple(str(p) for p in players)
        st.difficulty = str(values["difficulty"])
        st.deep_space = values["deep_space"] == "on"
        st.tm_wait = int(values["tm_wait"])
        st.pos, st.rot, st.doors, st.cell = {}, {}, {}, {}
        st.place(WAKING_ROOM_ID, (0, 0), 0)
        corridors = list(SETUP_CORRIDOR_IDS)
        rng.shuffle(corridors)
        start = corridors[:4]
        for side, tile in zip(SIDES, start, strict=True):
            cell = step((0, 0), side)
            fits = [rot for rot, mask in distinct_rotations(TILES[tile].doors) if mask & OPPOSITE[side]]
            st.place(tile, cell, rng.choice(fits))
        stack = [t for t in MODULE_IDS if t not in start]
        rng.shuffle(stack)
        st.display = stack[:3]
        st.stack = stack[3:]
        st.pod_stack = pods_for(len(players))
        st.launched = []
        n = len(players)
        st.loc = [WAKING_ROOM_ID] * (n * TEAM_SIZE)
        st.occ = {WAKING_ROOM_ID: tuple(range(n * TEAM_SIZE))}
        st.aliens = ()
        st.track = []
        st.tokens = {}
        st.scores = [0] * n
        st.activations = [0] * n
        st.escaped = [0] * n
        st.first_player = rng.randrange(n)
        st.active = st.first_player
        st.turn = 0
        st.phase = "alien"
        st.actions_used = 0
        st.moved = ()
        st.core_start = ()
        st.final_turns = None
        st.finished = False
        st.alien_victory = False
        st.end_reason = ""
        st.window = None
        st.hold = None
        st.pending = None
        st.undo_base = None
        st.undo_log = []
        st.rng = rng.state
        game = cls(st)
        events: list[Event] = []
        game._begin_turn(events)
        game._auto(events)
        game._new_base()
        return game

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game stored by :meth:`to_json`."""
        return cls(State.from_json(dict(data)))

    def to_json(self) -> dict[str, Any]:
        """The whole state, RNG and undo snapshot included, as JSON-safe data."""
        return self.st.to_json()

    def clone(self) -> Self:
        """An independent copy: applying actions to one never changes the other."""
        game = type(self)(self.st.copy())
        # The same state has the same answers: the copy starts with what this one worked out
        # (cached values are never changed in place, but for the push memo, which only grows
        # with answers that hold for both).
        game._cache = self._cache.copy()
        game._tell = self._tell
        return game

    def determinize(self, player: str, rng: RandomSource) -> Self:
        """A copy whose hidden parts are redrawn from ``rng``: the order of the face-down Module
        stack (its contents are public) and the game's own random state.

        The stack is put in a canonical order (sorted) before it is shuffled, so the copy depends
        only on the public state and on ``rng``. Argo hides nothing from one player that another
        sees, so ``player`` changes nothing.

        The copy is for looking ahead, so it tells nothing and takes nothing back: its ``apply``
        returns no events, its prompts carry no text, and it keeps no undo snapshot (so it never
        offers ``undo``). Otherwise it plays exactly as the game would; what it leaves out is much
        of the cost of an action that nobody reads."""
        game = type(self)(self.st.copy())
        game._tell = False
        # What does not depend on the stack's order is worked out once for every such copy: the
        # prompt, the phase's options and the push memo.
        cache = self._cache
        kept = game._cache
        for key in _STACK_FREE:
            found = cache.get(key)
            if found is not None:
                kept[key] = found
        st = game.st
        stack = sorted(st.stack)
        rng.shuffle(stack)
        st.stack = stack
        st.rng = rng.randrange(1 << 64)
        st.undo_base = None
        st.undo_log = []
        return game

    @property
    def players(self) -> tuple[str, ...]:
        """Player ids in seat order."""
        return self.st.players

    # ----- contract: prompt, legal actions, notation, view, result --------------------------

    def _seat(self, player: str) -> int | None:
        try:
            return self.st.players.index(player)
        except ValueError:
            return None

    def prompt(self) -> Prompt | None:
        """Who must decide what now; Time Machine holders appear in ``others``."""
        cache = self._cache
        if "prompt" not in cache:
            cache["prompt"] = self._prompt(self._tell)
        prompt: Prompt | None = cache["prompt"]
        return prompt

    def _prompt(self, tell: bool) -> Prompt | None:
        """The prompt; without ``tell``, without its text (for a quiet copy)."""
        st = self.st
        if st.finished:
            return None
        others = tuple(st.players[s] for s in self._open_interrupters())
        label = TM_LABEL if others else ""
        if st.pending is not None:
            p = st.pending
            return Prompt(st.players[p["seat"]], p["text"], others, label)
        if st.hold is not None:
            waiting = tuple(st.players[s] for s in self._waiting())
            text = ""
            if tell:
                names = ", ".join(player_ref(p) for p in waiting)
                text = (
                    f"Time Machine: waiting for {names} to interrupt or pass before "
                    f"{who(st, st.active)} goes on."
                )
            return Prompt(
                None,
                text,
                waiting,
                TM_LABEL,
                timeout=st.tm_wait * 60,
                timer_key=f"hold:{st.turn}:{st.window}:{st.actions_used}",
            )
        return Prompt(st.players[st.active], self._phase_text() if tell else "", others, label)

    def _phase_text(self) -> str:
        st = self.st
        me = who(st, st.active)
        if st.phase == "alien":
            return f"{me}: Alien phase, move an Alien."
        if st.phase == "build":
            return f"{me}: Building phase, add a face-up Module or the top Escape Pod."
        allowed = st.actions_allowed()
        what = "move an Astronaut" if st.turn < st.n else "move an Astronaut or activate a Module"
        return f"{me}: action {st.actions_used + 1} of {allowed}, {what}."

    def legal_actions(self, player: str) -> list[Action]:
        """Every action ``player`` may take now."""
        return list(self._legal_cached(player))

    def _legal_cached(self, player: str) -> list[Action]:
        """legal_actions itself, kept for this state: callers must not change the list."""
        key = ("legal", player)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._legal(player)
        return found

    def _legal(self, player: str) -> list[Action]:
        st = self.st
        seat = self._seat(player)
        if st.finished or seat is None:
            return []
        if st.pending is not None:
            p = st.pending
            if p["seat"] == seat:
                return self._pending_options() + ([dict(CANCEL)] if p["cancel"] else [])
            if seat in self._open_interrupters():
                return self._tm_options(seat)
            return []
        if st.hold is not None:
            if seat in self._waiting():
                return [*self._tm_options(seat), {"type": "pass"}]
            return []
        if seat == st.active:
            return self._phase_cached() + ([dict(UNDO)] if self._can_undo() else [])
        if seat in self._open_interrupters():
            return self._tm_options(seat)
        return []

    def notation(self, action: Action) -> str:
        """The text form of an action (see docs/argo-notation.md)."""
        st = self.st
        return _notation(st, action, viewer(st))

    def choice_words(self, player: str, tokens: tuple[str, ...], option: tuple[str, ...]) -> tuple[str, str]:
        """The label and description of a menu option in plain words (see argo/words.py)."""
        return words.choice_words(self, player, tuple(tokens), tuple(option))

    def harms_actor(self, player: str, events: Sequence[Event]) -> bool:
        """True when ``events`` kill one of ``player``'s own Astronauts."""
        seat = self._seat(player)
        return any(e.kind == "kill" and owner(int(e.data.get("victim", -1))) == seat for e in events)

    def view(self, player: str | None) -> dict[str, Any]:
        """The public state (Argo has no secret but the stack order, which is never shown)."""
        prompt = self.prompt() if self._tell else self._prompt(tell=True)
        return build_view(self.st, prompt, self.result())

    def turn_marker(self) -> tuple[Any, ...]:
        """(turn number as shown, active player, finished): changes exactly when a turn begins."""
        st = self.st
        return (st.turn + 1, st.active, st.finished)

    def result(self) -> Result | None:
        """None while playing; the winners, scores and a summary once the game has ended."""
        st = self.st
        if not st.finished:
            return None
        scores = {p: st.scores[i] for i, p in enumerate(st.players)}
        order = sorted(range(st.n), key=lambda i: (-st.scores[i], -st.activations[i], -st.escaped[i]))
        ranking = tuple(st.players[i] for i in order)
        details = {
            st.players[i]: f"{counted(st.activations[i], 'activation')}, {st.escaped[i]} escaped"
            for i in range(st.n)
        }
        best = max(st.scores)
        alien = st.alien_score()
        if st.alien_victory or alien is None:
            text = "The Alien track is full: the Aliens win and every player loses."
            return Result((), scores, text, ranking, details)
        if alien > best:
            return Result(
                (),
                scores,
                f"The Aliens win with {counted(alien, 'point')} against the best player's {best}: "
                "every player loses.",
                ranking,
                details,
            )
        top = [i for i in range(st.n) if st.scores[i] == best]
        why = ""
        if len(top) > 1:
            most = max(st.activations[i] for i in top)
            top = [i for i in top if st.activations[i] == most]
            why = " after the tie-break on Activations"
            if len(top) > 1:
                most = max(st.escaped[i] for i in top)
                top = [i for i in top if st.escaped[i] == most]
                why = " after the tie-breaks on Activations and escaped Astronauts"
        winners = tuple(st.players[i] for i in top)
        names = " and ".join(who(st, i) for i in top)
        shared = " share the victory" if len(top) > 1 else " wins"
        text = f"{names}{shared} with {counted(best, 'point')}{why} (Aliens: {alien})."
        return Result(winners, scores, text, ranking, details)

    # ----- applying actions -----------------------------------------------------------------

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry out ``action`` for ``player``; IllegalAction (nothing changed) if not legal."""
        # Whatever goes wrong, the game is left as it was. Resolutions work on copies, and the
        # turn bookkeeping below is all this object has changed in place by then (its
        # containers are never changed once a resolution has committed them): no state copy.
        st = self.st
        saved = (
            st.actions_used,
            st.active,
            st.alien_victory,
            st.core_start,
            st.end_reason,
            st.final_turns,
            st.finished,
            st.hold,
            st.moved,
            st.pending,
            st.phase,
            st.turn,
            st.undo_base,
            st.undo_log,
            st.window,
        )  # the fields of _TURN_FIELDS, in that order
        try:
            events = self._apply(player, action)
        except BaseException:
            for name, value in zip(_TURN_FIELDS, saved, strict=True):
                setattr(st, name, value)
            self.st = st
            self._clear()
            raise
        return events if self._tell else []

    def _apply(self, player: str, action: Action) -> list[Event]:
        st = self.st
        if st.finished:
            raise IllegalAction("The game is over.")
        if player == SYSTEM:
            if action.get("type") == "timeout" and st.hold is not None:
                timeout = [Event("Time is up for the Time Machine.", kind="timemachine")]
                self._end_hold(timeout)
                self._auto(timeout)
                self._new_base()
                return timeout
            raise IllegalAction("Nothing is waiting for a timeout now.")
        if not _listed(action, self._legal_cached(player)):
            raise IllegalAction(self._refusal(player, action))
        seat = self._seat(player)
        assert seat is not None
        kind: str = action["type"]
        if kind == "undo":
            return self._undo(seat)
        active_before, turn_before = st.active, st.turn
        was_top = st.pending is None
        self._revealed = False
        barrier = seat != st.active
        events: list[Event] = []
        if kind == "cancel":
            p = st.pending
            assert p is not None
            st.pending = None
            self._clear()
            events.append(Event(f"{who(st, seat)} takes the unfinished choice back.", kind="cancel"))
            if not p["tm"]:
                self._drop_pending_log()
            self._auto(events)
            if seat != self.st.active:
                self._new_base()
            return events
        if kind == "pass" and st.hold is not None:
            st.hold = [*st.hold, seat]
            self._clear()
            events.append(Event(f"{who(st, seat)} does not use the Time Machine.", kind="timemachine"))
            if not self._waiting():
                self._end_hold(events)
            self._auto(events)
            self._new_base()
            return events
        if kind == "timemachine":
            if st.pending is not None and st.pending["cancel"]:
                events.append(
                    Event(
                        f"{who(st, st.active)}'s unfinished choice is cancelled by the Time Machine.",
                        kind="cancel",
                    )
                )
                self._drop_pending_log()
            self._start(seat, action, events, tm=True)
        elif st.pending is not None:
            p = st.pending
            st.pending = {**p, "choices": [*p["choices"], action]}
            self._clear()
            self._resume(events)
        else:
            self._start(seat, action, events, tm=False)
        self._auto(events)
        st = self.st
        if barrier or self._revealed or st.turn != turn_before or st.active != active_before:
            self._new_base()
        elif not self.st.finished and self._tell:
            self.st.undo_log = [*self.st.undo_log, [action, was_top]]
        return events

    def _refusal(self, player: str, action: Action) -> str:
        st = self.st
        seat = self._seat(player)
        if seat is None:
            return "You are not playing in this game."
        if not self.legal_actions(player):
            if seat != st.active:
                return f"It is not your turn: {who(st, st.active)} is playing."
            return "You have nothing to decide right now; please wait."
        reason = self._reason(seat, action)
        try:
            text = f"'{self.notation(action)}'"
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            text = "That"
        return f"{text} is not a legal choice for you right now{reason}."

    def _reason(self, seat: int, action: Action) -> str:
        """A hint on why ``action`` is refused (empty if none applies)."""
        st = self.st
        kind = action.get("type") if isinstance(action, dict) else None
        if st.pending is not None and st.pending["seat"] == seat:
            return ": finish or cancel the choice in progress first"
        if st.hold is not None:
            return ": the game is waiting for Time Machine decisions"
        if seat != st.active:
            return ": you may only use the Time Machine out of turn"
        expected = {
            "alien": "move an Alien",
            "build": "build a tile",
            "actions": "move an Astronaut or activate a Module",
        }.get(st.phase, "")
        wrong_build = kind == "build" and st.phase != "build"
        wrong_activate = kind == "activate" and st.phase != "actions"
        if wrong_build or wrong_activate:
            return f": now you must {expected}"
        if kind == "activate" and st.turn < st.n:
            return ": in the first round the only action is a Move"
        if kind == "move" and action.get("astronaut") in st.moved:
            return ": that Astronaut has already made a Move this turn"
        if kind == "undo":
            return ": there is nothing of yours to take back since the last barrier"
        return ""

    def _clear(self) -> None:
        self._cache.clear()

    def _clear_moment(self) -> None:
        """Forget what depends on the Time Machine moment (``hold``, ``window``) after it changed,
        keeping the phase's options and the push memo: they depend on the board and phase alone."""
        cache = self._cache
        phase = cache.get("phase")
        memo = cache.get("memo")
        cache.clear()
        if phase is not None:
            cache["phase"] = phase
        if memo is not None:
            cache["memo"] = memo

    def _memo(self) -> dict[Any, bool]:
        """Answers of push-chain tests for the present state (see movement.moves_for)."""
        memo = self._cache.get("memo")
        if memo is None:
            memo = self._cache["memo"] = {}
        return memo

    # ----- resolution of root actions and their decisions -----------------------------------

    def _start(self, seat: int, root: Action, events: list[Event], tm: bool, cancel: bool = True) -> None:
        self.st.pending = {"seat": seat, "root": root, "choices": [], "tm": tm, "cancel": cancel, "text": ""}
        self._clear()
        self._resume(events)

    def _resume(self, events: list[Event]) -> None:
        st = self.st
        p = st.pending
        assert p is not None
        choices = list(p["choices"])
        while True:
            try:
                ctx = resolution.run(st, p["seat"], p["root"], choices, p["tm"], self._tell)
            except effects.NeedDecision as need:
                options = self._filter(need, p, choices)
                if not options:
                    raise RuntimeError(f"no way to complete {p['root']} after {choices}") from None
                if len(options) == 1:
                    choices.append(options[0])
                    continue
                st.pending = {**p, "choices": choices, "text": need.text}
                self._clear()
                self._cache["pending"] = options
                return
            break
        new = ctx.st
        new.pending = None
        self.st = new
        self._clear()
        events.extend(ctx.events)
        self._revealed = self._revealed or ctx.revealed
        self._after_commit(p, events)

    def _filter(self, need: effects.NeedDecision, p: dict[str, Any], choices: list[Action]) -> list[Action]:
        if need.safe or need.checked:
            return need.options
        if need.feasible is not None:
            return need.feasible
        return [o for o in need.options if resolution.feasible(self.st, p["seat"], p["root"], [*choices, o])]

    def _pending_options(self) -> list[Action]:
        if "pending" not in self._cache:
            p = self.st.pending
            assert p is not None
            try:
                resolution.run(self.st, p["seat"], p["root"], list(p["choices"]), p["tm"], tell=False)
                options: list[Action] = []
            except effects.NeedDecision as need:
                options = self._filter(need, p, list(p["choices"]))
            self._cache["pending"] = options
        return list(self._cache["pending"])

    def _after_commit(self, p: dict[str, Any], events: list[Event]) -> None:
        st = self.st
        if st.finished:
            return
        if p["tm"]:
            if st.tm_wait > 0:
                st.hold = None
                self._maybe_hold()
            return
        if not p["cancel"]:
            return  # the engine's own step (Aliens that cannot move still kill)
        st.window = None
        st.hold = None
        root = p["root"]
        kind: str = root["type"]
        action_phase = kind == "activate" or (kind == "move" and "astronaut" in root)
        if action_phase and st.actions_used == 1 and st.actions_allowed() == 2:
            self._clear()
            if self._phase_cached():  # there is a second action to come
                st.window = "between"
                self._maybe_hold()

    # ----- turn flow ------------------------------------------------------------------------

    def _begin_turn(self, events: list[Event]) -> None:
        st = self.st
        seat = st.active
        st.phase = "alien"
        st.actions_used = 0
        st.moved = ()
        st.window = None
        st.hold = None
        if not any(movement.movable(st, a) for a in st.team(seat)):
            self._finish(events, f"{who(st, seat)} has no Astronaut left who can move.")
            return
        st.core_start = tuple(
            a for a in st.team(seat) if st.loc[a] >= 0 and TILES[st.loc[a]].kind == CORE_ROOM
        )
        if self._tell:  # the one event of every turn: not even put together for a quiet copy
            events.append(
                Event(
                    f"Turn {st.turn + 1}: {who(st, seat)} plays.",
                    kind="turn",
                    data={"turn": st.turn, "player": st.players[seat]},
                )
            )
        st.window = "start"
        self._clear()
        self._maybe_hold()

    def _finish(self, events: list[Event], reason: str) -> None:
        st = self.st
        st.finished = True
        st.end_reason = reason
        st.phase = "ended"
        st.pending = None
        st.window = None
        st.hold = None
        self._clear()
        events.append(Event(f"The game ends: {reason}", kind="end", data={"reason": reason}))

    def _auto(self, events: list[Event]) -> None:
        """Run every step that needs no decision, until someone must decide or the game ends."""
        while True:
            st = self.st
            if st.finished or st.hold is not None or st.pending is not None:
                return
            if st.phase == "alien":
                if not st.aliens:
                    st.phase = "build"
                    self._clear()
                    continue
                if self._phase_cached():
                    return
                events.append(Event("No Alien can move.", kind="alien"))
                self._start(st.active, {"type": "kills"}, events, tm=False, cancel=False)
                continue
            if st.phase == "build":
                if self._phase_cached():
                    return
                if building.supply_left(st):
                    events.append(Event("No tile can be placed anywhere: building is over.", kind="build"))
                st.phase = "actions"
                if st.final_turns is None:
                    st.final_turns = st.n + 1
                    events.append(
                        Event(
                            "Nothing is left to build: this turn ends, then everyone plays one more turn.",
                            kind="final",
                        )
                    )
                self._clear()
                continue
            if st.phase == "actions":
                if st.actions_used < st.actions_allowed() and self._phase_cached():
                    return
                self._end_turn(events)
                continue
            return

    def _end_turn(self, events: list[Event]) -> None:
        st = self.st
        if st.core_start:  # only the Core Room acts at the end of a turn
            ctx = resolution.run(st, st.active, {"type": "endturn"}, [], tell=self._tell)
            self.st = st = ctx.st
            events.extend(ctx.events)
        self._clear()
        if st.finished:
            return
        if st.final_turns is not None:
            st.final_turns -= 1
            if st.final_turns <= 0:
                self._finish(events, "the last tile was built and everyone has played one more turn.")
                return
        st.active = (st.active + 1) % st.n
        st.turn += 1
        self._begin_turn(events)

    def _phase_cached(self) -> list[Action]:
        """The active player's options in this phase, kept for this state: callers must not
        change the list."""
        if "phase" not in self._cache:
            st = self.st
            if st.phase == "alien":
                options = legal.alien_moves(st)
            elif st.phase == "build":
                options = building.build_options(st)
            elif st.phase == "actions" and st.actions_used < st.actions_allowed():
                options = []
                memo = self._memo()
                for aid in st.team(st.active):
                    if aid not in st.moved:
                        options.extend(movement.moves_for(st, aid, memo))
                if st.turn >= st.n:
                    options.extend(legal.activation_options(st, st.active, memo))
            else:
                options = []
            self._cache["phase"] = options
        found: list[Action] = self._cache["phase"]
        return found

    # ----- Time Machine ---------------------------------------------------------------------

    def _tm_options(self, seat: int) -> list[Action]:
        key = ("tm", seat)
        if key not in self._cache:
            st = self.st
            if st.window is None or seat == st.active:
                self._cache[key] = []
            else:
                self._cache[key] = legal.time_machine_options(st, seat, self._memo())
        return list(self._cache[key])

    def _eligible(self) -> list[int]:
        """Seats that could interrupt with the Time Machine at the present moment."""
        st = self.st
        if st.window is None:
            return []
        tm = modules.time_machine_tile(st)
        if tm is None:
            return []
        seats = sorted({a // TEAM_SIZE for a in st.occ.get(tm, ())} - {st.active})
        return [s for s in seats if self._tm_options(s)]

    def _open_interrupters(self) -> list[int]:
        """Seats that may interrupt right now without a hold (Time Machine, no waiting)."""
        st = self.st
        if st.hold is not None or st.window is None:
            return []
        if st.pending is not None and (st.pending["tm"] or not st.pending["cancel"]):
            return []
        return self._eligible()

    def _waiting(self) -> list[int]:
        st = self.st
        if st.hold is None:
            return []
        return [s for s in self._eligible() if s not in st.hold]

    def _maybe_hold(self) -> None:
        st = self.st
        if st.tm_wait > 0 and st.window is not None:
            st.hold = []
            self._clear_moment()
            if not self._waiting():
                st.hold = None
                st.window = None
            self._clear_moment()

    def _end_hold(self, events: list[Event]) -> None:
        st = self.st
        st.hold = None
        st.window = None
        self._clear_moment()
        events.append(Event(f"{who(st, st.active)} goes on.", kind="timemachine"))

    # ----- undo -----------------------------------------------------------------------------

    def _new_base(self) -> None:
        st = self.st
        st.undo_base = None
        st.undo_log = []
        if self._tell:  # a quiet copy takes nothing back
            st.undo_base = st.copy()  # a snapshot: nothing changes it; to_json writes it out

    def _drop_pending_log(self) -> None:
        log = self.st.undo_log
        while log and not log[-1][1]:
            log = log[:-1]
        if log:
            log = log[:-1]
        self.st.undo_log = log

    def _can_undo(self) -> bool:
        st = self.st
        return st.pending is None and st.hold is None and any(top for _, top in st.undo_log)

    def _undo(self, seat: int) -> list[Event]:
        st = self.st
        log = st.undo_log
        cut = max(i for i, (_, top) in enumerate(log) if top)
        base = st.undo_base
        assert base is not None
        replay = type(self)(base.copy() if isinstance(base, State) else State.from_json(base))
        replay.st.undo_base = base
        replay.st.undo_log = []
        for action, _ in log[:cut]:
            replay.apply(st.players[seat], action)
        before = list(st.scores)
        self.st = replay.st
        self._clear()
        delta = {
            self.st.players[i]: self.st.scores[i] - before[i]
            for i in range(self.st.n)
            if self.st.scores[i] != before[i]
        }
        return [
            Event(
                f"{who(self.st, seat)} takes back their last action.",
                kind="undo",
                data={"points_delta": delta},
            )
        ]
