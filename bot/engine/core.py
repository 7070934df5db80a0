"""The engine contract shared by every game: Game, Prompt, Event, Result, IllegalAction, Rng.

A game is a pure, deterministic state machine: a function of (players, seed, options, actions).
Engines never do I/O, never import discord, asyncio or PIL, and never read the clock.

Conventions every engine follows (the table host and the cogs rely on them):

* An action is a JSON-safe dict with at least a ``"type"`` key. ``legal_actions(player)``
  enumerates every action that player may take now; ``apply`` accepts exactly those.
* ``notation(action)`` is a short text form made of space-separated tokens, unique among the
  legal actions of that moment (e.g. ``"move Grunt C4"``). The Discord UI builds its step-by-step
  menus from these tokens, and keyboard players type them. A token is at most 80 characters.
* Multi-step decisions offer ``{"type": "cancel"}`` (notation ``"cancel"``) while nothing has
  committed, and ``{"type": "undo"}`` (notation ``"undo"``) when the engine can take back the
  player's last action. Both are ordinary legal actions.
* ``view(None)`` has at least: ``"game"`` (name), ``"players"`` (a list of dicts in seat order,
  each with ``"id"`` and ``"colour"``), ``"active"`` (the player whose turn it is, or None) and
  ``"finished"`` (bool). Everything else is the game's own.
* Text meant for players names a player with :func:`player_ref`; the host replaces those
  references with display names (see :func:`format_text`).
* When ``prompt().timeout`` is set, the host applies :data:`TIMEOUT` as :data:`SYSTEM` once that
  many seconds pass without another action. The engine decides what a timeout means.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self

Action = dict[str, Any]
"""A JSON-safe dict describing one decision; always has a ``"type"`` key."""

SYSTEM = "system"
"""The actor id the host uses for actions no player takes (timeouts)."""

TIMEOUT: Action = {"type": "timeout"}
"""The action the host applies as :data:`SYSTEM` when a prompt's timeout runs out."""

CANCEL: Action = {"type": "cancel"}
UNDO: Action = {"type": "undo"}


class IllegalAction(Exception):
    """An action the rules do not allow now; ``str(exc)`` is a sentence a player can read."""


# Prompt and Event are built on every action (a hot path in random play and the benches), so they
# are slotted but not frozen: frozen dataclasses pay a setattr call per field. Treat them as values.


@dataclass(slots=True)
class Prompt:
    """Who must decide what now.

    ``player`` must decide (``None`` when the game only waits for ``others`` or a timer).
    ``others`` are further players who may act now out of turn (e.g. Argo's Time Machine);
    ``others_label`` names that chance for a button ("Time Machine").
    ``private`` means the decider's legal actions reveal that player's secrets (e.g. which
    Items they hold), so the UI shows them only to that player, never on a public message.
    ``secret_verbs`` narrows that down for the main decider: when set, only the actions whose
    notation begins with one of these verbs reveal a secret (e.g. ``use`` an Item); the others
    may be shown publicly, and ``secret_label`` names the private choice for a button ("Use an
    Item"). The UI must then offer that button whenever the prompt says so, whatever is usable,
    so that the public message tells nothing the public view does not.
    ``timeout`` (seconds) asks the host to apply :data:`TIMEOUT` when nobody acts in time;
    consecutive prompts with the same non-empty ``timer_key`` share one running timeout (e.g. a
    wait that goes on while some of the awaited players answer).
    """

    player: str | None
    text: str
    others: tuple[str, ...] = ()
    others_label: str = ""
    timeout: int | None = None
    private: bool = False
    timer_key: str = ""
    secret_verbs: tuple[str, ...] = ()
    secret_label: str = ""

    def deciders(self) -> tuple[str, ...]:
        """Every player who may act at this moment, the main decider first."""
        main = (self.player,) if self.player is not None else ()
        return main + tuple(p for p in self.others if p != self.player)


