"""Imported by the bot's worker server as it starts (:data:`bot.workers.PRELOAD`), and by nothing
else: importing this module warms the process that imports it (:func:`bot.workers.warm_server`),
so that every worker forked from the server starts warm."""

from bot.workers import warm_server

warm_server()
