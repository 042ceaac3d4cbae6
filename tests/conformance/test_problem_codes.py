"""Every problem code the sources use is catalogued, with one meaning; every catalogued
code is used; docs/problems.md is the catalogues, and README points to it."""
from __future__ import annotations

import importlib
import re
from collections import defaultdict

import pytest

from pbem.base import problem_docs
from pbem.kit.problems import PLATFORM, SHARED, Catalogue
from tests.problem_scan import GAME_FOLDERS, HYPHENATED, NOT_CODES, ROOT, SHAPE, SOURCES, sites

#: each scanned package's own catalogue (the platform's serves every package too)
MODULES = {name: f"{folder.parent.name}.{name}.problems" for name, folder in GAME_FOLDERS.items()}
#: the shipped games, whose codes docs/problems.md lists
SHIPPED = [name for name, folder in GAME_FOLDERS.items() if folder.parent.name == "games"]


def catalogue(package: str) -> Catalogue | None:
    if package == "pbem":
        return PLATFORM
    return importlib.import_module(MODULES[package]).CATALOGUE


@pytest.fixture(scope="module")
def used():
    return sites()


def _where(found):
    return ", ".join(f"{s.path}:{s.line}" for s in found[:3])


def test_every_package_that_makes_problems_has_a_catalogue():
    assert set(SOURCES) == {"pbem", *MODULES}
    for package in MODULES:
        assert isinstance(catalogue(package), Catalogue), package


def test_the_scan_finds_codes_in_each_way_they_are_made(used):
    found = {(s.package, s.code, s.how) for s in used}
    for expected in [
        ("pbem", "unknown-power", "call problem"),          # session.problem("code", ...)
        ("pbem", "bad-date", "call BadValue"),              # a parse error's code
        ("pbem", "gm-edit", "class code"),                  # an exception's default code
        ("pbem", "treaty-exists", "call Refused"),          # Refused(message, "code")
        ("pbem", "not-an-order", "literal"),                # a module constant (NOT_AN_ORDER)
        ("eu_tpop", "no-units", "call Refused"),
        ("eu_tpop", "wrong-phase", "call _p"),              # a game's own helper taking ``code``
        ("pax_britannica", "not-adjacent", "(code, reason)"),  # a rule check's (code, reason)
        ("pax_britannica", "no-units", "event code"),       # an order_failed event's "code"
        ("pax_britannica", "unknown-sea", "literal"),       # a table (ROLE_WORDS)
        ("pax_britannica", "unknown-area", "code ="),       # found, what, code = ..., "unknown-area"
        ("pax_britannica", "not-agreed", "call failed"),
        ("testgame", "not-an-order", "call Problem"),       # Problem(NOT_AN_ORDER, ...)
    ]:
        assert expected in found, expected
    assert len({s.code for s in used}) > 250


def test_every_code_used_is_catalogued(used):
    missing = defaultdict(list)
    for s in used:
        own = catalogue(s.package)
        if s.code not in own and s.code not in PLATFORM:
            missing[(s.package, s.code)].append(s)
    assert not missing, "codes used but not catalogued:\n" + "\n".join(
        f"  {package} {code} ({_where(found)})" for (package, code), found in sorted(missing.items()))


def test_every_catalogued_code_is_used(used):
    by_package = defaultdict(set)
    for s in used:
        by_package[s.package].add(s.code)
    anywhere = set().union(*by_package.values())
    unused = [f"pbem {c.code}" for c in PLATFORM if c.code not in anywhere]
    for package in MODULES:
        unused += [f"{package} {c.code}" for c in catalogue(package) if c.code not in by_package[package]]
    assert not unused, f"catalogued but used nowhere: {unused}"


def test_a_game_does_not_give_a_platform_code_a_meaning_of_its_own():
    for package in MODULES:
        clash = [c.code for c in catalogue(package) if c.code in PLATFORM]
        assert not clash, f"{package} catalogues platform codes again: {clash}"


def test_the_platform_does_not_say_the_codes_it_leaves_to_the_games(used):
    """``wrong-phase`` is a game's (an order of another phase); the moderator's is
    ``orders-for-other-phase`` (the ORDERS line names another phase)."""
    shared = {c.code for c in SHARED} - {"not-an-order"}  # the kit defines it and reads it back
    said = [(s.code, s.path, s.line) for s in used if s.package == "pbem" and s.code in shared]
    assert not said


def test_each_entry_is_one_line_for_a_player():
    for package in ["pbem", *MODULES]:
        cat = catalogue(package)
        assert cat.package == package and len(cat) > 0
        for c in cat:
            assert SHAPE.match(c.code), c.code
            assert c.meaning.strip() and "\n" not in c.meaning + c.remedy, c.code
            assert len(c.line()) < 260, c.code


