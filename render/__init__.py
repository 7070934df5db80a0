"""Pillow drawing of public game views (board PNGs). Each game has a module exposing ``render``."""
