"""Build hook: with ``ARGO_COMPILE=1`` the Argo engine (``bot/engine/argo``) is compiled with mypyc.

Without it (the default, and what development uses) the engine stays plain Python. Compiled, the
same source runs about twice as fast (see docs/argo-performance.md); the bot logs at start which
one it runs.
"""

import os

from setuptools import setup

ext_modules = []
# ARGO_LISTING_REQUIRES: the build backend (_build/backend.py) is only listing the build
# requirements, and mypy, which it adds when compiling, is not installed yet.
if os.environ.get("ARGO_COMPILE") == "1" and not os.environ.get("ARGO_LISTING_REQUIRES"):
    from mypyc.build import mypycify

    ext_modules = mypycify(["bot/engine/argo", "bot/ai"], opt_level="3")

setup(ext_modules=ext_modules)
