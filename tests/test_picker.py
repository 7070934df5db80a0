"""Step-by-step choice of an action from its notation tokens."""

from __future__ import annotations

import pytest

from cogs.picker import DONE, ActionTree, StalePath, Step, decode_path, encode_path


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


def test_steps_follow_tokens_in_legal_order():
    t = tree("move Grunt C4", "move Grunt D4", "move Pilot C4", "activate Lab", "cancel")
    root = t.walk(())
    assert isinstance(root, Step) and root.options == ("move", "activate", "cancel")
    step = t.walk((0,))
    assert step.tokens == ("move",) and step.options == ("Grunt", "Pilot")
    assert t.walk((0, 0)).options == ("C4", "D4")
    assert t.walk((0, 0, 1)) == {"type": "x", "n": "move Grunt D4"}
    assert t.walk((2,)) == {"type": "x", "n": "cancel"}


def test_single_ways_are_skipped_but_leaves_are_not():
    t = tree("build Lab A1 r0", "build Lab A1 r90", "pass")
    assert t.walk(()).options == ("build", "pass")
    step = t.walk((0,))
    assert step.tokens == ("build", "Lab", "A1") and step.options == ("r0", "r90")
    only = tree("pass")
    assert only.walk(()).options == ("pass",)  # a single complete action is still offered


def test_a_notation_that_prefixes_another_offers_done():
    t = tree("move Explorer C4", "move Explorer C4 D4")
    step = t.walk((0,))
    assert step.tokens == ("move", "Explorer", "C4") and step.options == (DONE, "D4")
    assert t.walk((0, 0)) == {"type": "x", "n": "move Explorer C4"}
    assert t.walk((0, 1)) == {"type": "x", "n": "move Explorer C4 D4"}


def test_paths_that_lead_nowhere_are_stale():
    t = tree("take 1", "take 2")
    for path in [(5,), (0, 9), (0, 0, 0)]:
        with pytest.raises(StalePath):
            t.walk(path)
    with pytest.raises(StalePath):
        tree().walk(())


def test_pages_and_matching():
    t = tree(*(f"take {n}" for n in range(1, 41)))
    step = t.walk(())  # the lone "take" is skipped
    assert (
        step.tokens == ("take",) and step.pages == 2 and step.page(1) == (25, [str(n) for n in range(26, 41)])
    )
    assert t.matching("take 3", limit=5) == ["take 3", "take 30", "take 31", "take 32", "take 33"]


def test_path_encoding_round_trips():
    for path in [(), (0,), (3, 12, 0)]:
        assert decode_path(encode_path(path)) == path
