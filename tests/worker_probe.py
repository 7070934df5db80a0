"""Functions a test runs inside a worker process forked from the bot's worker server, with no
start-up of its own (no initializer): what they see is what the worker got from the server.

``python -m tests.worker_probe`` is also a small bot for tests/test_worker_server.py: it draws one
board through a lazily started :class:`cogs.boards.BoardPool`, has a :class:`bot.thinking.Thinker`
make one decision, prints the process ids of the board worker, the AI worker and the worker
server as one JSON line, then waits to be killed.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any


def inherited() -> dict[str, Any]:
    """This process's parent and what it holds already: the server's preload, the AI warmed,
    the renderer's caches warmed."""
    import bot.thinking
    import render
    from bot import workers
    from render import memo

    return {
        "pid": os.getpid(),
        "parent": os.getppid(),
        "preloaded": workers.preloaded(),
        "ai_imported": "bot.ai" in sys.modules,
        "ai_warm": bot.thinking._warm,
        "render_warm": render._warmed == memo.clearings(),
    }


def sprites_built(view: dict[str, Any]) -> int:
    """How many sprites drawing ``view`` builds in this process."""
    import render
    from render import memo

    start = memo.builds()
    render.board_png(view)
    return memo.builds() - start


async def _bot() -> None:
    from bot import workers
    from bot.engine.argo import GAME
    from bot.thinking import Thinker
    from cogs.boards import BoardPool

    game = GAME.new(["a", "b"], 3, {})
    boards = BoardPool(1)
    thinker = Thinker(workers=1, budget_s=0.05)
    await asyncio.gather(boards.start(), thinker.start())  # as the bot starts: no worker yet
    before = {"boards": boards.worker_pids(), "ai": thinker.worker_pids()}
    await boards.png(game.view(None))
    await thinker.choose(game, game.prompt().player, "easy", 1)
    pids = {"board": boards.worker_pids(), "ai": thinker.worker_pids(), "server": workers.server_pid()}
    print(json.dumps({"before": before, **pids}), flush=True)
    await asyncio.sleep(600)


if __name__ == "__main__":
    asyncio.run(_bot())
