"""The golden corpus of Argo games: seeded random games traced step by step and hashed.

A trace holds, at every step, the prompt, each player's legal actions (notations and the actions
themselves, in order), the action taken, the events it produced (text, audience, kind, data),
the full ``to_json()`` and the public view. ``argo_golden.json`` stores one SHA-256 per game and
its number of steps, recorded with the engine of commit 710e043 (after the rules fixes of issue 9,
before any speed work), and re-recorded once when two event texts changed (a full Alien track said
in words, "1 point" in the singular): with those texts mapped back to the old ones every game
reproduced its old hash. Re-recorded for issue 22, when the Laser began to shoot Aliens on
Teleporters (3 of the 60 games changed), and again when the "turned face up" event named the
tile as printed instead of by its notation token (every game has that event), and for issue 35,
when an Escape Pod taking off kept its capitals ("The Escape Pod 1/2 at N2W3", was "The escape pod
1/2 at n2w3"; with that text mapped back every game reproduced its old hash).
``test_argo_golden.py`` checks that the present engine reproduces every hash.

Regenerate only when the rules change on purpose: ``python tests/argo/argo_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.engine.argo import ArgoGame
from bot.engine.core import SYSTEM, TIMEOUT

CORPUS = Path(__file__).with_name("argo_golden.json")
STEP_CAP = 4000


@dataclass(frozen=True)
class Spec:
    """One corpus game: player count, engine seed, options, the random driver's seed and style.

    An ``eager`` driver takes an Activation, a Time Machine interrupt or a pass half of the time
    one is legal, so that Module effects and interrupts are well covered."""

    players: int
    seed: int
    options: tuple[tuple[str, Any], ...]
    driver: int
    eager: bool = False

    @property
    def key(self) -> str:
        """A readable name for the game."""
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        style = " eager" if self.eager else ""
        return f"{self.players}p seed={self.seed} driver={self.driver}{style} {opts}".strip()


def specs() -> list[Spec]:
    """The 60 corpus games: 20 each of 2, 3 and 4 players, every option varied, half eager."""
    out = []
    difficulties = ("easy", "medium", "hard")
    for i in range(60):
        players = 2 + i % 3
        options: dict[str, Any] = {"difficulty": difficulties[(i // 3) % 3]}
        if i % 4 == 1:
            options["tm_wait"] = 1
        if i % 5 == 2:
            options["deep_space"] = "on"
        out.append(Spec(players, 1000 + 17 * i, tuple(sorted(options.items())), 7 * i + 3, i >= 30))
    return out


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def _recorded_result(result: dict[str, Any]) -> dict[str, Any]:
    """The result as the corpus recorded it (later contract fields, like the ranking, left out)."""
    return {key: result[key] for key in ("winners", "scores", "text")}


def _recorded_view(view: dict[str, Any]) -> dict[str, Any]:
    if view.get("result") is None:
        return view
    return {**view, "result": _recorded_result(view["result"])}


def trace(spec: Spec) -> tuple[int, str]:
    """Play the spec's game with its seeded random driver: (steps, SHA-256 of the trace)."""
    players = [f"p{i}" for i in range(spec.players)]
    game = ArgoGame.new(
        players, spec.seed, {"tm_wait": 0, **dict(spec.options)}
    )  # recorded when 0 was the default
    rng = random.Random(spec.driver)
    digest = hashlib.sha256()
    for step in range(STEP_CAP):
        digest.update(_dump(game.to_json()))
        digest.update(_dump(_recorded_view(game.view(None))))
        prompt = game.prompt()
        if prompt is None:
            digest.update(_dump(_recorded_result(game.result().to_json())))
            return step, digest.hexdigest()
        digest.update(
            _dump([prompt.player, prompt.text, list(prompt.others), prompt.others_label, prompt.timeout])
        )
        legal = {p: game.legal_actions(p) for p in players}
        for p in players:
            digest.update(_dump([[game.notation(a), a] for a in legal[p]]))
        deciders = [p for p in prompt.deciders() if legal[p]]
        if not deciders:
            who, action = SYSTEM, TIMEOUT
        else:
            who = deciders[0] if rng.random() < 0.85 else rng.choice(deciders)
            options = legal[who]
            plain = [a for a in options if a["type"] not in ("undo", "cancel")]
            keen = [a for a in plain if a["type"] in ("activate", "timemachine", "pass")]
            if spec.eager and keen and rng.random() < 0.5:
                action = rng.choice(keen)
            else:
                action = rng.choice(plain if plain and rng.random() > 0.04 else options)
        digest.update(_dump([who, action]))
        events = game.apply(who, action)
        digest.update(_dump([[e.text, e.to, e.kind, e.data] for e in events]))
    raise RuntimeError(f"{spec.key}: no end after {STEP_CAP} steps")


def main() -> None:
    """Record the corpus with the engine on the path."""
    corpus = {}
    for spec in specs():
        steps, digest = trace(spec)
        corpus[spec.key] = {"steps": steps, "sha256": digest}
        print(f"{spec.key}: {steps} steps")
    CORPUS.write_text(json.dumps(corpus, indent=1) + "\n")


if __name__ == "__main__":
    main()
