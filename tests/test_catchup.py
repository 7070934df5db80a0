"""The catch-up text of a turn message: complete when it fits, else the last two turns in full and
older turns one line each."""

from __future__ import annotations

from cogs.catchup import BUDGET, TURN_LINE, summarise


def turns(count: int, lines: int = 7, width: int = 60) -> list[tuple[int | None, list[str]]]:
    return [(t, [f"turn {t} event {i} " + "x" * width for i in range(lines)]) for t in range(1, count + 1)]


def test_a_short_history_is_shown_in_full_with_its_turns():
    groups = [(4, ["Blue moves"]), (5, ["Yellow builds", "Yellow moves"])]
    assert summarise(groups) == [
        "__Turn 4__",
        "• Blue moves",
        "__Turn 5__",
        "• Yellow builds",
        "• Yellow moves",
    ]


def test_a_long_history_collapses_older_turns_to_one_line_each_and_keeps_the_last_two_in_full():
    groups = turns(6, lines=5)
    lines = summarise(groups)
    assert sum(len(line) + 1 for line in lines) <= BUDGET
    latest = lines[lines.index("__Turn 5__") :]
    assert latest == [
        "__Turn 5__",
        *[f"• {line}" for line in groups[-2][1]],
        "__Turn 6__",
        *[f"• {line}" for line in groups[-1][1]],
    ]  # the last two turns, complete
    older = lines[: lines.index("__Turn 5__")]
    assert [line.split(":")[0] for line in older] == ["• Turn 1", "• Turn 2", "• Turn 3", "• Turn 4"]
    assert all(len(line) <= TURN_LINE for line in older)


def test_many_turns_get_shorter_lines_before_any_is_left_out():
    lines = summarise(turns(12, lines=3, width=40))
    assert not lines[0].startswith("(")
    assert [line.split(":")[0] for line in lines if line.startswith("• Turn ")] == [
        f"• Turn {t}" for t in range(1, 11)
    ]
    assert sum(len(line) + 1 for line in lines) <= BUDGET


def test_a_very_long_history_says_how_many_turns_it_leaves_out():
    lines = summarise(turns(40))
    assert lines[0].startswith("(") and "earlier turns not shown: see /game log" in lines[0]
    left_out = int(lines[0][1:].split()[0])
    shown = [line for line in lines if line.startswith("• Turn ")]
    assert left_out + len(shown) == 38 and shown[-1].startswith("• Turn 38:")
    assert sum(len(line) + 1 for line in lines) <= BUDGET


def test_older_turns_join_whole_sentences_never_cut_mid_event():
    events = [
        "<p:1> (Blue) moves the Alien from N1 to N2; it meets nobody there.",
        "<p:1> (Blue) builds the Lab (N3), turned with doors N–E–S, and an Alien appears in it.",
        "<p:1> (Blue)'s Pilot moves from the Waking Room to the Corridor at S1.",
        "<p:1> (Blue)'s Grunt moves from the Waking Room to the Corridor at W1.",
    ]
    latest = [f"<p:2> (Yellow) event {i} " + "y" * 90 + "." for i in range(9)]
    lines = summarise([(3, events), (4, latest), (5, latest)])
    older = next(line for line in lines if line.startswith("• Turn 3: "))
    assert ".;" not in older and "…" not in older
    assert older.startswith(f"• Turn 3: {events[0]} {events[1]}")
    shown = sum(event in older for event in events)
    assert older.endswith(f" (+{len(events) - shown} more)") if shown < len(events) else older.endswith(".")
    assert len(older) <= TURN_LINE


def test_an_event_without_a_full_stop_gets_one_before_the_next():
    older = ["Blue moves", "Yellow builds", *(["z" * 50 + "."] * 12)]
    lines = summarise([(1, older), (2, ["x" * 800])])
    assert any(line.startswith("• Turn 1: Blue moves. Yellow builds. z") for line in lines), lines
