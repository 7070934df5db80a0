"""Menu choices in plain words: the label and one-line description of each option a player is
offered, built from the tokens of the notation (see docs/argoat-notation.md) and what that
player may see.

A notation is split into *parts*, one per token. The label of an option is the phrase for
everything chosen up to and including it ("Pay 1 Emerald: ride the Bleina N, E to Lake Heol
(1,1)"); the description says something about its last part (a Frontier's action, an Item's
effect, a price).

Only public information is used, plus the deciding player's own Items where the option names
them (``use``, giving an Item, choosing which Items to hand over): those options appear only in
that player's private picker. Nothing a Dark Forest hides, no peek, no deck is ever named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.engine.core import Action, player_ref

from . import trades
from .data import (
    CARAVAN,
    CAVE,
    FOUNTAIN,
    FRAGMENT,
    FRAGMENT_BY_KEY,
    FRAGMENT_KEYS,
    FRONTIER_BY_KEY,
    HILL,
    ITEM_BY_KEY,
    PALACE,
    SNOWFIELDS,
    TEMPLE,
    TOWN,
    TRAIL,
    WASTELAND,
)
from .frontier_actions import FOREST, action_kind
from .geometry import Coord, fmt, neighbours, parse, step
from .state import DRAFT, DREAM, PLACE_FOREST, State

if TYPE_CHECKING:
    from .game import ArgoatGame

LABEL_MAX = 80
DESCRIPTION_MAX = 100

COLOUR_EMOJI: dict[str, str] = {"Red": "🟥", "Blue": "🟦", "Green": "🟩", "Yellow": "🟨", "Purple": "🟪"}
"""The colour squares shown with each seat (one code point each)."""

Part = tuple[str, Any]


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (never inside a code point)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def count(n: int, noun: str) -> str:
    """ "1 Item", "2 Items"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def emeralds(n: int) -> str:
    """ "1 Emerald", "2 Emeralds"."""
    return count(n, "Emerald")


def card(state: State, at: Coord) -> str:
    """The card on a cell by name and coordinate: "Lake Heol (0,1)", "the Dark Forest (2,1)"."""
    if at in state.forests:
        return f"the Dark Forest ({fmt(at)})"
    key = state.frontiers.get(at)
    return f"{FRONTIER_BY_KEY[key].name} ({fmt(at)})" if key else fmt(at)


def parts(action: Action) -> list[Part]:
    """The meaning of each token of ``action``'s notation, in order (one part per token)."""
    kind = action["type"]
    if kind == "move":
        return [("verb", "move"), ("dir", action["dir"])]
    if kind == "bleina":
        return [("verb", "move"), ("bleina", None), *(("ride", i) for i in range(len(action["path"])))]
    if kind == "use":
        target = action.get("target")
        tail = [("target", target)] if target is not None else []
        return [("verb", "use"), ("item", action["item"]), *tail]
    if kind == "trade":
        return [("verb", "trade"), ("partner", action["with"])]
    if kind == "trade_part":
        which = action.get("which")
        return [
            ("verb", "trade"),
            ("side", action["side"]),
            ("what", action["what"]),
            *([("which", which)] if which is not None else []),
        ]
    if kind == "propose":
        return [("verb", "trade"), ("propose", None)]
    if kind == "accept":
        return [("verb", "accept"), *(("accept_item", i) for i in range(len(action.get("items", []))))]
    if kind == "end":
        choice = action.get("choice")
        return [("verb", "end"), *([("choice", choice)] if choice is not None else [])]
    if kind == "place":
        return [("verb", "place"), ("at", action["at"])]
    return [("verb", kind)]


