"""Handlers for each mail command: one small function per command."""
