"""Victory, views (public and private), prompts, notation, JSON."""

from __future__ import annotations

import json

import pytest
from argoat_helpers import (
    BASE,
    act,
    beside_town,
    marker,
    new_game,
    notations,
    refuses,
    scenario,
    setup,
    stack,
    texts,
)

from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import FRAGMENT_KEYS, FRONTIER_BY_KEY
from bot.engine.argoat.notation import VERBS

FOREST_MAP = {**BASE, "0,2": "lake"}


def eden_game(content: str = "Eden") -> ArgoatGame:
    game = scenario(FOREST_MAP, forests=[("0,3", "S", content)])
    setup(game, "ann", at="0,2", fragments=FRAGMENT_KEYS)
    return game


def test_flipping_eden_with_all_eight_fragments_wins() -> None:
    game = eden_game()
    act(game, "ann", "move N")
    events = act(game, "ann", "end")
    assert [e.kind for e in events][-2:] == ["flip", "win"]
    result = game.result()
    assert result is not None and result.winners == ("ann",)
    assert result.scores == {"ann": 8, "bob": 0, "cid": 0}
    assert "<p:ann>" in result.text
    assert game.prompt() is None
    assert all(game.legal_actions(p) == [] for p in game.players)
    view = game.view(None)
    assert view["finished"] and view["winner"] == "ann" and view["active"] is None
    assert view["forests"][0]["content"] == "Eden"
    assert refuses(game, "bob", {"type": "move", "dir": "N"}) == "The game is over."


def test_finding_eden_without_the_eight_fragments_does_not_win() -> None:
    game = eden_game()
    setup(game, "ann", fragments=FRAGMENT_KEYS[:7])
    act(game, "ann", "move N")
    events = act(game, "ann", "end")
    assert game.result() is None
    assert texts(events, "ann") == ["The Dark Forest (0,3) hides Eden."]
    assert not game.state.forests[(0, 3)].flipped


def test_the_public_view_has_what_a_renderer_needs() -> None:
    game = scenario(FOREST_MAP, forests=[("0,3", "S", "Hollow")])
    marker(game, "0,3", "bob")
    view = game.view(None)
    json.dumps(view)
    assert view["game"] == "Argoat" and view["active"] == "ann" and not view["finished"]
    ann = view["players"][0]
    assert {
        "id",
        "colour",
        "letter",
        "at",
        "x",
        "y",
        "emeralds",
        "fragments",
        "items",
        "markers_left",
        "seat",
    } <= set(ann)
    assert (ann["colour"], ann["letter"]) == ("Red", "R")
    assert view["players"][1]["markers_left"] == 3
    town = next(f for f in view["frontiers"] if f["at"] == "0,0")
    assert town["name"] == "Frontier Town" and town["roads"] == ["N", "E", "S", "W"]
    lake = next(f for f in view["frontiers"] if f["key"] == "lake")
    assert lake["dragon"] is True and (lake["x"], lake["y"]) == (0, 2)
    assert view["forests"] == [
        {"at": "0,3", "x": 0, "y": 3, "roads": ["S"], "flipped": False, "markers": ["Blue"]}
    ]
    assert view["bleinas"] == ["0,0"]
    assert view["decks_empty"] == {"discovery": False, "supply": False, "darkness": False}
    assert view["bank"] + sum(p["emeralds"] for p in view["players"]) == 25
    assert view["reliquary"]["sun"] == 5
    assert view["prompt"]["player"] == "ann"
    assert view["bounds"] == {"min_x": -1, "max_x": 1, "min_y": -1, "max_y": 3}
    assert "you" not in view


def test_a_players_view_adds_only_their_items_and_peeks() -> None:
    game = scenario(FOREST_MAP, forests=[("0,3", "S", "Eden")])
    marker(game, "0,3", "bob")
    setup(game, "ann", items=["flute"])
    setup(game, "bob", items=["eye"])
    bob = game.view("bob")
    assert bob["you"]["items"] == ["eye"]
    assert bob["you"]["peeks"] == [{"at": "0,3", "content": "Eden"}]
    ann = game.view("ann")
    assert ann["you"]["peeks"] == [] and ann["you"]["items"] == ["flute"]
    assert "Eden" not in json.dumps(ann) and "eye" not in json.dumps(ann)
    assert "Eden" not in json.dumps(game.view(None))
    public = json.dumps(game.view(None))
    assert "flute" not in public and "Flute" not in public


def test_prompts_are_private_exactly_when_the_decider_holds_items() -> None:
    game = scenario(BASE)
    assert not game.prompt().private
    setup(game, "ann", items=["water"])
    assert game.prompt().private
    act(game, "ann", "move S")
    assert game.prompt().private
    act(game, "ann", "end")
    assert game.prompt().player == "bob" and not game.prompt().private  # Bob holds nothing


def test_events_and_prompts_name_players_by_reference() -> None:
    game = scenario(BASE)
    assert "<p:ann>" in game.prompt().text
    events = act(game, "ann", "move S")
    assert events[0].text.startswith("<p:ann> moves S")
    assert events[0].data == {"player": "ann", "from": "0,0", "to": "0,-1"}


