"""Step-by-step choice of an action from its notation tokens."""

from __future__ import annotations

import pytest

from cogs.picker import DONE, ActionTree, StalePath, Step, clicks_to, decode_path, encode_path


class Notations:
    """Just enough of a game for ActionTree: legal actions with notations."""

    def __init__(self, *notations: str) -> None:
        self.notations = notations

    def legal_actions(self, player):
        return [{"type": "x", "n": n} for n in self.notations]

    def notation(self, action):
        return action["n"]


def tree(*notations: str) -> ActionTree:
    return ActionTree(Notations(*notations), "p")  # type: ignore[arg-type]


def test_choices_that_fit_one_select_are_one_step_of_whole_actions():
    t = tree("move Grunt C4", "move Grunt D4", "move Pilot C4", "activate Lab", "cancel")
    root = t.walk(())
    assert isinstance(root, Step) and root.tokens == ()
    assert root.options == ("move Grunt C4", "move Grunt D4", "move Pilot C4", "activate Lab", "cancel")
    assert t.walk((1,)) == {"type": "x", "n": "move Grunt D4"}
    assert t.walk((4,)) == {"type": "x", "n": "cancel"}


CELLS = ("A1", "A2", "B1", "B2", "C1", "C2")
PIECES = ("Grunt", "Robot", "Explorer", "Pilot", "Chief")


def test_whole_actions_replace_a_token_while_they_fit_the_smallest_first():
    moves = [f"move {piece} {cell}" for piece in PIECES for cell in CELLS]  # 30: too many for one
    t = tree(*moves, "activate Lab", "undo")
    root = t.walk(())
    assert root.options == ("move", "activate Lab", "undo")
    # Below "move": four pieces with their destinations fill 24 places; the fifth stays a token.
    step = t.walk((0,))
    assert step.tokens == ("move",)
    assert step.options == (*(f"{p} {c}" for p in PIECES[:4] for c in CELLS), "Chief")
    assert t.walk((0, 7)) == {"type": "x", "n": "move Robot A2"}
    chief = t.walk((0, 24))
    assert chief.tokens == ("move", "Chief") and chief.options == CELLS
    assert t.walk((0, 24, 2)) == {"type": "x", "n": "move Chief B1"}
    # A piece with its destination in one select, when one verb's actions fit but not all.
    modules = ("Lab", "Laser", "Safe-Room", "Warehouse")
    wide = [f"build {m} {c}" for m in modules for c in CELLS]
    t = tree(*wide, *(f"move {p} {c}" for p in PIECES[:2] for c in CELLS))
    root = t.walk(())
    assert root.options == ("build", *(f"move {p} {c}" for p in PIECES[:2] for c in CELLS))
    assert t.walk((0,)).options == tuple(f"{m} {c}" for m in modules for c in CELLS)


def test_single_ways_are_skipped_but_leaves_are_not():
    t = tree(*(f"build Lab A{n} r{r}" for n in range(1, 5) for r in range(0, 360, 45)), "pass")
    root = t.walk(())
    assert root.options == ("build Lab", "pass") and t.walk((1,)) == {"type": "x", "n": "pass"}
    step = t.walk((0,))  # "Lab" was the only Module: no step for it
    assert step.tokens == ("build", "Lab") and len(step.options) == 25
    assert step.options[:2] == ("A1 r0", "A1 r45") and step.options[-1] == "A4"
    only = tree("pass")
    assert only.walk(()).options == ("pass",)  # a single complete action is still offered
    lone = tree("use Eye 0,3", "use Eye 1,3")
    assert lone.walk(()).options == ("use Eye 0,3", "use Eye 1,3")


def test_a_notation_that_prefixes_another_offers_done_or_both():
    t = tree("move Explorer C4", "move Explorer C4 D4")
    assert t.walk(()).options == ("move Explorer C4", "move Explorer C4 D4")
    assert t.walk((0,)) == {"type": "x", "n": "move Explorer C4"}
    assert t.walk((1,)) == {"type": "x", "n": "move Explorer C4 D4"}
    # When the longer ones do not fit beside the rest, the shorter one's step offers DONE.
    many = [f"move Explorer C4 X{n}" for n in range(30)]
    t = tree("move Explorer C4", *many)
    step = t.walk(())
    assert step.tokens == ("move", "Explorer", "C4") and step.options[0] == DONE and len(step.options) == 31
    assert t.walk((0,)) == {"type": "x", "n": "move Explorer C4"}
    assert t.walk((3,)) == {"type": "x", "n": "move Explorer C4 X2"}


def test_keep_leaves_actions_out_and_paths_are_stable():
    notations = [f"move {p} {c}" for p in PIECES for c in CELLS] + ["use Eye 0,3", "use Staff 1,1"]
    public = ActionTree(Notations(*notations), "p", keep=lambda a: not a["n"].startswith("use"))  # type: ignore[arg-type]
    assert all("use" not in option for option in public.walk(()).options)
    assert len(public) == 30 and len(tree(*notations)) == 32
    for path in [(), (0,), (0, 24), (0, 24, 1)]:
        assert tree(*notations).walk(path) == tree(*notations).walk(path)


def test_the_path_to_an_action_and_its_clicks():
    notations = [f"move {p} {c}" for p in PIECES for c in CELLS] + ["undo"]
    t = tree(*notations)
    for notation in notations:
        action = {"type": "x", "n": notation}
        path = t.path_to(action)
        assert t.walk(path) == action
        assert clicks_to(t, action) == len(path)
    assert clicks_to(t, {"type": "x", "n": "move Chief C2"}) == 3  # move, Chief, C2
    assert clicks_to(t, {"type": "x", "n": "undo"}) == 1
    with pytest.raises(ValueError):
        t.path_to({"type": "x", "n": "move Chief D9"})
    paged = tree(*(f"take {n}" for n in range(1, 41)))
    assert clicks_to(paged, {"type": "x", "n": "take 30"}) == 2  # "Next ▶", then the option


def test_paths_that_lead_nowhere_are_stale():
    t = tree("take 1", "take 2")
    for path in [(5,), (0, 9), (0, 0, 0)]:
        with pytest.raises(StalePath):
            t.walk(path)
    with pytest.raises(StalePath):
        tree().walk(())


def test_pages_and_matching():
    t = tree(*(f"take {n}" for n in range(1, 41)))
    step = t.walk(())  # the lone "take" is skipped; 40 do not fit one select
    assert (
        step.tokens == ("take",) and step.pages == 2 and step.page(1) == (25, [str(n) for n in range(26, 41)])
    )
    assert t.matching("take 3", limit=5) == ["take 3", "take 30", "take 31", "take 32", "take 33"]


def test_path_encoding_round_trips():
    for path in [(), (0,), (3, 12, 0)]:
        assert decode_path(encode_path(path)) == path
