"""Pure rules engines. Each game lives in a subpackage that exposes ``GAME`` (a core.Game class)."""
