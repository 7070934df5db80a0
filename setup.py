"""Build hook: with ``ARGO_COMPILE=1`` the Argo engine (``bot/engine/argo``) is compiled with mypyc.

Without it (the default, and what development uses) the engine stays plain Python. Compiled, the
same source runs about twice as fast (see docs/argo-performance.md); the bot logs at start which
one it runs.
"""

import os

from setuptools import setup

ext_modules = []
if os.environ.get("ARGO_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(["bot/engine/argo"], opt_level="3")

setup(ext_modules=ext_modules)
