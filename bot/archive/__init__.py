"""The table archive: replays rebuilt from the event log, results, ratings and stats (all
computed from what the store keeps, so they can be rebuilt at any time)."""
