"""Names of the archive's folders and pages, shared by the archive builder and
the mail that links to it (so a link always names the page that is written)."""
from __future__ import annotations

import hashlib
import re


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def game_dir(name: str) -> str:
    """A folder name that is safe on any file system and in a URL."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
    if safe == name:
        return name
    # Two names that clean to the same folder ("a b", "a/b") keep apart.
    return f"{safe or 'game'}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def game_url(base_url: str, name: str) -> str | None:
    """The public address of a game's archive page, or None without ``server.base_url``."""
    if not base_url:
        return None
    return f"{base_url.rstrip('/')}/{game_dir(name)}/index.html"
