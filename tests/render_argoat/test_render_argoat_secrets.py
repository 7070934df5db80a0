"""Two games that differ only in secrets give the same public view and the same picture."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.engine.argoat import GAME
from render import argoat

SKIP = frozenset({"undo", "cancel", "withdraw", "decline"})
OTHER_ITEM = {
    "staff": "book",
    "book": "eye",
    "eye": "wings",
    "wings": "water",
    "water": "flute",
    "flute": "staff",
}


def _secretive_game(seed: int) -> Any:
    """A running game with at least one face-down Dark Forest and an Item in someone's hand."""
    options = {spec.name: spec.default for spec in GAME.option_specs}
    game = GAME.new(["ann", "bob", "cid", "dee"], seed, options)
    rng = random.Random(seed)
    for _ in range(5000):
        prompt = game.prompt()
        assert prompt is not None, "the game ended before it had secrets to hide"
        view = game.view(None)
        face_down = [f for f in view["forests"] if not f["flipped"]]
        holders = [p for p in view["players"] if p["items"]]
        if view["phase"] == "turn" and len(face_down) >= 2 and holders:
            return game
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
    raise AssertionError("no secretive position reached")


def _twin_with_other_secrets(game: Any) -> Any:
    """The same game with every secret changed: where Eden sleeps, the Items' kinds, the
    order of the Discovery Deck, the Supply and the Darkness Deck."""
    data = json.loads(json.dumps(game.to_json()))
    state = data["state"]
    hidden = [f for f in state["forests"] if not f["flipped"]]
    contents = [f["content"] for f in hidden] + list(state["darkness"])
    eden = contents.index("Eden")
    # move Eden to another face-down forest (or into the deck), Hollows elsewhere
    target = (eden + 1) % len(contents)
    contents[eden], contents[target] = contents[target], contents[eden]
    for forest, content in zip(hidden, contents, strict=False):
        forest["content"] = content
    state["darkness"] = contents[len(hidden) :]
    for seat in state["seats"]:
        seat["items"] = [OTHER_ITEM[k] for k in seat["items"]]
    state["supply"] = list(reversed(state["supply"]))
    state["discovery"] = list(reversed(state["discovery"]))
    return type(game).from_json(data)


def _forest_contents(game: Any) -> list[str]:
    return [f["content"] for f in game.to_json()["state"]["forests"]]


def test_games_differing_only_in_secrets_draw_the_same_picture() -> None:
    for seed in (1, 2, 5):
        game = _secretive_game(seed)
        twin = _twin_with_other_secrets(game)
        # the secrets really differ ...
        assert _forest_contents(game) != _forest_contents(twin)
        holder = next(p["id"] for p in game.view(None)["players"] if p["items"])
        assert game.view(holder)["you"]["items"] != twin.view(holder)["you"]["items"]
        # ... but nothing public does, and neither does the picture
        assert game.view(None) == twin.view(None)
        assert argoat.render_board(game.view(None)) == argoat.render_board(twin.view(None))


def test_public_view_has_no_forest_content_before_flipping() -> None:
    game = _secretive_game(3)
    for forest in game.view(None)["forests"]:
        assert ("content" in forest) == forest["flipped"]


def test_deck_sizes_are_not_drawn_only_whether_a_deck_is_empty() -> None:
    # Q6: nobody may count the decks. A twin with shorter (non-empty) decks draws the same
    # picture; an empty deck is drawn differently ("empty" instead of a card back).
    game = _secretive_game(4)
    data = json.loads(json.dumps(game.to_json()))
    for deck in ("discovery", "supply"):
        data["state"][deck] = data["state"][deck][:1]
    twin = type(game).from_json(data)
    assert game.view(None) == twin.view(None)
    picture = argoat.render_board(game.view(None))
    assert picture == argoat.render_board(twin.view(None))
    data["state"]["supply"] = []
    emptied = type(game).from_json(data)
    assert emptied.view(None)["decks_empty"]["supply"] is True
    assert argoat.render_board(emptied.view(None)) != picture
