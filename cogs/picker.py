"""Choosing an action step by step from the tokens of its notation (no Discord objects here).

The legal actions of a player form a tree of notation tokens ("move" → "Grunt" → "C4").
A step offers the next choices; an option may hold several tokens separated by single spaces
("Grunt C4": steps are merged while they fit one select, see :class:`ActionTree`), or be
:data:`DONE`. A position in that tree is a *path*: the index of the option chosen at each step.
Paths are stable for one state version, so components can carry them in their custom ids.
:func:`choice_tree` says which actions the public turn message and a private picker offer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.engine.core import Action, Game, Prompt

DONE = "✔ done"
"""The option that stops at the tokens chosen so far, when they already form an action."""

PAGE_SIZE = 25
MERGE_UP_TO = PAGE_SIZE
"""Steps are merged while their options fit one select menu."""


class StalePath(Exception):
    """A path that does not lead anywhere among the current legal actions."""


@dataclass(frozen=True)
class Step:
    """A point in the choice: tokens chosen so far and the options on (each one or more tokens)."""

    path: tuple[int, ...]
    tokens: tuple[str, ...]
    options: tuple[str, ...]

    def page(self, number: int) -> tuple[int, list[str]]:
        """The first index and the options shown on page ``number`` of a select menu."""
        start = number * PAGE_SIZE
        return start, list(self.options[start : start + PAGE_SIZE])

    @property
    def pages(self) -> int:
        """How many select pages the options fill."""
        return max(1, -(-len(self.options) // PAGE_SIZE))


_Option = tuple[tuple[str, ...], bool]
"""An option of a step: the tokens it leads to, and whether they are an action (else a step)."""


class ActionTree:
    """The legal actions of one player at one moment, arranged by notation tokens.

    A step shows the choices below the tokens chosen so far. Its options are the next tokens,
    and each of them is replaced by every action below it, spelled out ("Grunt N1": a piece and
    its destination in one option), while the options still fit one select menu
    (:data:`MERGE_UP_TO`), the smallest first: an option is either one whole action or one token
    that leads to a further step (never a mix of depths, which reads badly). A single way on
    never takes a click. ``keep`` (a predicate on actions) leaves the other actions out, e.g.
    those a public message must not show. See ``docs/commands.md`` for the figures.
    """

    def __init__(self, game: Game, player: str, keep: Callable[[Action], bool] | None = None) -> None:
        self._entries: list[tuple[tuple[str, ...], Action]] = [
            (tuple(game.notation(action).split()), action)
            for action in game.legal_actions(player)
            if keep is None or keep(action)
        ]
        self._complete = {tokens: action for tokens, action in self._entries}
        children: dict[tuple[str, ...], dict[str, None]] = {}
        below: dict[tuple[str, ...], int] = {}
        for tokens, _ in self._entries:
            for depth in range(len(tokens) + 1):
                below[tokens[:depth]] = below.get(tokens[:depth], 0) + 1
                if depth < len(tokens):
                    children.setdefault(tokens[:depth], {}).setdefault(tokens[depth], None)
        self._children = {node: tuple(nexts) for node, nexts in children.items()}
        self._count = below
        """How many actions lie at or below each node."""
        self._steps: dict[tuple[str, ...], tuple[tuple[str, ...], tuple[_Option, ...]]] = {}

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def actions(self) -> list[Action]:
        """The actions this tree offers, in legal order."""
        return [action for _, action in self._entries]

    def _chain(self, node: tuple[str, ...]) -> tuple[str, ...]:
        """``node`` followed along single ways on that are not actions themselves."""
        while node not in self._complete:
            nexts = self._children.get(node, ())
            if len(nexts) != 1:
                break
            node = (*node, nexts[0])
        return node

    def _below(self, node: tuple[str, ...]) -> tuple[_Option, ...]:
        found = []
        for token in self._children.get(node, ()):
            child = self._chain((*node, token))
            found.append((child, child not in self._children))
        return tuple(found)

    def _open(self, option: _Option) -> tuple[_Option, ...]:
        """The options one token further than ``option`` (the action itself first, if it is one)."""
        node, final = option
        if final:
            return (option,)
        below = self._below(node)
        return ((node, True), *below) if node in self._complete else below

    def _leaves(self, option: _Option) -> tuple[_Option, ...]:
        """Every action at or below ``option``, as final options in legal order."""
        if option[1]:
            return (option,)
        return tuple(leaf for o in self._open(option) for leaf in self._leaves(o))

    def _merge(self, options: tuple[_Option, ...], room: int) -> tuple[_Option, ...]:
        """``options`` with whole subtrees opened (every action below spelled out) while they fit
        ``room``, the smallest first (the earliest on ties), each in its place."""
        while True:
            best: tuple[int, int] | None = None
            for index, option in enumerate(options):
                if option[1]:
                    continue
                growth = self._count[option[0]] - 1
                if len(options) + growth <= room and (best is None or growth < best[0]):
                    best = (growth, index)
            if best is None:
                return options
            index = best[1]
            options = (*options[:index], *self._leaves(options[index]), *options[index + 1 :])

    def _step_at(self, node: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[_Option, ...]]:
        """Where the step reached at ``node`` starts (a lone way on is entered) and its options."""
        cached = self._steps.get(node)
        if cached is not None:
            return cached
        start = node
        while True:
            done = start in self._complete  # the DONE option takes a place
            options = self._merge(self._below(start), MERGE_UP_TO - done)
            if len(options) == 1 and not options[0][1] and not done:
                start = options[0][0]
                continue
            break
        self._steps[node] = (start, options)
        return start, options

    def walk(self, path: Sequence[int]) -> Step | Action:
        """Follow ``path``: the Step reached, or the action it completes. StalePath if invalid."""
        if not self._entries:
            raise StalePath()
        tokens, options = self._step_at(())
        for depth, index in enumerate(path):
            last = depth == len(path) - 1
            if tokens in self._complete:
                if index == 0:
                    if not last:
                        raise StalePath()
                    return self._complete[tokens]
                index -= 1
            if not 0 <= index < len(options):
                raise StalePath()
            node, final = options[index]
            if final:
                if not last:
                    raise StalePath()
                return self._complete[node]
            tokens, options = self._step_at(node)
        labels = tuple(" ".join(node[len(tokens) :]) for node, _ in options)
        return Step(tuple(path), tokens, (DONE, *labels) if tokens in self._complete else labels)

    def path_to(self, action: Action) -> tuple[int, ...]:
        """The path that chooses ``action`` (ValueError if this tree does not offer it)."""
        target = next((tokens for tokens, offered in self._entries if offered == action), None)
        if target is None:
            raise ValueError("not an action of this tree")
        path: list[int] = []
        tokens, options = self._step_at(())
        while True:
            shift = 1 if tokens in self._complete else 0
            if shift and target == tokens:
                return (*path, 0)
            index = next(
                i
                for i, (node, final) in enumerate(options)
                if target[: len(node)] == node and (not final or node == target)
            )
            node, final = options[index]
            path.append(index + shift)
            if final:
                return tuple(path)
            tokens, options = self._step_at(node)

    def matching(self, text: str, limit: int = 25) -> list[str]:
        """Notations for autocomplete: those starting with ``text`` first, then those containing
        every word of it, each group in legal order."""
        typed = " ".join(text.lower().split())
        words = typed.split()
        notations = [" ".join(tokens) for tokens, _ in self._entries]
        starting = [n for n in notations if n.lower().startswith(typed)]
        containing = [n for n in notations if n not in starting and all(word in n.lower() for word in words)]
        return (starting + containing)[:limit]


def encode_path(path: Sequence[int]) -> str:
    """A path as it appears in a custom id ("3.0.12"; empty for the root)."""
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> tuple[int, ...]:
    """The path written by :func:`encode_path`; StalePath if ``text`` is not one."""
    try:
        return tuple(int(part) for part in text.split(".")) if text else ()
    except ValueError:
        raise StalePath() from None


def is_secret(prompt: Prompt | None, notation: str) -> bool:
    """Whether an action of the prompt's main decider, written ``notation``, is one of its
    secret choices (``Prompt.secret_verbs``): those are offered only in the private picker."""
    if prompt is None or not prompt.private or not prompt.secret_verbs:
        return False
    verb = notation.split(" ", 1)[0]
    return verb in prompt.secret_verbs


def split_choices(prompt: Prompt | None, player: str) -> bool:
    """Whether ``player``'s choices are split: public ones on the turn message, secret ones in
    the private picker opened by the prompt's ``secret_label`` button."""
    return prompt is not None and prompt.private and bool(prompt.secret_verbs) and player == prompt.player


def choice_tree(game: Game, player: str, *, private: bool) -> ActionTree | None:
    """The actions ``player`` chooses from on the public turn message (``private`` False) or in
    their private picker (True); None when that place offers them nothing by design (a private
    prompt has no public choices unless they are split)."""
    prompt = game.prompt()
    if split_choices(prompt, player):
        secret = private

        def keep(action: Action) -> bool:
            return is_secret(prompt, game.notation(action)) == secret

        return ActionTree(game, player, keep)
    if not private and prompt is not None and prompt.private:
        return None
    return ActionTree(game, player)


def clicks_to(tree: ActionTree, action: Action) -> int:
    """How many clicks reach ``action`` in ``tree``: one per step, plus "Next ▶" for options on
    a later page of a long select."""
    path = tree.path_to(action)
    total = 0
    for depth, index in enumerate(path):
        step = tree.walk(path[:depth])
        assert isinstance(step, Step)
        total += 1 + (index // PAGE_SIZE if len(step.options) > PAGE_SIZE else 0)
    return total
