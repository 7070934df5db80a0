"""``python -m bot [run|sync|migrate|ratings] …``: see ``bot.cli`` (``python -m bot --help``)."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