def test_notation_tokens_are_short_and_verbs_few() -> None:
    assert len(VERBS) <= 10
    game = scenario({**BASE, "0,2": "lake"}, forests=[("0,3", "S", "Eden")])
    marker(game, "0,3", "ann")
    setup(
        game, "ann", items=["staff", "book", "eye", "wings", "water", "flute"], emeralds=3, fragments=["sun"]
    )
    setup(game, "bob", items=["book"], fragments=["moon"])
    seen = notations(game, "ann")
    act(game, "ann", "trade Blue")
    seen += notations(game, "ann")
    for text in seen:
        tokens = text.split()
        assert tokens[0] in VERBS
        assert all(len(t) <= 80 for t in tokens)
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("seed", [3, 4])
def test_json_round_trip_mid_turn(seed: int) -> None:
    game = new_game(4, seed=seed)
    player = game.prompt().player
    act(game, player, notations(game, player)[0])
    data = game.to_json()
    text = json.dumps(data)
    copy = ArgoatGame.from_json(json.loads(text))
    assert copy.to_json() == data
    assert copy.legal_actions(player) == game.legal_actions(player)
    assert copy.view(player) == game.view(player)


def _places(game: ArgoatGame, player: str) -> list[str]:
    return [a["at"] for a in game.legal_actions(player) if a["type"] == "place"]


def test_the_view_shows_the_drawn_frontier_and_where_it_may_go() -> None:
    """The Town's card is face up once drawn: the view gives its face and the cells `place`
    accepts, then the cells of its Dark Forest; nothing once it is all placed."""
    game = scenario(BASE)
    stack(game, discovery=["lake"])
    view = game.view(None)
    assert view["drawn_card"] is None and view["placement_cells"] == []
    setup(game, "ann", at="0,-1")
    act(game, "ann", "move N")
    act(game, "ann", "end")
    view = game.view(None)
    assert view["phase"] == "place_frontier" and view["drawn"] == "lake"
    lake = FRONTIER_BY_KEY["lake"]
    assert view["drawn_card"] == {
        "key": "lake",
        "name": lake.name,
        "roads": ["N", "S"],
        "dragon": True,
        "fragment": "sun",
        "action": lake.text,
    }
    assert view["placement_cells"] == _places(game, "ann") != []
    assert game.view("bob")["placement_cells"] == view["placement_cells"]
    act(game, "ann", f"place {view['placement_cells'][0]}")
    view = game.view(None)
    assert view["phase"] == "place_forest" and view["drawn_card"] is None
    assert view["placement_cells"] == _places(game, "ann") != []
    act(game, "ann", f"place {view['placement_cells'][-1]}")
    view = game.view(None)
    assert view["phase"] == "turn" and view["placement_cells"] == []
    assert view["drawn_card"] is None


def test_a_dreamt_frontier_is_shown_while_it_resolves_then_hidden() -> None:
    """Q6: the card drawn at the Hill of Dreams is resolved in the open (the public `dream`
    event names it), so the view shows it while its action waits for a choice; once it is
    buried at the bottom of the Discovery Deck no view names it."""
    game, side = beside_town("hill")
    setup(game, "ann", emeralds=2)
    stack(game, discovery=["caravan"], supply=["book"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pay")
    view = game.view(None)
    assert view["phase"] == "dream" and view["drawn_card"]["key"] == "caravan"
    assert view["placement_cells"] == []
    act(game, "ann", "end pass")
    assert game.state.discovery[-1] == "caravan"
    for player in (None, "ann", "bob"):
        view = game.view(player)
        assert view["drawn"] is None and view["drawn_card"] is None
        assert "caravan" not in json.dumps(view).lower()


def test_event_and_prompt_shorthands_equal_plain_ones() -> None:
    from bot.engine.argoat import events
    from bot.engine.core import Event, Prompt

    made = events.event("<p:ann> moves N.", kind="move", data={"player": "ann"})
    assert made == Event("<p:ann> moves N.", kind="move", data={"player": "ann"}) and made.public
    secret = events.event("You drew the Book of Wisdom.", to="ann", kind="item_drawn")
    assert secret == Event("You drew the Book of Wisdom.", to="ann", kind="item_drawn")
    assert secret.data == {} and not secret.public
    asked = events.prompt("bob", "<p:bob>, accept?", others=("ann",), others_label="Withdraw")
    assert asked == Prompt("bob", "<p:bob>, accept?", others=("ann",), others_label="Withdraw")
    assert asked.deciders() == ("bob", "ann") and asked.timeout is None and not asked.private


def test_the_final_ranking_puts_the_winner_first_then_fragments_then_emeralds() -> None:
    game = eden_game()
    setup(game, "bob", fragments=FRAGMENT_KEYS[:2], emeralds=1)
    setup(game, "cid", fragments=FRAGMENT_KEYS[2:4], emeralds=3)
    act(game, "ann", "move N")
    act(game, "ann", "end")
    result = game.result()
    assert result is not None
    assert result.ranked() == ["ann", "cid", "bob"]  # bob and cid tie on Fragments: Emeralds decide
    assert result.details["cid"] == "3 Emeralds" and result.details["bob"] == "1 Emerald"
    assert result.to_json()["ranking"] == ["ann", "cid", "bob"]
