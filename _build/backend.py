"""The project's build backend: setuptools, plus mypy in the build requirements only when the
Argo engine is compiled (``ARGO_COMPILE=1``, see setup.py).

A plain ``pip install .`` therefore never downloads mypy; ``ARGO_COMPILE=1 pip install .`` gets
it in the isolated build environment, where setup.py imports ``mypyc``.
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


def compiler_requires() -> list[str]:
    """The extra build requirements: the compiler when ``ARGO_COMPILE=1``, else none."""
    return [COMPILER] if os.environ.get("ARGO_COMPILE") == "1" else []


@contextlib.contextmanager
def _asking() -> Iterator[None]:
    # setuptools runs setup.py to list its requirements, before the compiler is installed: tell
    # setup.py not to import mypyc yet (it compiles in the build that follows).
    os.environ["ARGO_LISTING_REQUIRES"] = "1"
    try:
        yield
    finally:
        del os.environ["ARGO_LISTING_REQUIRES"]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for a wheel, plus the compiler when compiling."""
    with _asking():
        return [*_setuptools.get_requires_for_build_wheel(config_settings), *compiler_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for an editable install, plus the compiler when compiling."""
    with _asking():
        return [*_setuptools.get_requires_for_build_editable(config_settings), *compiler_requires()]
