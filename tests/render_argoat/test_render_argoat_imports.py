"""The Argoat renderer reads views only: it imports nothing from the engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "render").glob("argoat*.py"))


def test_there_are_argoat_render_modules() -> None:
    assert {m.name for m in MODULES} >= {"argoat.py", "argoat_sprites.py", "argoat_palette.py"}


def test_no_argoat_render_module_imports_the_engine() -> None:
    """No `import bot...` / `from bot... import`, at any depth of the source (lazy imports
    inside functions included), and relative imports stay inside `render`."""
    for path in MODULES:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level <= 1, f"{path.name} imports from outside render/"
                names = [node.module or ""] if node.level == 0 else []
            else:
                continue
            for name in names:
                assert name != "bot" and not name.startswith("bot."), f"{path.name}: {name}"
        assert "importlib" not in path.read_text(), f"{path.name} imports dynamically"


def test_rendering_loads_no_engine_module() -> None:
    """A fresh interpreter renders a view with every Argoat render module loaded, and no
    `bot` module is ever imported."""
    code = (
        "import sys\n"
        "from render import argoat, argoat_palette, argoat_sprites\n"
        "for view in argoat_palette.swatch_views():\n"
        "    assert argoat.render_board(view)[:8] == b'\\x89PNG\\r\\n\\x1a\\n'\n"
        "print(sorted(m for m in sys.modules if m == 'bot' or m.startswith('bot.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
