"""What changed on an Argoat map between two public views (the marks drawn on the picture).

``changes(previous, view)`` compares two public views of one game: Avatars that moved (and from
where), new frontiers and Dark Forests, flipped forests, Bleina moves, new Check Markers, and
the panels' numbers that changed (Emeralds, Fragments, Items, the Bank, the Reliquary, the
decks, the Items played). It reads only the two public views, so it cannot reveal a secret.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]


def cell(text: str) -> Cell:
    """``"x,y"`` as a pair of ints."""
    x, y = text.split(",")
    return int(x), int(y)


@dataclass
class Changes:
    """Everything to mark on the map and the panels; empty when nothing changed."""

    moved: dict[str, Cell] = field(default_factory=dict)
    """Player id -> the cell its Avatar came from."""
    new_cards: set[Cell] = field(default_factory=set)
    """Cells of frontiers and Dark Forests placed since, and of forests flipped since."""
    bleina_arrivals: dict[Cell, Cell | None] = field(default_factory=dict)
    """Cell a Bleina reached -> where it came from (None when unmatched)."""
    bleina_departures: set[Cell] = field(default_factory=set)
    markers: dict[Cell, int] = field(default_factory=dict)
    """Forest cell -> how many of its Check Markers are new (the last ones placed)."""
    emeralds: dict[str, int] = field(default_factory=dict)
    """Player id -> change in Emeralds held."""
    fragments_won: dict[str, set[str]] = field(default_factory=dict)
    fragments_lost: dict[str, set[str]] = field(default_factory=dict)
    items: dict[str, int] = field(default_factory=dict)
    """Player id -> change in the number of Items held."""
    bank: int = 0
    reliquary: set[str] = field(default_factory=set)
    """Fragment keys whose copies left changed."""
    decks: set[str] = field(default_factory=set)
    """Decks that ran out (or came back) since."""
    played: set[str] = field(default_factory=set)
    """Item keys played since."""

    def __bool__(self) -> bool:
        return any(
            (
                self.moved,
                self.new_cards,
                self.bleina_arrivals,
                self.bleina_departures,
                self.markers,
                self.emeralds,
                self.fragments_won,
                self.fragments_lost,
                self.items,
                self.bank,
                self.reliquary,
                self.decks,
                self.played,
            )
        )


def deck_empty(view: dict[str, Any], key: str) -> bool:
    """Whether a deck is empty: the view's ``decks_empty`` flag, or (older views) its count."""
    flags = view.get("decks_empty")
    if isinstance(flags, dict) and key in flags:
        return bool(flags[key])
    counts = view.get("decks") or {}
    return not int(counts.get(key, 0) or 0) > 0


def _pair(left: list[Cell], reached: list[Cell]) -> tuple[dict[Cell, Cell | None], set[Cell]]:
    """Match the cells pieces left with the cells they reached, nearest first."""
    pairs = sorted(
        (abs(a[0] - b[0]) + abs(a[1] - b[1]), i, j) for i, a in enumerate(left) for j, b in enumerate(reached)
    )
    used_l: set[int] = set()
    used_r: set[int] = set()
    arrivals: dict[Cell, Cell | None] = {}
    for _, i, j in pairs:
        if i in used_l or j in used_r:
            continue
        used_l.add(i)
        used_r.add(j)
        arrivals[reached[j]] = left[i]
    for j, b in enumerate(reached):
        if j not in used_r:
            arrivals.setdefault(b, None)
    return arrivals, {a for i, a in enumerate(left) if i not in used_l}


def changes(previous: dict[str, Any] | None, view: dict[str, Any]) -> Changes:
    """What changed from ``previous`` to ``view`` (both public views of the same game)."""
    out = Changes()
    if previous is None or previous is view:
        return out
    before = {p["id"]: p for p in previous.get("players", [])}
    for p in view.get("players", []):
        b = before.get(p["id"])
        if b is None:
            continue
        if (b["x"], b["y"]) != (p["x"], p["y"]):
            out.moved[p["id"]] = (int(b["x"]), int(b["y"]))
        if int(p.get("emeralds", 0)) != int(b.get("emeralds", 0)):
            out.emeralds[p["id"]] = int(p.get("emeralds", 0)) - int(b.get("emeralds", 0))
        won = set(p.get("fragments", [])) - set(b.get("fragments", []))
        lost = set(b.get("fragments", [])) - set(p.get("fragments", []))
        if won:
            out.fragments_won[p["id"]] = won
        if lost:
            out.fragments_lost[p["id"]] = lost
        if int(p.get("items", 0)) != int(b.get("items", 0)):
            out.items[p["id"]] = int(p.get("items", 0)) - int(b.get("items", 0))

    old_frontiers = {(f["x"], f["y"]) for f in previous.get("frontiers", [])}
    old_forests = {(f["x"], f["y"]): f for f in previous.get("forests", [])}
    for f in view.get("frontiers", []):
        if (f["x"], f["y"]) not in old_frontiers:
            out.new_cards.add((int(f["x"]), int(f["y"])))
    for f in view.get("forests", []):
        at = (int(f["x"]), int(f["y"]))
        was = old_forests.get(at)
        if was is None or (f.get("flipped") and not was.get("flipped")):
            out.new_cards.add(at)
        added = len(f.get("markers", [])) - (len(was.get("markers", [])) if was else 0)
        if added > 0:
            out.markers[at] = added

    old_b = Counter(cell(b) for b in previous.get("bleinas", []))
    new_b = Counter(cell(b) for b in view.get("bleinas", []))
    left = sorted((old_b - new_b).elements())
    reached = sorted((new_b - old_b).elements())
    out.bleina_arrivals, out.bleina_departures = _pair(left, reached)

    out.bank = int(view.get("bank", 0)) - int(previous.get("bank", 0))
    rel_old, rel_new = previous.get("reliquary") or {}, view.get("reliquary") or {}
    out.reliquary = {k for k in set(rel_old) | set(rel_new) if rel_old.get(k) != rel_new.get(k)}
    out.decks = {
        k for k in ("discovery", "supply", "darkness") if deck_empty(previous, k) != deck_empty(view, k)
    }
    d_old, d_new = previous.get("discard") or {}, view.get("discard") or {}
    out.played = {k for k in d_new if int(d_new.get(k, 0)) > int(d_old.get(k, 0))}
    return out
