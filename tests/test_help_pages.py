"""The /game rules pages as engine data: one per Module, Astronaut, Frontier, Item and Dark
Forest rule, built from the data texts, short enough for one Discord message, and matched by
what a player types."""

from __future__ import annotations

import re

import pytest

from bot.engine.argo import ArgoGame
from bot.engine.argo import data as argo_data
from bot.engine.argo.game import TM_WAIT_DEFAULT
from bot.engine.argoat import ArgoatGame
from bot.engine.argoat import data as argoat_data
from bot.engine.core import HelpPage, help_matches
from tests.pebbles import Pebbles

GAMES = [ArgoGame, ArgoatGame]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_page_fits_one_message_and_is_listed_on_the_overview(game):
    pages = game.help_topics()
    assert next(iter(pages)) == "overview"
    overview = pages["overview"].text
    for topic, page in pages.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", topic), topic
        assert len(page.message(game.name)) <= 2000, (topic, len(page.message(game.name)))
        assert page.title and page.text.strip() and page.group
        if topic != "overview":
            assert f"`{topic}`" in overview, topic
    assert len(pages["overview"].message(game.name)) <= 2000


def test_a_game_without_pages_has_none_by_default():
    assert Pebbles.help_topics() == {}


def test_argo_has_a_page_per_module_astronaut_and_basic_rule_built_on_the_data_texts():
    pages = ArgoGame.help_topics()
    kinds = {t.kind for t in argo_data.TILES}
    by_kind = {
        argo_data.WAKING_ROOM: "waking-room",
        argo_data.CORRIDOR: "corridors",
        argo_data.TELEPORTER: "teleporters",
        argo_data.POD: "escape-pods",
    }
    for kind in kinds:
        topic = by_kind.get(kind, kind.replace("_", "-"))
        assert argo_data.MODULE_EFFECTS[kind] in pages[topic].text, kind
    for role in argo_data.ROLES:
        assert argo_data.ROLE_ABILITIES[role] in pages[role.lower()].text, role
    for topic in ("turn", "movement", "aliens", "building", "scoring", "alien-track", "options"):
        assert topic in pages
    for text in (*argo_data.MODULE_EFFECTS.values(), *argo_data.ROLE_ABILITIES.values()):
        assert len(text) <= 100  # fits a select option's description


def test_argo_pages_agree_with_the_rules_notes_and_the_options():
    pages = ArgoGame.help_topics()
    tm = pages["time-machine"].text
    assert f"default {TM_WAIT_DEFAULT}" in tm and "tm_wait=0" in tm and "Don't ask me this turn" in tm
    assert "held" in tm and "between his two actions" in tm
    assert "**Room** (a Teleporter too, but not a Corridor)" in pages["laser"].text
    assert (
        "cannot be Activated" in pages["core-room"].text and "cannot be Activated" in pages["safe-room"].text
    )
    assert "already in the Core Room when your turn began" in pages["core-room"].text
    for spec in ArgoGame.option_specs:
        assert f"`{spec.name}`" in pages["options"].text
    track = pages["alien-track"].text
    for values in argo_data.ALIEN_TRACKS.values():
        assert " ".join(map(str, values)) in track
    assert "2 with an Alien symbol" in pages["corridors"].text  # counted from the tile data
    assert "`Pod-3/5`" in pages["escape-pods"].text and "`Pod-1/3` (3+ players)" in pages["escape-pods"].text


def test_argoat_has_a_page_per_frontier_item_and_dark_forest_rule_from_the_data_texts():
    pages = ArgoatGame.help_topics()
    titles = {page.title: page for page in pages.values()}
    for frontier in argoat_data.FRONTIERS:
        page = titles[frontier.name]
        assert frontier.text in page.text and page.group == "Frontiers"
        if frontier.action == argoat_data.TRAIL:  # three cards, one page
            assert "3 cards, roads: N E S W (Dragon symbol), E W, N S" in page.text
        else:
            assert f"Roads: {' '.join(frontier.roads)} ·" in page.text
            assert ("Dragon symbol: it brings a Dark Forest" in page.text) == frontier.dragon
    for item in argoat_data.ITEMS:
        page = titles[item.name]
        assert item.text in page.text and page.group == "Items"
        assert item.when[1:] in page.text
    for topic in ("dark-forest", "hollow", "eden", "darkness-deck"):
        assert pages[topic].group == "Dark Forest"
    assert argoat_data.ITEM_RULES in pages["items"].text
    for topic in ("turn", "movement", "bleina", "trading", "items", "fragments", "winning", "setup"):
        assert topic in pages
    dragons = [f.name for f in argoat_data.FRONTIERS if f.dragon]
    assert ", ".join(dragons) in pages["darkness-deck"].text and len(dragons) == 7
    for fragment in argoat_data.FRAGMENTS:
        assert f"{fragment.number}. {fragment.name}" in pages["fragments"].text


def test_help_matches_ranks_exact_then_prefix_then_anywhere():
    pages = {
        "lab": HelpPage("Lab", "x", "Modules"),
        "laser": HelpPage("Laser", "x", "Modules"),
        "jump-room": HelpPage("Jump Room", "x", "Modules"),
        "safe-room": HelpPage("Safe Room", "x", "Modules"),
        "grunt": HelpPage("Grunt", "x", "Astronauts"),
    }
    assert help_matches(pages, "") == list(pages)
    assert help_matches(pages, "LAB") == ["lab"]
    assert help_matches(pages, "la") == ["lab", "laser"]
    assert help_matches(pages, "room") == ["jump-room", "safe-room"]
    assert help_matches(pages, "jump room") == ["jump-room"] == help_matches(pages, "jump-room")
    assert help_matches(pages, "astronauts") == ["grunt"]
    assert help_matches(pages, "zzz") == []