@dataclass(slots=True)
class Event:
    """Something that happened, in plain words, for an audience.

    ``to`` is ``None`` for a public event, or the one player allowed to see it (a secret).
    ``kind`` is a short machine tag ("kill", "score", "peek", ...); ``data`` holds details.
    """

    text: str
    to: str | None = None
    kind: str = "info"
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        """True when every player may see this event."""
        return self.to is None


@dataclass(frozen=True)
class Result:
    """The final outcome: winners (empty if nobody won, e.g. an Alien victory), scores, summary.

    ``ranking`` lists every player best first, ties broken by the game's rules (empty: by
    winners, then score); ``details`` says per player what decided ties (e.g. "3 activations").
    """

    winners: tuple[str, ...]
    scores: dict[str, int]
    text: str
    ranking: tuple[str, ...] = ()
    details: dict[str, str] = field(default_factory=dict)

    def ranked(self) -> list[str]:
        """Every player best first (the engine's ranking, else winners first, then by score)."""
        if self.ranking:
            return list(self.ranking)
        return sorted(self.scores, key=lambda p: (p not in self.winners, -self.scores[p]))

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict of this result."""
        return {
            "winners": list(self.winners),
            "scores": dict(self.scores),
            "text": self.text,
            "ranking": self.ranked(),
            "details": dict(self.details),
        }


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")
"""A whole number as people type it: ASCII digits only (``int()`` also reads "٣" and "３"), and
no more than a 64-bit integer holds."""


def whole_number(text: str, minimum: int = -(2**63), maximum: int = 2**63 - 1) -> int | None:
    """The whole number ``text`` writes (ASCII digits, an optional minus sign, surrounding spaces
    ignored) if it lies in [``minimum``, ``maximum``], else None: any other digit ("²", "٣"), a
    number too long for the database, or anything else is no number."""
    text = text.strip()
    if _WHOLE_NUMBER.fullmatch(text) is None:
        return None
    value = int(text)
    return value if minimum <= value <= maximum else None


@dataclass(frozen=True)
class OptionSpec:
    """One table option a game accepts at ``/game new`` (e.g. ``difficulty=hard``).

    With ``choices`` the value is one of them; otherwise it is an int in [``minimum``, ``maximum``].
    """

    name: str
    description: str
    default: str | int
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0

    def parse(self, raw: str) -> str | int:
        """The value ``raw`` stands for, or IllegalAction with a sentence saying what is allowed."""
        text = raw.strip().lower()
        if self.choices:
            for choice in self.choices:
                if choice.lower() == text:
                    return choice
            raise IllegalAction(f"{self.name} must be one of: {', '.join(self.choices)}.")
        value = whole_number(text)
        if value is None:
            raise IllegalAction(f"{self.name} must be a whole number.")
        if not self.minimum <= value <= self.maximum:
            raise IllegalAction(f"{self.name} must be between {self.minimum} and {self.maximum}.")
        return value


def parse_options(specs: Sequence[OptionSpec], text: str) -> dict[str, str | int]:
    """Options from ``"name=value name=value"`` text, defaults filled in; IllegalAction if bad."""
    by_name = {spec.name.lower(): spec for spec in specs}
    values: dict[str, str | int] = {spec.name: spec.default for spec in specs}
    for item in text.replace(",", " ").split():
        name, sep, raw = item.partition("=")
        spec = by_name.get(name.lower())
        if spec is None:
            known = ", ".join(s.name for s in specs) or "none"
            raise IllegalAction(f"Unknown option '{shorten(name, 40)}'. Options: {known}.")
        if not sep or not raw:
            raise IllegalAction(f"Write options as name=value, e.g. {spec.name}={spec.default}.")
        values[spec.name] = spec.parse(raw)
    return values


ECHO_LIMIT = 80
"""How much of a typed text is repeated back in a refusal."""


def counted(count: int, one: str, many: str | None = None) -> str:
    """``count`` with its noun in the right number: ``counted(1, "Emerald")`` is "1 Emerald",
    ``counted(2, "Emerald")`` "2 Emeralds" (``many`` for an irregular plural)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def with_article(word: str) -> str:
    """``word`` after the indefinite article that fits its sound: "an Argo", "a Pebbles"."""
    return ("an " if word[:1].lower() in "aeiou" and word[:1] else "a ") + word


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis), for echoing user input back."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_PLAYER_REF = re.compile(r"<p:([^<>\s]+)>")


