"""Find every problem code the code base uses, by reading its sources with ``ast``.

A code reaches a reply in one of these ways, and each is looked for:

* a call to anything that takes a ``code`` parameter (``session.problem``,
  ``Problem``, ``Refused``/``GMError`` and their subclasses, ``BadValue``,
  a game's own ``_p`` or ``failed``) with a literal in that place, or a
  module constant (``NOT_AN_ORDER``) or an ``x if c else y`` of literals;
* a class attribute ``code = "..."`` (the default code of an exception);
* a name ``code`` assigned a literal (``found, what, code = ..., "unknown-area"``);
* an event's ``"code": "..."`` entry;
* a ``(code, reason)`` pair returned by a rule's check (``return "not-adjacent", f"..."``);
* a literal held in a table (``ROLE_WORDS``) or compared with a code: every
  hyphenated literal of the modules that make replies is a code unless it is
  listed in :data:`NOT_CODES` as something else (a charset, a data key).

A ``Site`` is one place a code is written, with its package: ``pbem`` for
``pbem/``, else the game's package name (``tests/testgame`` is ``testgame``).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the folders of the games, shipped (games/) and test games (tests/): each that has a
#: catalogue of its own codes (``problems.py``), by package name
GAME_FOLDERS = {p.parent.name: p.parent for top in ("games", "tests")
                for p in sorted((ROOT / top).glob("*/problems.py"))}

#: where codes are made: pbem's modules that read mail and answer it, and the games
SOURCES = {"pbem": [ROOT / "pbem"], **{name: [folder] for name, folder in GAME_FOLDERS.items()}}

#: pbem's folders whose hyphenated literals are swept (the rest of pbem/ speaks
#: mail headers and charsets, and makes no problem but through a call)
SWEPT_PBEM = ("kit", "commands", "handlers", "play")

#: hyphenated literals that are no problem code: what each one is
NOT_CODES = {
    "utf-8": "a charset",
    "latin-1": "a charset",
    "east-west": "a Pax Britannica Africa path's name (Final Record)",
    "north-south": "a Pax Britannica Africa path's name (Final Record)",
    "pb-map": "the Pax Britannica map's SVG id",
    "eu-map": "the Europa Universalis map's SVG id",
    "tie-break": "the reason given for a die roll",
    "gm-console": "the GM console's pseudo sender",
}

SHAPE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
HYPHENATED = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)+\Z")


@dataclass(frozen=True)
class Site:
    code: str
    package: str
    path: str
    line: int
    how: str


def _files(package: str, sources: dict[str, list[Path]]):
    """The package's modules, but not its catalogue (``problems.py``), which names every code."""
    for root in sources[package]:
        yield from sorted(p for p in root.rglob("*.py") if p.name != "problems.py")


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _literals(node: ast.AST | None, constants: dict[str, str]) -> list[str]:
    """The codes an expression can be: a literal, a constant's name, or either arm of an ``if``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and SHAPE.match(node.value):
        return [node.value]
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    if isinstance(node, ast.IfExp):
        return _literals(node.body, constants) + _literals(node.orelse, constants)
    return []


def _textual(node: ast.AST) -> bool:
    """Is this expression a reason for a human (an f-string, a sentence, a sum of them)?"""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " " in node.value or node.value == ""
    if isinstance(node, ast.BinOp):
        return _textual(node.left) or _textual(node.right)
    return False


def _trees(sources: dict[str, list[Path]]):
    for package in sources:
        for path in _files(package, sources):
            yield package, path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _code_params(trees) -> tuple[dict[str, set[int]], dict[str, str]]:
    """Where each callable takes its code: name -> positional indexes (``code=`` is always looked at),
    and every module constant holding a code-shaped literal (``NOT_AN_ORDER``)."""
    functions: dict[str, set[int]] = {}
    classes: dict[str, tuple[list[str], int | None]] = {}  # name -> (bases, code index)
    constants: dict[str, str] = {}
    for _, _, tree in trees:
        for node in tree.body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id.isupper() and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str) and HYPHENATED.match(node.value.value)):
                constants[node.targets[0].id] = node.value.value
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != "__init__":
                args = [a.arg for a in node.args.args]
                if "code" in args:
                    skip = 1 if args[0] in ("self", "cls") else 0
                    functions.setdefault(node.name, set()).add(args.index("code") - skip)
            elif isinstance(node, ast.ClassDef):
                index = None
                fields = [s.target.id for s in node.body
                          if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
                if "code" in fields:  # a dataclass: its fields are its parameters
                    index = fields.index("code")
                for s in node.body:
                    if isinstance(s, ast.FunctionDef) and s.name == "__init__":
                        args = [a.arg for a in s.args.args][1:]
                        index = args.index("code") if "code" in args else None
                classes[node.name] = ([b for b in map(_name, node.bases) if b], index)

    def inherited(name: str, seen=()) -> int | None:
        bases, index = classes.get(name, ([], None))
        if index is not None or name in seen:
            return index
        return next((i for b in bases if (i := inherited(b, (*seen, name))) is not None), None)

    for name in classes:
        index = inherited(name)
        if index is not None:
            functions.setdefault(name, set()).add(index)
    return functions, constants


def _swept(package: str, path: Path) -> bool:
    if package != "pbem":
        return True
    return path.relative_to(ROOT / "pbem").parts[0] in SWEPT_PBEM


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def sites(sources: dict[str, list[Path]] | None = None) -> list[Site]:
    """Every place a code is written, in every package (of ``sources``: package -> folders)."""
    trees = list(_trees(SOURCES if sources is None else sources))
    functions, constants = _code_params(trees)
    found: list[Site] = []
    for package, path, tree in trees:
        rel = _shown(path)
        claimed: set[int] = set()  # ids of literal nodes a structural rule has read

        def add(nodes_codes, how, line):
            for node, code in nodes_codes:
                if node is not None:
                    claimed.add(id(node))
                found.append(Site(code, package, rel, line, how))

        def each(node):
            return [(n, c) for n in ([node] if not isinstance(node, ast.IfExp) else [node.body, node.orelse])
                    for c in _literals(n, constants)]

        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (name := _name(node.func)) in functions:
                for i in functions[name]:
                    if i < len(node.args):
                        add(each(node.args[i]), f"call {name}", node.lineno)
                for kw in node.keywords:
                    if kw.arg == "code":
                        add(each(kw.value), f"call {name}", node.lineno)
            elif isinstance(node, ast.ClassDef):
                for s in node.body:
                    if (isinstance(s, ast.Assign) and any(_name(t) == "code" for t in s.targets)):
                        add(each(s.value), "class code", s.lineno)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == "code":
                        add(each(node.value), "code =", node.lineno)
                    elif (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                          and len(target.elts) == len(node.value.elts)):
                        for t, v in zip(target.elts, node.value.elts):
                            if isinstance(t, ast.Name) and t.id == "code":
                                add(each(v), "code =", node.lineno)
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "code":
                        add(each(v), "event code", node.lineno)
            if isinstance(node, (ast.Return, ast.Assign)) or (
                    isinstance(node, ast.Call) and _name(node.func) == "append" and len(node.args) == 1):
                pair = node.args[0] if isinstance(node, ast.Call) else node.value
                if (isinstance(pair, ast.Tuple) and len(pair.elts) in (2, 3) and len(each(pair.elts[0])) == 1
                        and _textual(pair.elts[1])):
                    add(each(pair.elts[0]), "(code, reason)", node.lineno)
        if _swept(package, path):
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in claimed
                        and HYPHENATED.match(node.value) and node.value not in NOT_CODES):
                    found.append(Site(node.value, package, rel, node.lineno, "literal"))
    return found
