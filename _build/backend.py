"""The project's build backend: setuptools, plus mypy in the build requirements only when the
Argo engine is compiled (``ARGO_COMPILE=1``, see setup.py).

A plain ``pip install .`` therefore never downloads mypy; ``ARGO_COMPILE=1 pip install .`` gets
it in the isolated build environment, where setup.py imports ``mypyc``. Only building a wheel (or
an editable install) compiles: the hooks that list requirements, prepare metadata or make an
sdist run setup.py with :data:`NO_MYPYC` set, so that it neither imports mypyc (not installed yet
when requirements are listed, and never installed for an sdist) nor spends a mypy run on them.
``ARGO_COMPILE=1 python -m build`` thus makes a plain-source sdist, then a compiled wheel from it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every other hook as setuptools has it)

COMPILER = "mypy==2.4.1"
"""The mypyc release the compiled engine is built and tested with."""

NO_MYPYC = "ARGO_NO_MYPYC"
"""Set (to ``1``) while a hook that must not compile runs setup.py: setup.py then leaves mypyc
alone whatever ``ARGO_COMPILE`` says."""


def compiler_requires() -> list[str]:
    """The extra build requirements: the compiler when ``ARGO_COMPILE=1``, else none."""
    return [COMPILER] if os.environ.get("ARGO_COMPILE") == "1" else []


@contextlib.contextmanager
def _not_compiling() -> Iterator[None]:
    """Run setup.py without mypyc for the enclosed hook (see :data:`NO_MYPYC`)."""
    before = os.environ.get(NO_MYPYC)
    os.environ[NO_MYPYC] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[NO_MYPYC]
        else:
            os.environ[NO_MYPYC] = before


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for a wheel, plus the compiler when compiling."""
    with _not_compiling():
        return [*_setuptools.get_requires_for_build_wheel(config_settings), *compiler_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for an editable install, plus the compiler when compiling."""
    with _not_compiling():
        return [*_setuptools.get_requires_for_build_editable(config_settings), *compiler_requires()]


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for an sdist: never the compiler (an sdist is source only)."""
    with _not_compiling():
        return list(_setuptools.get_requires_for_build_sdist(config_settings))


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """The source distribution, never compiled (whatever ``ARGO_COMPILE`` says): the wheel built
    from it compiles when ``ARGO_COMPILE=1``."""
    with _not_compiling():
        return str(_setuptools.build_sdist(sdist_directory, config_settings))


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """The wheel's metadata, which compiling does not change: without a mypy run."""
    with _not_compiling():
        return str(_setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings))


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """The editable install's metadata, which compiling does not change: without a mypy run."""
    with _not_compiling():
        return str(_setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings))