def player_ref(player: str) -> str:
    """A reference to a player inside event or prompt text; the host turns it into a name."""
    return f"<p:{player}>"


def format_text(text: str, names: Mapping[str, str]) -> str:
    """``text`` with every player reference replaced by that player's name from ``names``."""
    return _PLAYER_REF.sub(lambda m: names.get(m.group(1), m.group(1)), text)


class Rng:
    """A small seeded generator (SplitMix64) whose whole state is one int, so it serialises."""

    _MASK = (1 << 64) - 1

    def __init__(self, state: int) -> None:
        self.state = state & self._MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & self._MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform int in [0, n)."""
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[Any]) -> Any:
        """One element of a non-empty sequence."""
        return items[self.randrange(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]


class RandomSource(Protocol):
    """What :meth:`Game.determinize` draws from: :class:`Rng` and ``random.Random`` both fit."""

    def randrange(self, n: int, /) -> int: ...

    def shuffle(self, items: list[Any], /) -> None: ...


@dataclass(frozen=True)
class HelpPage:
    """One page of ``/game rules``: its title, its text (Discord markdown, short) and the group
    it is listed under on the overview ("Modules", "Items", ...)."""

    title: str
    text: str
    group: str = ""

    def message(self, game: str) -> str:
        """The page as the bot shows it: a heading naming the game, then the text."""
        return f"📖 **{game} rules · {self.title}**\n{self.text}"


def help_matches(pages: Mapping[str, HelpPage], typed: str) -> list[str]:
    """The topics of ``pages`` matching what a user typed, best first: the exact topic or title,
    then topics or titles that begin with it, then those containing it anywhere (title, topic or
    group). Everything, in page order, when nothing is typed."""
    text = " ".join(typed.lower().replace("-", " ").split())
    if not text:
        return list(pages)

    def words(topic: str, page: HelpPage) -> tuple[str, str, str]:
        return topic.replace("-", " "), page.title.lower().replace("-", " "), page.group.lower()

    exact, start, inside = [], [], []
    for topic, page in pages.items():
        key, title, group = words(topic, page)
        if text in (key, title):
            exact.append(topic)
        elif key.startswith(text) or title.startswith(text):
            start.append(topic)
        elif text in key or text in title or text in group:
            inside.append(topic)
    return exact + start + inside


class Game(ABC):
    """The contract every game engine implements (see the module docstring for conventions)."""

    name: ClassVar[str]
    """Display name, also the registry key ("Argo")."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    rules_summary: ClassVar[str] = ""
    """A few lines for ``/game rules``."""
    score_label: ClassVar[str] = "points"
    """What ``Result.scores`` count, for the final ranking ("points", "Fragments")."""
    score_label_one: ClassVar[str] = "point"
    """``score_label`` for a score of exactly 1 ("point", "Fragment")."""

    @classmethod
    def help_topics(cls) -> dict[str, HelpPage]:
        """The pages of ``/game rules`` by topic (lower-case, hyphenated), in the order the
        overview lists them; ``"overview"``, when present, is shown when no topic is asked for.
        Empty by default: the host then shows :attr:`rules_summary`."""
        return {}

    @classmethod
    @abstractmethod
    def new(cls, players: Sequence[str], seed: int, options: Mapping[str, Any]) -> Self:
        """A fresh game for these players (opaque ids, in seat order)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game stored by :meth:`to_json`, exactly."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state (RNG included) as a JSON-safe dict."""

    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """The player ids in seat order."""

    @abstractmethod
    def prompt(self) -> Prompt | None:
        """Who must decide what now, or None once the game has ended."""

    @abstractmethod
    def legal_actions(self, player: str) -> list[Action]:
        """Every action ``player`` may take now (empty if none)."""

    @abstractmethod
    def apply(self, player: str, action: Action) -> list[Event]:
        """Perform ``action`` for ``player``; IllegalAction (and no change) if not allowed."""

    @abstractmethod
    def view(self, player: str | None) -> dict[str, Any]:
        """JSON-safe state: public for None (no secret at all), else plus that player's secrets."""

    @abstractmethod
    def result(self) -> Result | None:
        """None while the game runs; the final result once it has ended."""

    @abstractmethod
    def notation(self, action: Action) -> str:
        """The short text form of an action (space-separated tokens)."""

    def clone(self) -> Self:
        """An independent copy of this game: applying actions to one never changes the other.

        Engines override this with a fast copy; the default goes through JSON."""
        return type(self).from_json(self.to_json())

    def determinize(self, player: str, rng: RandomSource) -> Self:
        """A copy in which everything ``player`` cannot see is redrawn at random from ``rng``.

        The copy is a possible game as far as ``player`` knows: consistent with their view and
        the public history (their own hidden hand and peeks stay). Its result depends only on
        what ``player`` can see and on ``rng``, never on the hidden truth, so two games that look
        the same to ``player`` give the same copy for the same ``rng`` state. The default is for
        games with no hidden information: a plain :meth:`clone`."""
        return self.clone()

    def turn_marker(self) -> tuple[Any, ...]:
        """A small value that changes exactly when a new turn begins (or the game ends).

        The host compares it before and after an action; engines override it with something
        cheaper than the default, which builds the public view."""
        view = self.view(None)
        return (view.get("turn"), view.get("active"), view.get("finished"))

    def choice_words(self, player: str, tokens: tuple[str, ...], option: tuple[str, ...]) -> tuple[str, str]:
        """The label and a one-line description of choosing ``option`` (one or more notation
        tokens) after ``tokens`` were chosen, in words a player knows ("Grunt → W1 Core Room").

        Menus show these instead of the tokens; the notation stays for typing and logs. Only
        what ``player`` may see is used: public information, and ``player``'s own secrets (their
        menus naming them are shown to them alone). Engines override this; the default is the
        tokens themselves and no description."""
        return " ".join(option), ""

    def secrets_text(self, player: str) -> str:
        """What only ``player`` knows (their hidden hand, what they peeked), in plain words."""
        return ""

    def harms_actor(self, player: str, events: Sequence[Event]) -> bool:
        """True when ``events``, what an action of ``player`` just produced, cost ``player`` a
        piece of their own (Argo: one of their Astronauts killed). A host never plays such an
        action for a person on its own, even as their only choice: it asks. Default: never."""
        return False

    def parse(self, player: str, text: str) -> Action:
        """The legal action of ``player`` whose notation is ``text`` (case and spacing ignored)."""
        wanted = text.lower().split()
        legal = [(self.notation(action), action) for action in self.legal_actions(player)]
        for notation, action in legal:
            if notation.lower().split() == wanted:
                return action
        typed = shorten(" ".join(text.split()))
        if not legal:
            raise IllegalAction(f"'{typed}' is not a legal choice: you have nothing to decide right now.")
        # Point at the legal choices sharing the longest start with what was typed.
        for size in range(len(wanted), -1, -1):
            close = [n for n, _ in legal if n.lower().split()[:size] == wanted[:size]]
            if close:
                break
        shown = list(dict.fromkeys(" ".join(n.split()[: size + 1]) for n in close))
        more = f" (and {len(shown) - 8} more)" if len(shown) > 8 else ""
        raise IllegalAction(
            f"'{typed}' is not a legal choice for you right now. "
            f"Legal choices begin: {', '.join(shown[:8])}{more}."
        )
