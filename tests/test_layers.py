"""The layers of docs/architecture.md, enforced: every import of every module of bot/, cogs/ and
render/ (lazy imports inside functions included) is checked against the contracts below."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE_WORLD = ("discord", "asyncio", "aiohttp", "aiosqlite", "asyncpg", "PIL")
"""Packages that do I/O, wait, or draw: never imported by the pure layers."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """``bot/engine/argo/game.py`` -> ``bot.engine.argo.game`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path = ROOT) -> set[str]:
    """Every module ``path`` imports, absolute, at any depth of its source: ``from a import b``
    counts as ``a`` and as ``a.b`` (``b`` may be a module)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source:
                found.add(source)
            found |= {f"{source}.{alias.name}" if source else alias.name for alias in node.names}
    return found


def within(name: str, *packages: str) -> bool:
    """Whether ``name`` is one of ``packages`` or inside one."""
    return any(name == p or name.startswith(p + ".") for p in packages)


def engines_are_pure(_: str, imported: str) -> bool:
    """bot/engine imports no I/O, no drawing and nothing of the bot but the engines."""
    if within(imported, *OUTSIDE_WORLD, "render", "cogs"):
        return True
    return within(imported, "bot") and imported != "bot" and not within(imported, "bot.engine")


def ai_sees_only_engines(_: str, imported: str) -> bool:
    """bot/ai imports no I/O and nothing of the bot but the engines and itself."""
    if within(imported, *OUTSIDE_WORLD, "render", "cogs"):
        return True
    inside = within(imported, "bot.engine", "bot.ai")
    return within(imported, "bot") and imported != "bot" and not inside


def render_reads_views(_: str, imported: str) -> bool:
    """render/ imports nothing of the bot (engines, host, store) nor of Discord."""
    return within(imported, "bot", "cogs", "discord")


def host_without_cogs(module: str, imported: str) -> bool:
    """Only the service's assembly (bot/app.py) imports cogs/: the host and its helpers never do."""
    return module != "bot.app" and within(imported, "cogs")


CONTRACTS = {
    "bot/engine": engines_are_pure,
    "bot/ai": ai_sees_only_engines,
    "render": render_reads_views,
    "bot": host_without_cogs,
}
"""Each folder's contract: a function of (module, an import of it) that is True when refused."""


def broken(folder: str, root: Path = ROOT) -> list[str]:
    """``module: import`` for every import under ``folder`` that its contract refuses."""
    forbidden = CONTRACTS[folder]
    found = []
    for path in sorted((root / folder).rglob("*.py")):
        name = module_name(path, root)
        for imported in sorted(imports(path, root)):
            if forbidden(name, imported):
                found.append(f"{name}: {imported}")
    return found


@pytest.mark.parametrize("folder", list(CONTRACTS))
def test_every_module_keeps_its_layers_contract(folder):
    assert broken(folder) == []


def test_the_checks_see_every_module():
    """The walk finds the modules it should (a wrong root would find none and pass)."""
    assert len(list((ROOT / "bot/engine").rglob("*.py"))) > 20
    assert "bot.engine.registry" in {module_name(p) for p in (ROOT / "bot/engine").rglob("*.py")}
    assert "bot.store" in imports(ROOT / "bot/tables.py") or "bot.store" in imports(ROOT / "bot/host_core.py")


@pytest.mark.parametrize(
    ("source", "module", "folder"),
    [
        ("import asyncio\n", "bot/engine/fake.py", "bot/engine"),
        ("def f():\n    from bot.store import open_store\n", "bot/engine/argo/fake.py", "bot/engine"),
        ("from bot import tables\n", "bot/ai/fake.py", "bot/ai"),
        ("from PIL import Image\n", "bot/ai/fake.py", "bot/ai"),
        ("from .. import cogs\n", "render/fake.py", "render"),
        ("from bot.engine.argo import ArgoGame\n", "render/fake.py", "render"),
        ("from cogs.game_commands import GameCog\n", "bot/fake.py", "bot"),
    ],
)
def test_each_contract_refuses_a_forbidden_import(tmp_path, source, module, folder):
    """A module that breaks its folder's contract is named (in a copy of the layout: the checks
    can fail)."""
    fake = tmp_path / module
    fake.parent.mkdir(parents=True, exist_ok=True)
    fake.write_text(source)
    found = broken(folder, tmp_path)
    assert found and all(line.startswith(f"{module_name(fake, tmp_path)}: ") for line in found), found
