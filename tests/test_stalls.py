"""A SimCord test of a bot whose AI runs in processes settles on a busy host (docs/testing-stalls.md).

On a host whose cores are busy, Linux gives a process in the idle class (the bot's board workers
in production) almost no CPU. In production the board then comes from the backup worker after
0.15 s, but under SimCord the click waits for the idle-class worker: SimCord's clock cannot fire
that 0.15 s timeout while the board is being drawn, and it waits for every piece of work, also a
board the backup made needless. Whole games through SimCord stopped settling that way. The tests
therefore run the board workers at nice +10 without a backup (tests/conftest.py); this test stops
every board worker in the idle class, as a saturated host all but does, and the click must still
settle. With ``TEST_BOARD_PRIORITY=idle`` (the production setting) it does not.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import pytest

from bot.config import Settings
from cogs.boards import BOARDS
from tests.test_bot_argoat_kit import live

pytestmark = pytest.mark.simcord(settle_timeout=30)  # bots think in real time, on a busy machine too


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        token="test-token", database_path=tmp_path / "data" / "games.db", ai_workers=1, ai_budget=0.05
    )


def in_idle_class(pid: int) -> bool:
    try:
        return os.sched_getscheduler(pid) == getattr(os, "SCHED_IDLE", -1)
    except OSError:
        return False


async def test_a_click_settles_while_the_host_gives_the_idle_class_no_cpu(world, simcord_bot, seeds):
    w = world
    seeds.value = 3
    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="bots=1 tm_wait=0")).response
    await BOARDS.start(workers=True)  # started when boards need them: here, all of them now
    workers = [*BOARDS.worker_pids(), *BOARDS.backup_pids()]
    assert workers, "a bot whose AI runs in processes draws its boards in worker processes"
    starved = [pid for pid in workers if in_idle_class(pid)]
    for pid in starved:
        os.kill(pid, signal.SIGSTOP)
    try:
        await w.alice.click(lobby, label="Start")  # the first boards are drawn
    finally:
        for pid in starved:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
        simcord_bot.thinker.close()  # the AI's worker process, no longer needed
    table = await live(simcord_bot, w)
    assert table.game.prompt().player == str(w.alice.id)
    turn = w.channel.last_message
    assert turn.attachments and turn.attachments[0].filename == "board.png"