def test_the_docs_page_is_the_catalogues():
    written = (ROOT / "docs" / "problems.md").read_text(encoding="utf-8")
    assert written == problem_docs.page(), (
        "docs/problems.md differs from the catalogues: python -m pbem.base.problem_docs docs/problems.md")
    assert SHIPPED
    for package in ["pbem", *SHIPPED]:
        for c in catalogue(package):
            assert f"| `{c.code}` |" in written


def test_readme_points_to_the_problem_codes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/problems.md" in readme


def test_describe_says_what_a_code_means():
    from pbem.kit.problems import describe

    pax = catalogue("pax_britannica")
    assert describe("unknown-power").startswith("The power named is not one of this game's powers")
    assert describe("orders-for-other-phase") != describe("wrong-phase")
    assert describe("not-adjacent", pax) == pax.get("not-adjacent").line()
    assert describe("unknown-power", pax) == describe("unknown-power")
    assert describe("no-such-code") is None
    assert not HYPHENATED.match("nocode")


def test_a_code_written_in_a_new_module_is_found_in_every_form(tmp_path):
    """The scan is no list of known codes: a module it has never seen yields its codes."""
    (tmp_path / "rules.py").write_text('''
from pbem.kit.gameapi import Problem, Refused


class Fouled(Refused):
    code = "fouled-default"


def _p(code, message, o):
    return Problem(code, message, o.line)


ROLES = {"ship": ("Sea Zone", "no-such-ship"), "port": ("Port", "no-such-port")}


def check(state, o):
    if o.kind == "sail":
        return "not-afloat", f"{o.canonical} needs water"
    if o.kind == "dock":
        raise Refused("the dock is full", "dock-full")
    if o.kind == "load":
        raise Fouled("the rope fouled")
    if o.kind == "bid":
        code = "bid-low" if state else "bid-high"
        return [_p(code, "no", o), _p("bid-twice", "no", o)]
    return [{"kind": "order_failed", "code": "tide-out", "reason": "ebb"}]
''', encoding="utf-8")
    found = {(s.code, s.how) for s in sites({"pbem": SOURCES["pbem"], "eu_tpop": [tmp_path]})
             if s.package == "eu_tpop"}
    assert {c for c, _ in found} == {"fouled-default", "no-such-ship", "no-such-port", "not-afloat", "dock-full",
                                     "bid-low", "bid-high", "bid-twice", "tide-out"}
    assert ("dock-full", "call Refused") in found and ("bid-twice", "call _p") in found
    assert ("not-afloat", "(code, reason)") in found and ("no-such-port", "literal") in found


def test_what_the_scan_leaves_out_is_no_code_and_is_still_written():
    text = "".join(p.read_text(encoding="utf-8") for roots in SOURCES.values() for root in roots
                   for p in root.rglob("*.py"))
    for word in NOT_CODES:
        assert f'"{word}"' in text, f"{word} is no longer written: drop it from NOT_CODES"
        assert all(word not in catalogue(package) for package in ["pbem", *MODULES]), word


def _codes_of_game(package: str) -> set[str]:
    """The codes a game may say: its package's, and those of the packages of the games
    it extends (the Beacon of tests/beacon extends the minimal one of tests/testgame)."""
    from pbem.base import registry

    if (ROOT / "tests" / package).is_dir():
        registry.load_extra(f"tests.{package}:GAME")
    packages = {cls.__module__.split(".")[1] for cls in type(registry.get(package)).__mro__
                if cls.__module__.split(".")[0] in ("games", "tests")}
    return set().union(*(catalogue(p).codes for p in packages if p in MODULES))


def test_the_codes_tests_and_scenarios_expect_are_catalogued():
    """A test that expects (or rules out) a code no one says any more cannot fail: every
    ``[code]`` the tests write and every ``EXPECT PROBLEM`` of a scenario names a catalogued code."""
    every = set(PLATFORM.codes).union(*(catalogue(p).codes for p in MODULES))
    stale = []
    for path in sorted((ROOT / "tests").rglob("*")):
        if path.suffix not in (".py", ".toml", ".scn") or path.name == "test_problem_codes.py":
            continue
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"\[([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\]", text):
            code = found.group(1)
            if len(code.split("-")[0]) > 1 and code not in every:  # [a-z0-9] is a regex, not a code
                stale.append(f"{path.relative_to(ROOT)}: [{code}]")
        for found in re.finditer(r"^\s*EXPECT PROBLEM \S+ (\S+)", text, re.MULTILINE):
            game = path.relative_to(ROOT / "tests" / "scenarios").parts[0]
            own = _codes_of_game(game) if game in MODULES else set()
            if found.group(1) not in PLATFORM and found.group(1) not in own:
                stale.append(f"{path.relative_to(ROOT)}: EXPECT PROBLEM {found.group(1)}")
    assert not stale, stale