class _Speaker:
    """Words for one player at one moment."""

    def __init__(self, game: ArgoatGame, player: str) -> None:
        self.game = game
        self.s = game.state
        self.player = player

    def who(self, player: str) -> str:
        """A player by seat colour, "🟦 Blue" (labels never carry a mention)."""
        colour = self.s.seat(player).colour
        return f"{COLOUR_EMOJI.get(colour, '')} {colour}"

    # -- labels ---------------------------------------------------------------------------------

    def phrase(self, ps: list[Part], action: Action) -> str:
        verb = ps[0][1]
        method: Callable[[list[Part], Action], str] | None = getattr(self, f"_say_{verb}", None)
        return method(ps, action) if method else verb.capitalize()

    def _say_move(self, ps: list[Part], action: Action) -> str:
        s = self.s
        here = s.current.pos
        if len(ps) == 1:
            return "🚶 Move"
        if action["type"] == "move":
            return f"🚶 Walk {action['dir']} to {card(s, step(here, action['dir']))}"
        price = "Free ride (Flute)" if s.move.free_bleina else "Pay 1 Emerald"
        path = action["path"]
        if len(ps) == 2:
            spaces = "2 spaces" if len(path) == 2 else "1 more space"
            return f"{price}: ride the Bleina {spaces}"
        done = path[: len(ps) - 2]
        end = here
        for side in done:
            end = step(end, side)
        if len(done) < len(path):
            return f"{price}: ride the Bleina {', '.join(done)}, then on"
        return f"{price}: ride the Bleina {', '.join(path)} to {card(s, end)}"

    def _say_use(self, ps: list[Part], action: Action) -> str:
        if len(ps) == 1:
            return "✨ Use an Item"
        item = ITEM_BY_KEY[action["item"]]
        if len(ps) == 2:
            return f"✨ Use the {item.name}"
        target = action["target"]
        word = item.key.capitalize()
        if item.key == "book":
            return f"✨ Book: take the {FRAGMENT_BY_KEY[target].name}"
        at = parse(target)
        if item.key == "staff":
            return f"✨ Staff: go to the Bleina on {card(self.s, at)}"
        if item.key == "eye":
            return f"✨ Eye: look into the Dark Forest ({target})"
        if item.key == "flute":
            return f"✨ Flute: call the Bleina from {card(self.s, at)}"
        return f"✨ {word}: {target}"

    def _say_trade(self, ps: list[Part], action: Action) -> str:
        s = self.s
        if len(ps) == 1:
            return "🤝 Add to the trade, or propose it" if s.phase == DRAFT else "🤝 Trade"
        kind, value = ps[1]
        if kind == "partner":
            return f"🤝 Trade with {self.who(value)}"
        if kind == "propose":
            return "📨 Propose the trade"
        give = value == trades.GIVE
        verb = "Give" if give else "Ask for"
        if len(ps) == 2:
            return "You give…" if give else "You ask for…"
        what = ps[2][1]
        if len(ps) == 3:
            return {
                trades.EMERALD: f"{verb} 1 Emerald",
                trades.FRAGMENT: f"{verb} a copy of a Fragment",
                trades.EXPLORE: f"{verb} a look at a Dark Forest",
                trades.ITEM: "Give one of your Items" if give else "Ask for 1 of their Items (they choose)",
            }[what]
        which = ps[3][1]
        if what == trades.FRAGMENT:
            return f"{verb} a copy of the {FRAGMENT_BY_KEY[which].name}"
        if what == trades.EXPLORE:
            return f"{verb} a look at the Dark Forest ({which})"
        return f"Give your {ITEM_BY_KEY[which].name}"

    def _say_accept(self, ps: list[Part], action: Action) -> str:
        items = action.get("items", [])
        if not items or len(ps) == 1:
            return "✅ Accept the trade"
        chosen = [ITEM_BY_KEY[k].name for k in items[: len(ps) - 1]]
        tail = "" if len(ps) - 1 == len(items) else ", …"
        return f"✅ Accept, handing over your {' and '.join(chosen)}{tail}"

    def _say_decline(self, ps: list[Part], action: Action) -> str:
        return "❌ Decline the trade"

    def _say_withdraw(self, ps: list[Part], action: Action) -> str:
        return "↩ Withdraw your offer"

    def _say_cancel(self, ps: list[Part], action: Action) -> str:
        return "✖ Cancel the trade"

    def _say_undo(self, ps: list[Part], action: Action) -> str:
        s = self.s
        if s.phase == DRAFT:
            return "↶ Take back the last part" if s.trade and s.trade[1] else "↶ Stop building the trade"
        return "↶ Undo your last move"

    def _say_place(self, ps: list[Part], action: Action) -> str:
        s = self.s
        if s.phase == PLACE_FOREST:
            return f"🌲 Place the Dark Forest at ({action['at']})"
        name = FRONTIER_BY_KEY[s.drawn].name if s.drawn else "the Frontier"
        return f"🗺 Place {name} at ({action['at']})"

    def _end_card(self) -> tuple[str, str, str | None, str]:
        """(kind of action, name of the card, its Fragment, its action text) that ``end``
        resolves: the card under the Avatar, or the one dreamt at the Hill of Dreams."""
        s = self.s
        if s.phase == DREAM and s.drawn:
            frontier = FRONTIER_BY_KEY[s.drawn]
        else:
            here = s.current.pos
            if action_kind(s, here) == FOREST:
                text = "Explore it (one Emerald per Check Marker there), or flip it with all 8 Fragments."
                return FOREST, "the Dark Forest", None, text
            frontier = FRONTIER_BY_KEY[s.frontiers[here]]
        return frontier.action, frontier.name, frontier.fragment, frontier.text

    def _say_end(self, ps: list[Part], action: Action) -> str:
        s = self.s
        kind, name, fragment, _ = self._end_card()
        lead = f"💭 Dream of {name}" if s.phase == DREAM else "🏁 End turn"
        choice = action.get("choice") if len(ps) > 1 else None
        if len(ps) == 1 and "choice" in action:
            return f"{lead} on {name}" if s.phase != DREAM else lead
        me = s.current
        ignored = self._ignored(kind, fragment)
        if ignored:
            return f"{lead} on {name}: nothing ({ignored})"
        if kind == TOWN:
            return f"{lead}: {name} draws a frontier"
        if kind == FRAGMENT and fragment:
            if fragment in me.fragments:
                return f"{lead} on {name} (you have its Fragment)"
            return f"{lead}: take the {FRAGMENT_BY_KEY[fragment].name}"
        if kind == CAVE:
            return f"{lead}: take 1 Emerald ({name})"
        if kind == TEMPLE:
            return f"{lead}: take another turn ({name})"
        if kind == PALACE:
            most = max(x.emeralds for x in s.seats)
            source = "the Bank" if me.emeralds == most else "the richest"
            return f"{lead}: take 1 Emerald from {source}"
        if kind == WASTELAND:
            return f"{lead}: draw an Item ({name})" if not me.items else f"{lead} on {name} (you hold Items)"
        if kind == FOREST:
            return f"{lead}: {self._forest_words(me.pos)}"
        if choice is None:
            return f"{lead} on {name}"
        if choice == "pass":
            return f"{lead}, paying nothing ({name})"
        if kind in (CARAVAN, HILL) and choice == "pay":
            what = "draw an Item" if kind == CARAVAN else "dream a frontier"
            return f"{lead}: pay 1 Emerald to {what}"
        if kind == FOUNTAIN:
            return f"{lead}: pay 2 Emeralds for the {FRAGMENT_BY_KEY[choice].name}"
        if kind == SNOWFIELDS:
            return f"{lead}: call the Bleina from {card(s, parse(choice))}"
        if kind == TRAIL:
            if choice == "stay":
                return f"{lead}: stay on this Trail"
            return f"{lead}: go to the Unmarked Trail ({choice})"
        return f"{lead}: {choice}"

    def _ignored(self, kind: str, fragment: str | None) -> str:
        """Why the Frontier Action of ``kind`` will do nothing (Q5: an empty deck, Supply, Bank
        or Reliquary), or an empty text if it will do something."""
        s = self.s
        me = s.current
        if kind == TOWN and not s.discovery:
            return "the Discovery Deck is empty"
        richest = me.emeralds == max(x.emeralds for x in s.seats)
        if kind in (TOWN, CAVE) or (kind == PALACE and richest):
            return "the Bank is empty" if s.bank <= 0 else ""
        if kind == WASTELAND and not me.items and not s.supply:
            return "the Supply is empty"
        if kind == FRAGMENT and fragment and fragment not in me.fragments and not s.reliquary.get(fragment):
            return "no copy of its Fragment is left"
        return ""

    def _forest_words(self, at: Coord) -> str:
        s = self.s
        forest = s.forests[at]
        me = s.current
        if forest.flipped:
            return "the Dark Forest is face up (nothing)"
        if len(me.fragments) == len(FRAGMENT_KEYS):
            return "flip the Dark Forest!"
        if me.id in forest.markers:
            return "already explored (nothing)"
        cost = len(forest.markers)
        if cost == 0:
            return "explore the Dark Forest (free)"
        if me.emeralds < cost:
            return f"explore the Dark Forest: {emeralds(cost)}, you lose all yours"
        return f"explore the Dark Forest (pay {emeralds(cost)})"

    # -- descriptions ---------------------------------------------------------------------------

    def note(self, ps: list[Part], action: Action) -> str:
        s = self.s
        kind, value = ps[-1]
        if kind == "verb":
            return self._verb_note(value, action)
        if kind == "dir":
            return self._cell_note(step(s.current.pos, value))
        if kind == "bleina":
            return f"Once per turn, from a Frontier with a Bleina; you have {emeralds(s.current.emeralds)}."
        if kind == "ride":
            end = s.current.pos
            for side in action["path"][: value + 1]:
                end = step(end, side)
            if value + 1 < len(action["path"]):
                return f"Through {card(s, end)}, then one more space."
            return self._cell_note(end)
        if kind == "item":
            return ITEM_BY_KEY[value].text
        if kind == "target":
            return self._target_note(action["item"], value)
        if kind == "partner":
            seat = s.seat(value)
            return (
                f"{emeralds(seat.emeralds)}, {count(len(seat.fragments), 'Fragment')}, "
                f"{count(len(seat.items), 'Item')}. Nothing changes until they accept."
            )
        if kind == "side":
            partner = player_ref(s.trade[0]) if s.trade else "they"
            if value == trades.GIVE:
                return f"Something you give {partner}."
            return f"Something {partner} gives you."
        if kind == "what":
            return self._what_note(ps[1][1], value)
        if kind == "which":
            return self._which_note(ps[1][1], ps[2][1], value)
        if kind == "propose":
            return self._terms(names=True)
        if kind == "accept_item":
            return ITEM_BY_KEY[action["items"][value]].text
        if kind == "choice":
            return self._choice_note(action["choice"])
        if kind == "at":
            near = [card(s, c) for _, c in neighbours(parse(value)) if c in s.frontiers or c in s.forests]
            return "Next to " + ", ".join(near) + "." if near else ""
        return ""

    def _verb_note(self, verb: str, action: Action) -> str:
        s = self.s
        if verb == "move":
            return "Move one space along a road (required); a Bleina carries you further."
        if verb == "use":
            return "Play one of your Items; it is shown and discarded."
        if verb == "trade":
            if s.phase == DRAFT:
                return self._terms(names=True)
            return "Trade with a player on your Frontier: Emeralds, Fragments, looks, Items."
        if verb == "end":
            kind, _, fragment, text = self._end_card()
            ignored = self._ignored(kind, fragment) if "choice" not in action else ""
            return f"{ignored[0].upper()}{ignored[1:]}: the action is ignored." if ignored else text
        if verb in ("accept", "decline"):
            return self._terms(names=False)
        if verb == "withdraw":
            return "Take your proposal back; nothing is traded."
        if verb == "cancel":
            return "Drop the whole trade you are building; nothing has changed."
        if verb == "undo":
            if s.phase == DRAFT:
                return (
                    "Take back the last part you added." if s.trade and s.trade[1] else "Back to your turn."
                )
            return "Take back your last move (Emeralds paid come back)."
        if verb == "place":
            if s.phase == PLACE_FOREST:
                return "Its one road joins the Dragon frontier just placed."
            if s.drawn:
                return FRONTIER_BY_KEY[s.drawn].text
        return ""

    def _terms(self, names: bool) -> str:
        """The trade under way, short: "You give 1 Emerald, Sun; Blue gives a look at (0,3)."
        Item kinds only with ``names`` and for the proposer (their own secret)."""
        s = self.s
        if s.trade is None:
            return ""
        proposer, partner = s.current.id, s.trade[0]
        names = names and self.player == proposer
        sides = []
        for side, giver in ((trades.GIVE, proposer), (trades.ASK, partner)):
            what: list[str] = []
            gems = sum(1 for p in s.trade[1] if p[0] == side and p[1] == trades.EMERALD)
            if gems:
                what.append(emeralds(gems))
            items = 0
            for part_side, kind, which in s.trade[1]:
                if part_side != side:
                    continue
                if kind == trades.FRAGMENT:
                    what.append(FRAGMENT_BY_KEY[which].token)
                elif kind == trades.EXPLORE:
                    what.append(f"a look at ({which})")
                elif kind == trades.ITEM and names and which:
                    what.append(ITEM_BY_KEY[which].name)
                elif kind == trades.ITEM:
                    items += 1
            if items:
                chooser = (
                    ""
                    if side == trades.GIVE
                    else " (your choice)"
                    if giver == self.player
                    else " (their choice)"
                )
                what.append(count(items, "Item") + chooser)
            who = "you give" if giver == self.player else f"{s.seat(giver).colour} gives"
            sides.append(f"{who} {', '.join(what) or 'nothing'}")
        text = "; ".join(sides) + "."
        return text[0].upper() + text[1:]

    def _cell_note(self, at: Coord) -> str:
        s = self.s
        if at in s.forests:
            forest = s.forests[at]
            if forest.flipped:
                return f"A Dark Forest, face up: {forest.content}."
            if len(s.current.fragments) == len(FRAGMENT_KEYS):
                return "A Dark Forest: with all 8 Fragments you pay nothing and flip it."
            if not forest.markers:
                return "A Dark Forest: the first to explore it pays nothing."
            return f"A Dark Forest: exploring costs {emeralds(len(forest.markers))} (one per Check Marker)."
        key = s.frontiers.get(at)
        if key is None:
            return ""
        return FRONTIER_BY_KEY[key].text

    def _target_note(self, item: str, target: str) -> str:
        s = self.s
        if item == "book":
            return f"{s.reliquary[target]} left in the Reliquary."
        at = parse(target)
        if item == "staff":
            return self._cell_note(at)
        if item == "eye":
            forest = s.forests[at]
            marks = ", ".join(s.seat(p).colour for p in forest.markers) or "none"
            return f"No payment. Check Markers there: {marks}."
        if item == "flute":
            return "It comes to your Frontier; Bleina rides are free this turn."
        return ""

    def _what_note(self, side: str, what: str) -> str:
        s = self.s
        assert s.trade is not None
        giver = s.current if side == trades.GIVE else s.seat(s.trade[0])
        if what == trades.EMERALD:
            return f"{'You have' if giver is s.current else 'They have'} {emeralds(giver.emeralds)}."
        give = side == trades.GIVE
        if what == trades.FRAGMENT:
            if give:
                return "They take a copy from the Reliquary; you keep yours."
            return "You take a copy from the Reliquary; they keep theirs."
        if what == trades.EXPLORE:
            if give:
                return "They look at a Dark Forest you explored, and place a Check Marker."
            return "You look at a Dark Forest they explored, and place a Check Marker."
        if give:
            return "Choose which of your Items."
        return f"They hold {count(len(giver.items), 'Item')} and choose which to hand over."

    def _which_note(self, side: str, what: str, which: str) -> str:
        s = self.s
        if what == trades.FRAGMENT:
            return f"{s.reliquary[which]} left in the Reliquary."
        if what == trades.EXPLORE:
            forest = s.forests[parse(which)]
            marks = ", ".join(s.seat(p).colour for p in forest.markers) or "none"
            return f"Check Markers there: {marks}."
        return ITEM_BY_KEY[which].text

    def _choice_note(self, choice: str) -> str:
        s = self.s
        kind = self._end_card()[0]
        if choice == "pass":
            return "Keep your Emeralds; nothing happens."
        if kind == CARAVAN:
            return "Draw the top Item of the Supply (secret); you keep it until used."
        if kind == HILL:
            return "Draw a Frontier and resolve its action here; then it goes under the deck."
        if kind == FOUNTAIN:
            return "Then your Avatar returns to the Frontier Town."
        if kind == SNOWFIELDS:
            return "That Bleina comes to your Frontier."
        if kind == TRAIL:
            if choice == "stay":
                return "Your Avatar stays where it is."
            return "Your Avatar moves to that Unmarked Trail."
        if choice in FRAGMENT_BY_KEY:
            return f"{s.reliquary[choice]} left in the Reliquary."
        return ""


def _index(game: ArgoatGame, player: str) -> dict[tuple[str, ...], Action]:
    """The first legal action of ``player`` under every token prefix (cached per version)."""
    version, by_player = game._words
    if version != game._version:
        by_player = {}
        game._words = (game._version, by_player)
    index = by_player.get(player)
    if index is None:
        index = by_player[player] = {}
        for action in game.legal_actions(player):
            tokens = tuple(game.notation(action).split())
            for depth in range(1, len(tokens) + 1):
                index.setdefault(tokens[:depth], action)
    return index


def choice_words(
    game: ArgoatGame, player: str, tokens: tuple[str, ...], option: tuple[str, ...]
) -> tuple[str, str]:
    """The label and description of choosing ``option`` after ``tokens`` (see Game.choice_words)."""
    chosen = (*tokens, *option)
    action = _index(game, player).get(chosen)
    if action is None or not option:
        return fit(" ".join(option), LABEL_MAX), ""
    speaker = _Speaker(game, player)
    ps = parts(action)[: len(chosen)]
    return fit(speaker.phrase(ps, action), LABEL_MAX), fit(speaker.note(ps, action), DESCRIPTION_MAX)
