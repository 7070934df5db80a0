"""Whether the Argo engine runs compiled (mypyc, ``ARGO_COMPILE=1`` at install) or as plain Python."""

from __future__ import annotations

from pathlib import Path

from bot.engine import argo


def stale_modules() -> list[str]:
    """Argo engine modules (and ``bot/ai`` modules, compiled with it: ``ai/name.py``) whose
    source changed after they were compiled (empty when not compiled).

    Python loads a compiled module in place of its source, so an edit to such a module has no
    effect until the engine is compiled again (or the compiled files are deleted)."""
    if not argo.COMPILED:
        return []
    folder = Path(argo.__file__).parent
    stale = []
    for prefix, where in (("", folder), ("ai/", folder.parents[1] / "ai")):
        for source in sorted(where.glob("*.py")):
            built = list(where.glob(f"{source.stem}.*.so"))
            if built and source.stat().st_mtime > max(b.stat().st_mtime for b in built):
                stale.append(prefix + source.name)
    return stale


def describe(stale: list[str] | None = None) -> str:
    """One line for the start-up log: how the Argo engine runs (``stale``: the modules
    :func:`stale_modules` found, if the caller already asked)."""
    if not argo.COMPILED:
        return "Argo engine: plain Python (ARGO_COMPILE=1 pip install -e . compiles it, about twice as fast)"
    if stale is None:
        stale = stale_modules()
    if stale:
        return (
            f"Argo engine: compiled, but older than its source ({', '.join(stale)}): the source "
            "changes do not run; compile again or delete bot/engine/argo/*.so"
        )
    return "Argo engine: compiled with mypyc"
