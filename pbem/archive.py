"""The public archive: a static site with every game and every resolved phase.

Pages are rendered by jinja2 from ``templates/archive/`` (autoescape,
StrictUndefined).  Every link is relative, so the site reads the same from
file:// as from a web server, and no page needs JavaScript.

The archive is public, so it is built only from what anyone may see: the
public report, public treaties, the dice, the GM log with addresses removed.
Addresses, secrets, press, secret treaties and each power's own report never
reach a template; as a last guard every value a template prints has anything
shaped like an email address replaced.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from . import store, turns
from .context import Context
from .db import loads, utcnow_iso
from .gameapi import Game
from .private_files import PUBLIC_DIR, PUBLIC_FILE, make_dirs
from .resources import resource

log = logging.getLogger(__name__)

TEMPLATES = resource("templates") / "archive"
EMAIL = re.compile(r"[A-Za-z0-9._%+=-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
WITHHELD = "[address withheld]"
_ANGLED = re.compile(r"<[^<>]*>")
# A treaty record the moderator logs for a secret treaty ("SET TREATY T1 ... SECRET").
_SECRET_TREATY = re.compile(r"\bTREATY\b.*\bSECRET\b", re.I | re.S)
_PHASE_PAGE = re.compile(r"^\d+-[a-z0-9-]*\.html$")


def redact(text: str) -> str:
    return EMAIL.sub(WITHHELD, text)


def _finalize(value: Any) -> Any:
    if isinstance(value, Markup):
        return Markup(redact(str(value)))
    if isinstance(value, str):
        return redact(value)
    return value


def _field(value: Any) -> str:
    """An event field or a view value as one line of text."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return "" if value is None else str(value)
    if isinstance(value, list) and all(_scalar(v) for v in value):
        return ", ".join(_field(v) for v in value)
    if isinstance(value, dict) and all(_scalar(v) for v in value.values()):
        return ", ".join(f"{k} {_field(v)}" for k, v in value.items())
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _when(text: str | None) -> str:
    """ISO-8601 UTC as people read it: 2026-03-01 12:00:00 UTC."""
    if not text:
        return ""
    return text.replace("T", " ").replace("+00:00", " UTC")


_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
    undefined=jinja2.StrictUndefined, finalize=_finalize, trim_blocks=True, lstrip_blocks=True)
_env.filters["field"] = _field
_env.filters["when"] = _when


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def game_dir(name: str) -> str:
    """A folder name that is safe on any file system and in a URL."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
    if safe == name:
        return name
    # Two names that clean to the same folder ("a b", "a/b") keep apart.
    return f"{safe or 'game'}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


# -- what the pages show ---------------------------------------------------

def _rules(rec: store.GameRecord) -> Game | None:
    """The game's rules, or None when its plug-in is not installed here
    (one missing game must not stop the rest of the archive)."""
    try:
        return rec.rules
    except KeyError:
        log.warning("archive: rules %r of game %s are not available", rec.row["rules"], rec.name)
        return None


def _current_phase(rec: store.GameRecord, game: Game | None) -> str:
    if rec.status == "over":
        return "game over"
    if game is None or rec.state is None:
        return "not started" if rec.status == "forming" else ""
    return game.phase(rec.state).label


def game_summary(ctx: Context, rec: store.GameRecord) -> dict:
    game = _rules(rec)
    return {"name": rec.name, "dir": game_dir(rec.name),
            "title": game.title if game else rec.row["rules"], "status": rec.status,
            "phase": _current_phase(rec, game),
            "powers": [p["power"] for p in store.players(ctx, rec.name)]}


def treaties(rec: store.GameRecord, game: Game | None) -> list[dict]:
    """Public treaties only: a secret one stays off the archive even in part."""
    if game is None or rec.state is None:
        return []
    out = []
    for t in game.treaty_records(rec.state, None):
        if t.get("secret"):
            continue
        history = t.get("history") or []
        out.append({"id": t["id"], "proposer": t.get("proposer") or "",
                    "parties": list(t.get("parties", [])), "status": t.get("status") or "",
                    "signatures": sorted(dict(t.get("signatures") or {}).items()),
                    "refusals": sorted(dict(t.get("refusals") or {}).items()),
                    "text": t.get("text") or "", "created": history[0]["at"] if history else ""})
    return out


def public_actor(actor: str | None) -> str:
    """The GM log's actor without its address: 'GM <gm@example.org>' -> 'GM'."""
    text = redact(_ANGLED.sub("", actor or "")).strip()
    return " ".join(text.split()) or "GM"


def gm_log(ctx: Context, game: str) -> list[dict]:
    rows = []
    for row in store.gm_log_rows(ctx, game):
        detail = row["detail"] or ""
        if _SECRET_TREATY.search(detail):
            continue
        rows.append({"at": row["at"], "actor": public_actor(row["actor"]),
                     "action": row["action"] or "", "detail": redact(detail)})
    return rows


def _glance(game: Game, state: dict) -> list[tuple[str, Any]]:
    view = game.view(state, None)
    if not isinstance(view, dict):
        return []
    return [(str(k), v) for k, v in view.items()
            if _scalar(v)]


