"""Lean installs: a plain install pulls neither mypy (only ``ARGO_COMPILE=1`` builds need it) nor
asyncpg (the ``postgres`` extra), and the bot runs on SQLite without asyncpg."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def test_the_build_backend_asks_for_mypy_only_when_compiling():
    code = """
import json, os, backend
asked = {}
for compile in ("", "1"):
    os.environ["ARGO_COMPILE"] = compile
    for hook in ("get_requires_for_build_wheel", "get_requires_for_build_editable"):
        asked[hook + compile] = getattr(backend, hook)()
print(json.dumps(asked))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": "_build"},
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    asked = json.loads(done.stdout.splitlines()[-1])  # setuptools prints its own lines first
    for hook in ("get_requires_for_build_wheel", "get_requires_for_build_editable"):
        assert not any(r.startswith("mypy") for r in asked[hook]), asked
        assert "mypy==2.4.1" in asked[hook + "1"], asked
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert build["build-backend"] == "backend" and build["backend-path"] == ["_build"]
    assert not any("mypy" in r for r in build["requires"])


def test_a_plain_install_pulls_neither_mypy_nor_asyncpg(tmp_path):
    """pip resolves a plain install as into a fresh environment (--ignore-installed), through the
    in-tree backend in an isolated build environment, without installing anything."""
    report = tmp_path / "report.json"
    env = {k: v for k, v in os.environ.items() if k != "ARGO_COMPILE"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-v", "--dry-run", "--ignore-installed",
         "--report", str(report), str(ROOT)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    items = json.loads(report.read_text())["install"]
    installed = {item["metadata"]["name"].lower().replace("_", "-") for item in items}
    expected = {"argo-table-bot", "discord.py", "aiohttp", "pillow", "prometheus-client", "python-dotenv"}
    assert expected <= installed
    assert "asyncpg" not in installed and "mypy" not in installed, sorted(installed)
    # The build environment got setuptools and nothing from the compiler.
    said = done.stdout + done.stderr
    assert "Getting requirements to build wheel: finished with status 'done'" in said, said[-3000:]
    assert "setuptools" in said and "installing backend dependencies" not in said.lower()
    assert "mypy" not in said.lower()


def test_the_bot_runs_on_sqlite_without_asyncpg_and_names_the_extra_for_postgres(tmp_path):
    code = """
import asyncio, sys
sys.modules["asyncpg"] = None  # as if the postgres extra were not installed
import bot.__main__, bot.running, bot.archive.rebuild, bot.app, cogs.game_commands
from bot.store import StoreError, open_store

async def main():
    store = await open_store(sys.argv[1])
    await store.close()
    try:
        await open_store("postgresql://bot@127.0.0.1:1/argo")
    except StoreError as exc:
        print(exc.exit_status, exc)

asyncio.run(main())
"""
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "games.db")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == [
        "2 a PostgreSQL DATABASE_URL needs the asyncpg driver: install the postgres extra "
        '(pip install "argo-table-bot[postgres]", or pip install -e ".[postgres]" in a checkout)'
    ]


def test_requirements_txt_pins_every_dependency_and_the_postgres_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[name.lower().replace("_", "-")] = version
    wanted = [*project["dependencies"], *project["optional-dependencies"]["postgres"]]
    for requirement in wanted:
        name = requirement.split(">")[0].split("<")[0].split("=")[0].strip().lower()
        assert name in pins, f"{name} is declared in pyproject.toml but not pinned in requirements.txt"


def test_an_sdist_with_argo_compile_is_plain_source_and_needs_no_mypyc(tmp_path):
    """``ARGO_COMPILE=1 python -m build`` first asks the backend for an sdist's requirements and
    then for the sdist, with mypyc not installed: both hooks must leave mypyc alone (setup.py
    imported it there, so the build failed), and the sdist carries the source, never a compiled
    module. The wheel hooks still ask for the compiler."""
    code = """
import json, os, sys, tarfile
sys.modules["mypyc"] = None  # not installed in the sdist's build environment
import backend
out = sys.argv[1]
requires = backend.get_requires_for_build_sdist()
name = backend.build_sdist(out)
with tarfile.open(os.path.join(out, name)) as sdist:
    names = sdist.getnames()
print(json.dumps({"requires": requires, "names": names,
                  "wheel": backend.get_requires_for_build_wheel(), "flag": os.environ.get(backend.NO_MYPYC)}))
"""
    source = tmp_path / "src"
    source.mkdir()
    subprocess.run(  # a copy of the tracked tree: building writes egg-info beside the source
        f"git ls-files -z | xargs -0 cp --parents -t {source}", shell=True, cwd=ROOT, check=True
    )
    out = tmp_path / "dist"
    out.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", code, str(out)], cwd=source,
        env={**os.environ, "PYTHONPATH": "_build", "ARGO_COMPILE": "1"},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.splitlines()[-1])
    assert not any("mypy" in r for r in said["requires"]), said["requires"]
    assert "mypy==2.4.1" in said["wheel"]
    assert said["flag"] is None  # the hooks put the environment back
    names = [n.split("/", 1)[-1] for n in said["names"]]
    for wanted in ("setup.py", "pyproject.toml", "_build/backend.py", "bot/engine/argo/game.py"):
        assert wanted in names, sorted(names)
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))], names


def _pins(path: Path) -> dict[str, tuple[str, list[str]]]:
    """``{normalised name: (version, [hashes])}`` of a pip requirements file."""
    pins: dict[str, tuple[str, list[str]]] = {}
    name = ""
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip().rstrip("\\").strip()
        if not text:
            continue
        if text.startswith("--hash="):
            pins[name][1].append(text.removeprefix("--hash="))
            continue
        raw, _, version = text.partition("==")
        assert version, f"not pinned: {line}"
        name = re.sub(r"[-_.]+", "-", raw.strip()).lower()
        pins[name] = (version.strip(), [])
    return pins


def test_requirements_dev_pins_the_dev_extra_with_hashes_and_ci_installs_it():
    """requirements-dev.txt pins every dependency of the dev extra and of the bot, each with its
    hashes and within pyproject.toml's ranges, at requirements.txt's versions where both pin;
    .ci/run installs it in hash-checking mode before the README's test command, run as written."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dev = _pins(ROOT / "requirements-dev.txt")
    for name, (version, hashes) in dev.items():
        assert hashes and all(h.startswith("sha256:") for h in hashes), f"{name}=={version} has no hash"
    for declared in [*project["dependencies"], *project["optional-dependencies"]["dev"]]:
        wanted = Requirement(declared)
        name = re.sub(r"[-_.]+", "-", wanted.name).lower()
        assert name in dev, f"{name} is declared in pyproject.toml but not pinned in requirements-dev.txt"
        assert wanted.specifier.contains(dev[name][0], prereleases=True), (declared, dev[name][0])
    for name, (version, _) in _pins(ROOT / "requirements.txt").items():
        assert dev[name][0] == version, f"{name}: {version} in requirements.txt, {dev[name][0]} in -dev"

    readme = (ROOT / "README.md").read_text()
    command = 'python3 -m venv .venv && .venv/bin/pip install -e ".[dev]" && .venv/bin/pytest'
    assert command in readme
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    ran = [i for i, line in enumerate(ci) if line.replace("time ", "") == command]
    pinned = [
        i for i, line in enumerate(ci) if "pip install --require-hashes -r requirements-dev.txt" in line
    ]
    assert ran and pinned and pinned[0] < ran[0], ci
