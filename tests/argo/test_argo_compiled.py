"""The Argo engine and the AI's search compiled with mypyc (``ARGO_COMPILE=1``, see setup.py)
behave exactly like the plain-Python code: a copy of the project is compiled in a temporary
folder, then the Argo engine tests (the golden corpus, the copy and property tests, the contract)
and the tests of the AI run there against the compiled modules."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    os.environ.get("ARGO_COMPILE_TEST") != "1",
    reason="compiling the Argo engine and the AI with mypyc takes about 2 minutes and needs gcc and "
    "the Python headers: set ARGO_COMPILE_TEST=1 to run it (.ci/run does)",
)

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("bot", "cogs", "render", "tests", "setup.py", "pyproject.toml")


def _copy_project(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=900
    )


def test_the_compiled_engine_passes_the_argo_and_ai_tests(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    _copy_project(project)
    built = _run([sys.executable, "setup.py", "build_ext", "--inplace"], project, ARGO_COMPILE="1")
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert list((project / "bot/engine/argo").glob("game.*.so")), "no compiled module was built"
    compiled_ai = {p.name.split(".")[0] for p in (project / "bot/ai").glob("*.so")}
    assert {"__init__", "search", "policy", "argo", "argoat"} <= compiled_ai, compiled_ai

    probe = _run(
        [
            sys.executable,
            "-c",
            "import bot.engine.argo as a, bot.engine.argo.game as g, bot.ai.search as s;"
            " print(a.COMPILED, g.__file__, s.__file__)",
        ],
        project,
    )
    assert probe.returncode == 0, probe.stderr
    compiled, where, search = probe.stdout.split()
    assert compiled == "True" and where.endswith(".so") and search.endswith(".so"), probe.stdout
    assert Path(where).is_relative_to(project), f"the copy imported another tree's engine: {where}"
    assert Path(search).is_relative_to(project), f"the copy imported another tree's search: {search}"

    # The start-up line says the engine runs compiled, and names a module edited after it was built.
    status = "from bot.engine import compiled; print(compiled.describe())"
    fresh = _run([sys.executable, "-c", status], project)
    assert fresh.stdout.strip() == "Argo engine: compiled with mypyc", fresh.stdout + fresh.stderr
    # bot/ai is compiled with the engine: an edit there is named too
    for path, named in (("bot/engine/argo/movement.py", "movement.py"), ("bot/ai/search.py", "ai/search.py")):
        source = project / path
        built_at = max(p.stat().st_mtime for p in source.parent.glob(f"{source.stem}.*.so"))
        os.utime(source, (built_at + 10, built_at + 10))
        stale = _run([sys.executable, "-c", status], project)
        assert f"older than its source ({named})" in stale.stdout, stale.stdout + stale.stderr
        os.utime(source, (built_at - 10, built_at - 10))

    tests = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "tests/argo",
            "tests/ai",
            "--ignore=tests/argo/test_argo_compiled.py",
        ],
        project,
    )
    assert tests.returncode == 0, tests.stdout[-5000:] + tests.stderr[-2000:]
    summary = tests.stdout.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 200 and "failed" not in summary, summary
