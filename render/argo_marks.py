"""What changed on an Argo board between two public views (the marks drawn on the picture).

``changes(previous, view)`` compares two public views of one game and lists what a player who
last looked at ``previous`` should notice: Astronauts that moved (and from where), new tiles,
tiles the Control Room moved or turned, Aliens that moved, appeared or died, Astronauts killed,
Pods launched, Activation tokens placed, scores changed and new face-up Modules. It reads only
the two public views, so it cannot reveal a secret.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]


@dataclass
class Changes:
    """Everything to mark on the board; empty when nothing changed."""

    moved: dict[str, Cell | None] = field(default_factory=dict)
    """Astronaut id -> the cell it came from (None: it was not in the station, e.g. revived)."""
    new_tiles: set[int] = field(default_factory=set)
    moved_tiles: dict[int, Cell | None] = field(default_factory=dict)
    """Tile id -> its former cell (None when it only turned on its cell)."""
    alien_arrivals: dict[Cell, Cell | None] = field(default_factory=dict)
    """Cell an Alien now stands on -> the cell it came from (None: a new Alien)."""
    alien_departures: set[Cell] = field(default_factory=set)
    """Cells an Alien left without a matching arrival (killed by the Laser, swapped...)."""
    died: set[str] = field(default_factory=set)
    """Astronauts now on the Alien track that were not before."""
    died_at: dict[str, Cell] = field(default_factory=dict)
    launched: set[int] = field(default_factory=set)
    """Tile ids of the Pods launched since."""
    vacated: set[Cell] = field(default_factory=set)
    """Cells whose tile is gone (a launched Pod, a tile moved away)."""
    activations: dict[int, int] = field(default_factory=dict)
    """Tile id -> how many of its Activation tokens are new."""
    scores: dict[str, int] = field(default_factory=dict)
    """Player id -> score change."""
    display: set[int] = field(default_factory=set)
    """Tile ids of face-up Modules (or the next Pod) that were not on show before."""
    track_slots: set[int] = field(default_factory=set)
    """Indexes of Alien track slots that took a body since."""

    def __bool__(self) -> bool:
        return any(
            (
                self.moved,
                self.new_tiles,
                self.moved_tiles,
                self.alien_arrivals,
                self.alien_departures,
                self.died,
                self.launched,
                self.vacated,
                self.activations,
                self.scores,
                self.display,
                self.track_slots,
            )
        )


def _cell(value: Any) -> Cell | None:
    if value is None:
        return None
    return (int(value[0]), int(value[1]))


def _pair_aliens(before: set[Cell], after: set[Cell]) -> tuple[dict[Cell, Cell | None], set[Cell]]:
    """Match the cells Aliens left with the cells they reached, nearest first."""
    left = sorted(before - after)
    reached = sorted(after - before)
    pairs = sorted((abs(a[0] - b[0]) + abs(a[1] - b[1]), a, b) for a in left for b in reached)
    arrivals: dict[Cell, Cell | None] = {}
    used: set[Cell] = set()
    for _, a, b in pairs:
        if a in used or b in arrivals:
            continue
        arrivals[b] = a
        used.add(a)
    for b in reached:
        arrivals.setdefault(b, None)
    return arrivals, set(left) - used


def changes(previous: dict[str, Any] | None, view: dict[str, Any]) -> Changes:
    """What changed from ``previous`` to ``view`` (both public views of the same game)."""
    out = Changes()
    if previous is None or previous is view:
        return out
    old_astro = {a["id"]: a for a in previous.get("astronauts", [])}
    for a in view.get("astronauts", []):
        before = old_astro.get(a["id"])
        if before is None:
            continue
        if a.get("status") == "station" and (
            before.get("status") != "station" or _cell(before.get("cell")) != _cell(a.get("cell"))
        ):
            out.moved[a["id"]] = _cell(before.get("cell")) if before.get("status") == "station" else None
        if a.get("status") == "dead" and before.get("status") != "dead":
            out.died.add(a["id"])
            cell = _cell(before.get("cell")) if before.get("status") == "station" else None
            if cell is not None:
                out.died_at[a["id"]] = cell

    old_tiles = {t["id"]: t for t in previous.get("tiles", [])}
    new_tiles = {t["id"]: t for t in view.get("tiles", [])}
    for tid, t in new_tiles.items():
        before = old_tiles.get(tid)
        if before is None:
            out.new_tiles.add(tid)
            continue
        was, now = _cell(before.get("cell")), _cell(t.get("cell"))
        if was != now:
            out.moved_tiles[tid] = was
        elif before.get("rotation") != t.get("rotation"):
            out.moved_tiles[tid] = None
        added = len(t.get("tokens") or []) - len(before.get("tokens") or [])
        if added > 0:
            out.activations[tid] = added
    cells_now = {_cell(t["cell"]) for t in new_tiles.values()}
    for tid, before in old_tiles.items():
        was = _cell(before.get("cell"))
        if was is not None and was not in cells_now and (tid not in new_tiles or tid in out.moved_tiles):
            out.vacated.add(was)

    old_aliens = {_cell(a["cell"]) for a in previous.get("aliens", [])}
    now_aliens = {_cell(a["cell"]) for a in view.get("aliens", [])}
    out.alien_arrivals, out.alien_departures = _pair_aliens(
        {c for c in old_aliens if c is not None}, {c for c in now_aliens if c is not None}
    )

    old_launched = {(e.get("pod") or {}).get("id") for e in (previous.get("pods") or {}).get("launched", [])}
    for e in (view.get("pods") or {}).get("launched", []):
        pid = (e.get("pod") or {}).get("id")
        if pid not in old_launched and pid is not None:
            out.launched.add(int(pid))

    old_scores = {p["id"]: int(p.get("score", 0)) for p in previous.get("players", [])}
    for p in view.get("players", []):
        delta = int(p.get("score", 0)) - old_scores.get(p["id"], int(p.get("score", 0)))
        if delta:
            out.scores[p["id"]] = delta

    shown_before = {t.get("id") for t in previous.get("display", [])}
    shown_before.add(((previous.get("pods") or {}).get("next") or {}).get("id"))
    for t in view.get("display", []):
        if t.get("id") not in shown_before:
            out.display.add(int(t["id"]))
    nxt = (view.get("pods") or {}).get("next")
    if nxt and nxt.get("id") not in shown_before:
        out.display.add(int(nxt["id"]))

    old_slots = ((previous.get("alien_track") or {}).get("slots")) or []
    for i, slot in enumerate((view.get("alien_track") or {}).get("slots") or []):
        had = old_slots[i].get("astronaut") if i < len(old_slots) else None
        if slot.get("astronaut") and slot.get("astronaut") != had:
            out.track_slots.add(i)
    return out