def phase_pages(ctx: Context, rec: store.GameRecord, game: Game | None) -> list[dict]:
    """One page per resolved phase (rolled-back phases are not part of the game)."""
    pages = []
    for snap in turns.history(ctx, rec.name):
        after = loads(snap["after"], {})
        events = [e for e in loads(snap["events"], []) if isinstance(e, dict) and not e.get("secret")]
        label = snap["label"] or snap["phase_key"]
        pages.append({
            "seq": snap["seq"], "label": label, "key": snap["phase_key"],
            "file": f"{snap['seq']}-{slug(label) or slug(snap['phase_key']) or 'phase'}.html",
            "resolved": snap["created"],
            "report": game.report(after, events, None).text if game else "",
            "dice": [list(d) for d in loads(snap["dice"], [])],
            "events": [{"kind": e.get("kind", ""), "fields": [(k, v) for k, v in e.items() if k != "kind"]}
                       for e in events],
            "glance": _glance(game, after) if game else [],
        })
    for i, page in enumerate(pages):
        page["number"] = i + 1
        page["prev"] = pages[i - 1] if i else None
        page["next"] = pages[i + 1] if i + 1 < len(pages) else None
    return pages


def results_columns(results: list[dict]) -> list[str]:
    """Rank, power and score first, then whatever else the game reports."""
    seen: list[str] = []
    for row in results:
        seen.extend(k for k in row if k not in seen)
    first = [k for k in ("rank", "power", "score") if k in seen]
    return first + [k for k in seen if k not in first]


def game_page(ctx: Context, rec: store.GameRecord) -> dict:
    game = _rules(rec)
    over = rec.status == "over" and game is not None and rec.state is not None
    results = game.results(rec.state) if over else []
    revealed = bool(rec.row["seed_revealed"]) and bool(rec.row["seed"])
    return {**game_summary(ctx, rec),
            "started": bool(rec.row["seed_hash"]), "created": rec.row["created"],
            "seed_hash": rec.row["seed_hash"] or "",
            "seed": rec.row["seed"] if revealed else None,
            "phases": phase_pages(ctx, rec, game),
            "results": results, "results_columns": results_columns(results),
            "treaties": treaties(rec, game), "gm_log": gm_log(ctx, rec.name)}


# -- writing the site ------------------------------------------------------

def render(template: str, **values: Any) -> str:
    return _env.get_template(template).render(**values)


def _write(path: Path, text: str) -> None:
    """Write beside and rename, so a web server never serves half a page; pages are
    0644 in 0755 folders, so a web server running as another user can serve them."""
    make_dirs(path.parent, PUBLIC_DIR)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".html")
    try:
        os.fchmod(fd, PUBLIC_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _prune(folder: Path, keep: set[str]) -> None:
    """Drop pages of phases that were rolled back since the last build."""
    for path in folder.glob("*.html"):
        if _PHASE_PAGE.match(path.name) and path.name not in keep:
            path.unlink()


def build_game(ctx: Context, rec: store.GameRecord, out: Path, common: dict) -> Path:
    page = game_page(ctx, rec)
    folder = out / page["dir"]
    for phase in page["phases"]:
        _write(folder / phase["file"], render("phase.html.j2", root="../", g=page, p=phase, **common))
    _prune(folder, {p["file"] for p in page["phases"]})
    _write(folder / "index.html", render("game.html.j2", root="../", g=page, **common))
    return folder / "index.html"


class ArchiveError(RuntimeError):
    """Some games could not be archived; the rest of the site was written."""


def _unavailable(ctx: Context, rec: store.GameRecord) -> dict:
    """An index entry for a game whose pages could not be built (no link)."""
    return {"name": rec.name, "dir": None, "title": rec.row["rules"], "status": rec.status,
            "phase": "", "powers": [p["power"] for p in store.players(ctx, rec.name)]}


def build_archive(ctx: Context, out: Path) -> Path:
    """Write the whole site under ``out``; returns the path of its index.html.
    Raises :class:`ArchiveError` after writing the rest when a game fails."""
    out = Path(out)
    make_dirs(out, PUBLIC_DIR)
    shutil.copyfile(TEMPLATES / "style.css", out / "style.css")
    os.chmod(out / "style.css", PUBLIC_FILE)
    common = {"site": ctx.site_name, "built": utcnow_iso(ctx.now())}
    games, failed = [], []
    for rec in store.list_games(ctx):
        try:
            build_game(ctx, rec, out, common)
            games.append(game_summary(ctx, rec))
        except Exception as exc:  # one broken game must not keep the others off the site
            log.exception("archive: game %s could not be built", rec.name)
            failed.append(f"{rec.name} ({type(exc).__name__}: {exc})")
            games.append(_unavailable(ctx, rec))
    _write(out / "index.html", render("index.html.j2", root="", games=games, **common))
    log.info("archive: %d games written to %s", len(games) - len(failed), out)
    if failed:
        raise ArchiveError(f"archive written to {out} without: {'; '.join(failed)}")
    return out / "index.html"
