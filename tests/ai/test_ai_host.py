"""The host's way in: ``bot.thinking`` hands a game's JSON to ``bot.ai.choose_action``."""

from __future__ import annotations

from ai_positions import positions

from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame
from bot.thinking import Thinker, decide


def test_the_worker_function_answers_with_a_legal_action():
    for cls in (ArgoGame, ArgoatGame):
        game = positions(cls, 3, 6, count=2, every=15)[-1]
        player = game.prompt().player
        action = decide(cls.name, game.to_json(), player, "hard", 3, 0.02)
        assert action in game.legal_actions(player)


async def test_the_thinker_chooses_off_the_loop():
    game = positions(ArgoatGame, 2, 8, count=2, every=11)[-1]
    player = game.prompt().player
    thinker = Thinker(workers=0, budget_s=0.02)
    try:
        action = await thinker.choose(game, player, "easy", 1)
    finally:
        thinker.close()
    assert action in game.legal_actions(player)
