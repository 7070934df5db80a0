"""The Argo/Argoat Discord bot: configuration, table host, persistence and the rules engines."""
