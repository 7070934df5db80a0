"""Panel texts are wrapped and cut as measuring every longer start would (one word, one
character at a time, as the renderer did), with fewer measurements: the same lines, so the
same pictures."""

from __future__ import annotations

import random

from render import argoat
from render import argoat_sprites as sp

_PHRASES = (
    "Red gives the Knowledge of Spirits, a look at the Dark Forest (-4,-1) and 1 of their Items;",
    "Yellow gives 2 Emeralds Forgotten Glittering Snowfields Moonlight Unmarked Wasteland nothing",
    "a an of the Bleina used extra turns: 12 Items played: Water 3, Wings 1 This turn: moved 1/1",
)
WORDS = tuple(word for phrase in _PHRASES for word in phrase.split())


def _wrap_word_by_word(text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if not line or sp.text_width(trial, size) <= width:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _cut_char_by_char(text: str, size: int, width: int) -> str:
    if sp.text_width(text, size) <= width:
        return text
    while text and sp.text_width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _texts(n: int) -> list[str]:
    rng = random.Random(7)
    out = [" ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 40))) for _ in range(n)]
    return [*out, "", "x", "Forgotten", "W" * 40, "a " * 30]


def test_wrapping_gives_the_lines_of_measuring_word_by_word() -> None:
    for i, text in enumerate(_texts(150)):
        size, width = (18, 20)[i % 2], (60, 140, 292, 500)[i % 4]
        lines = _wrap_word_by_word(text, size, width)
        assert sp.wrap(text, size, width) == lines, text
        for most in (1, 2, 3):
            head, rest = sp.wrap_head(text, size, width, most)
            assert head == lines[:most], text
            assert rest == " ".join(" ".join(lines[most:]).split()), text


def test_cutting_gives_the_text_of_cutting_character_by_character() -> None:
    for i, text in enumerate(_texts(150)):
        size, width = (18, 20)[i % 2], (20, 60, 140, 292)[i % 4]
        assert sp.ellipsize(text, size, width) == _cut_char_by_char(text, size, width), (text, width)


def test_the_panel_wraps_played_items_and_trade_terms_as_before() -> None:
    """Items played: the first two lines. Trade terms: three lines, the third the rest cut."""
    for text in _texts(60):
        lines = _wrap_word_by_word(text, sp.LABEL, 292)
        assert list(argoat._wrapped(text, 292, 2, False)) == lines[:2], text
        if len(lines) > 3:
            lines = [*lines[:2], _cut_char_by_char(" ".join(lines[2:]), sp.LABEL, 292)]
        assert list(argoat._wrapped(text, 292, 3, True)) == lines, text
