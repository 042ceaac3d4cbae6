"""Pax Britannica's code is layered: the rules core at the bottom, the phases above it, the
sequence of play above those, reports and bots above that, the game object at the top.

The layers are declared as import-linter contracts in pyproject.toml; ``lint-imports`` checks
them here (a broken contract fails the test with the tool's own account of the import), and
grimp measures that no group of the game's modules imports itself round a circle."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "games.pax_britannica"


def pax_contracts() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config.get("tool", {}).get("importlinter", {}).get("contracts", [])
    return [c["id"] for c in contracts
            if any(str(m).startswith(PACKAGE) for m in
                   [*c.get("containers", []), *c.get("modules", []), *c.get("source_modules", [])])]


def test_the_pax_contracts_are_kept():
    ids = pax_contracts()
    assert ids, "pyproject.toml declares no import-linter contract for games.pax_britannica"
    lint = Path(sys.executable).with_name("lint-imports")
    args = [str(lint), "--no-cache"]   # it reads pyproject.toml in the folder it runs in
    for contract in ids:
        args += ["--contract", contract]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(ids)} kept, 0 broken" in done.stdout, done.stdout


def cycles(graph, package: str) -> list[list[str]]:
    """Strongly connected components of more than one module among ``package``'s modules
    (Tarjan's algorithm, iterative: the graph is small but recursion depth is not ours to spend)."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    inside = set(modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            for nxt in edges[node]:
                if nxt in on_stack:
                    low[node] = min(low[node], low[nxt])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycles_finds_a_circle_and_none_in_a_line():
    class Graph:
        def __init__(self, edges):
            self.edges = edges
            self.modules = set(edges)

        def find_modules_directly_imported_by(self, m):
            return set(self.edges[m])

    circle = Graph({"p": set(), "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}})
    assert cycles(circle, "p") == [["p.a", "p.b", "p.c"]]
    line = Graph({"p": set(), "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": set()})
    assert cycles(line, "p") == []


def test_no_import_cycle_in_pax_britannica():
    graph = grimp.build_graph("games", include_external_packages=False, cache_dir=None)
    found = cycles(graph, PACKAGE)
    assert found == [], "modules importing each other round a circle:\n" + "\n".join(
        f"{len(c)}: {', '.join(c)}" for c in found)
