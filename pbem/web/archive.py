"""The public archive: a static site with every game and every resolved phase.

Pages are rendered by jinja2 from ``templates/archive/`` (autoescape,
StrictUndefined).  Every link is relative, so the site reads the same from
file:// as from a web server, and no page needs JavaScript.

The archive is public, so it is built only from facts the audience gate
(:func:`pbem.kit.audience.admits`) lets the public see: the events of each phase
(which the game renders as its public report), treaties, press, the GM-log
entries (which keep roles and ids, never addresses); and the dice.  What the
pages show is gathered in :mod:`pbem.web.archive_pages`.

The daemon calls :func:`refresh` after every pass: it rebuilds the games whose
resolved phases changed since the last build, reusing the maps already
drawn.  Files are world-readable (0644, folders 0755): the site is public.
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pbem.base.context import Context
from pbem.base.private_files import PUBLIC_DIR, PUBLIC_FILE, make_dirs
from pbem.base.resources import resource
from pbem.base.sitepaths import game_dir, slug  # noqa: F401  (part of this module's interface)
from pbem.kit import audience, templating
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import Game
from pbem.storage import snapshots, store
from pbem.storage.db import loads, utcnow_iso
from pbem.web import archive_pages as pages_of

log = logging.getLogger(__name__)

TEMPLATES = resource("templates") / "archive"
_PHASE_PAGE = re.compile(r"^\d+-[a-z0-9-]*\.(html|svg)$")
BUILT = ".built.json"  # what the last build wrote, per game (for refresh)


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


def _utc(text: str | None) -> str:
    """ISO-8601 UTC as people read it: 2026-03-01 12:00:00 UTC."""
    if not text:
        return ""
    return text.replace("T", " ").replace("+00:00", " UTC")


templating.add_folder("archive", TEMPLATES)
templating.filter("field", _field)
templating.filter("utc", _utc)


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
            "turn_word": game.turn_word if game else "Turn",
            "phase": _current_phase(rec, game),
            "powers": [p["power"] for p in store.players(ctx, rec.name)]}


def treaties(rec: store.GameRecord, game: Game | None) -> list[dict]:
    """The treaties the gate lets the public see: a secret one stays off the archive even in
    part, until it is revealed."""
    if game is None or rec.state is None or not supports(game, "treaties"):
        return []
    out = []
    book = audience.game_book(game, rec.state)
    for t in game.treaty_records(rec.state, None):
        if not audience.admits(audience.treaty_of(t),
                               audience.PUBLIC, book):
            continue
        history = t.get("history") or []
        out.append({"id": t["id"], "proposer": t.get("proposer") or "",
                    "parties": list(t.get("parties", [])), "status": t.get("status") or "",
                    "signatures": sorted(dict(t.get("signatures") or {}).items()),
                    "refusals": sorted(dict(t.get("refusals") or {}).items()),
                    "text": t.get("text") or "", "created": history[0]["at"] if history else "",
                    "concluded": t.get("concluded") or ""})
    return out


def gm_log(ctx: Context, rec: store.GameRecord, game: Game | None) -> list[dict]:
    """The GM-log entries the gate lets the public see (an entry made before entries had
    an audience is the GM's alone)."""
    book = audience.game_book(game, rec.state) if game is not None else {}
    return [{"at": row["at"], "actor": row["actor"] or "", "action": row["action"] or "",
             "detail": row["detail"] or ""}
            for row in store.gm_log_rows(ctx, rec.name)
            if audience.admits(loads(row.get("audience")), audience.PUBLIC, book)]


def _glance(game: Game, state: dict) -> list[tuple[str, Any]]:
    view = game.view(state, None)
    if not isinstance(view, dict):
        return []
    return [(str(k), v) for k, v in view.items()
            if _scalar(v)]


def phase_pages(ctx: Context, rec: store.GameRecord, game: Game | None) -> tuple[list[dict], list[dict]]:
    """(every resolved phase, the ones with a page), the latter linked in order."""
    every = pages_of.phase_entries(ctx, rec, game)
    shown = pages_of.link_pages(every)
    for page in shown:
        pages_of.fill_phase(game, page)
        page["glance"] = _glance(game, page["after"]) if game else []
        page["has_map"] = False
    return every, shown


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
    every, shown = phase_pages(ctx, rec, game)
    return {**game_summary(ctx, rec),
            "started": bool(rec.row["seed_hash"]), "created": rec.row["created"],
            "seed_hash": rec.row["seed_hash"] or "",
            "seed": rec.row["seed"] if revealed else None,
            "phases": shown, "turns": pages_of.turns_of(every), "quiet": len(every) - len(shown),
            "charts": pages_of.chart_data(game, every, over), "players": pages_of.player_rows(ctx, rec.name),
            "results": results, "results_columns": results_columns(results),
            "treaties": treaties(rec, game), "has_treaties": supports(game, "treaties"),
            "gm_log": gm_log(ctx, rec, game)}


# -- writing the site ------------------------------------------------------

def render(template: str, **values: Any) -> str:
    return templating.render(f"archive/{template}", **values)


def _mkdir(folder: Path) -> None:
    # Pages are 0644 in 0755 folders, so a web server running as another user can serve them.
    make_dirs(folder, PUBLIC_DIR)  # folders it makes get the mode whatever the umask
    os.chmod(folder, PUBLIC_DIR)


def _write(path: Path, text: str) -> None:
    """Write beside and rename, so a web server never serves half a page."""
    _mkdir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        os.fchmod(fd, PUBLIC_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _prune(folder: Path, keep: set[str]) -> None:
    """Drop pages and maps of phases that were rolled back (or are empty) since the last build."""
    for path in folder.iterdir():
        if _PHASE_PAGE.match(path.name) and path.name not in keep:
            path.unlink()


def _write_maps(folder: Path, game: Game | None, page: dict) -> None:
    """Each phase's public map, drawn once: a phase's position never changes,
    so a map already written (its file is named by the phase) is kept."""
    for phase in page["phases"]:
        target = folder / phase["map_file"]
        if target.is_file():
            phase["has_map"] = True
            continue
        drawing = game.map_svg(phase["after"], None) if supports(game, "maps") else None
        if drawing is not None:
            _write(target, drawing)
            phase["has_map"] = True


def build_game(ctx: Context, rec: store.GameRecord, out: Path, common: dict) -> Path:
    page = game_page(ctx, rec)
    folder = out / page["dir"]
    _mkdir(folder)
    _write_maps(folder, _rules(rec), page)
    for phase in page["phases"]:
        _write(folder / phase["file"], render("phase.html.j2", root="../", g=page, p=phase, **common))
    _prune(folder, {p["file"] for p in page["phases"]} | {p["map_file"] for p in page["phases"] if p["has_map"]})
    _write(folder / "index.html", render("game.html.j2", root="../", g=page, **common))
    return folder / "index.html"


class ArchiveError(RuntimeError):
    """Some games could not be archived; the rest of the site was written."""


def _unavailable(ctx: Context, rec: store.GameRecord) -> dict:
    """An index entry for a game whose pages could not be built (no link)."""
    return {"name": rec.name, "dir": None, "title": rec.row["rules"], "status": rec.status,
            "phase": "", "powers": [p["power"] for p in store.players(ctx, rec.name)]}


def _stamp(ctx: Context, rec: store.GameRecord) -> list:
    """What a game's pages depend on that changes: its status, phase, last
    snapshot, GM log, players, press, and the seed's reveal."""
    snap, counts = snapshots.archive_stamp(ctx, rec.name)
    return [rec.status, rec.row["phase_key"], snap, counts, bool(rec.row["seed_revealed"])]


def build_archive(ctx: Context, out: Path, only_changed: bool = False) -> Path:
    """Write the site under ``out``; returns the path of its index.html.
    ``only_changed``: rebuild only the games whose pages would change since
    the last build (the index is always rewritten).  Raises
    :class:`ArchiveError` after writing the rest when a game fails."""
    out = Path(out)
    previous = _read_built(out)
    built = previous if only_changed else {}
    records = store.list_games(ctx)
    stamps = {rec.name: _stamp(ctx, rec) for rec in records}
    if only_changed and stamps == built and (out / "index.html").is_file():
        return out / "index.html"
    _mkdir(out)
    _write(out / "style.css", (TEMPLATES / "style.css").read_text(encoding="utf-8"))
    common = {"site": ctx.site_name, "built": utcnow_iso(ctx.now())}
    live = {game_dir(name) for name in stamps}
    for gone in set(previous) - set(stamps):   # a game deleted (GM CANCEL): its pages go too
        if game_dir(gone) not in live:
            _remove_game_dir(out, gone)
    built = {name: stamp for name, stamp in built.items() if name in stamps}
    games, failed = [], []
    for rec in records:
        stamp = stamps[rec.name]
        try:
            if built.get(rec.name) != stamp or not (out / game_dir(rec.name) / "index.html").is_file():
                build_game(ctx, rec, out, common)
                built[rec.name] = stamp
            games.append(game_summary(ctx, rec))
        except Exception as exc:  # one broken game must not keep the others off the site
            log.exception("archive: game %s could not be built", rec.name)
            failed.append(f"{rec.name} ({type(exc).__name__}: {exc})")
            built.pop(rec.name, None)
            games.append(_unavailable(ctx, rec))
    _write(out / "index.html", render("index.html.j2", root="", games=games, **common))
    _write(out / BUILT, json.dumps(built, sort_keys=True))
    log.info("archive: %d games written to %s", len(games) - len(failed), out)
    if failed:
        raise ArchiveError(f"archive written to {out} without: {'; '.join(failed)}")
    return out / "index.html"


def _remove_game_dir(out: Path, name: str) -> None:
    folder = out / game_dir(name)
    if folder.is_dir() and not folder.is_symlink() and folder.resolve().parent == out.resolve():
        shutil.rmtree(folder)


def _read_built(out: Path) -> dict:
    try:
        return json.loads((out / BUILT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def refresh(ctx: Context) -> bool:
    """After a daemon pass: bring the archive up to date when a game changed.
    Returns whether anything was rebuilt.  A game that cannot be archived is
    logged (with its traceback) and tried again on the next pass."""
    if not ctx.archive_dir:
        return False
    out = Path(ctx.archive_dir)
    before = _read_built(out)
    try:
        build_archive(ctx, out, only_changed=True)
    except ArchiveError as exc:  # the other games were written; the failed one is tried next pass
        log.warning("%s", exc)
    return _read_built(out) != before
