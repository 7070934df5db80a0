"""Build hook: with ``ARGO_COMPILE=1`` the Argo engine (``bot/engine/argo``) is compiled with mypyc.

Without it (the default, and what development uses) the engine stays plain Python. Compiled, the
same source runs about twice as fast (see docs/argo-performance.md); the bot logs at start which
one it runs.
"""

import os

from setuptools import setup

ext_modules = []
# ARGO_NO_MYPYC: the build backend (_build/backend.py) runs a hook that does not compile (listing
# the build requirements, before mypy is installed; preparing metadata; making an sdist).
if os.environ.get("ARGO_COMPILE") == "1" and not os.environ.get("ARGO_NO_MYPYC"):
    from mypyc.build import mypycify

    ext_modules = mypycify(["bot/engine/argo", "bot/ai"], opt_level="3")

setup(ext_modules=ext_modules)
