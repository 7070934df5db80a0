"""discord.py cogs: slash commands and components, turned into table host calls."""
