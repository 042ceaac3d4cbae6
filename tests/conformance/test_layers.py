"""The layers of the code hold: pyproject.toml's import contracts (checked by
import-linter's ``lint-imports``) are kept, and no package has an import cycle."""
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
#: the packages that must have no import cycle among their modules
ACYCLIC = ["pbem", "games.eu_tpop", "games.pax_britannica"]


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    assert lint.exists(), "lint-imports is missing: install pbem's test extras (pip install -e '.[test]')"
    run = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The groups of modules of ``package`` that import each other in a circle
    (strongly connected components of more than one module), each sorted."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    inside = set(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start) & inside)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt) & inside))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(m)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert cycles(graph, "p") == [["p.a", "p.b"]]


def test_no_package_has_an_import_cycle():
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("pbem", "games", include_external_packages=False)
    assert {p: cycles(graph, p) for p in ACYCLIC} == {p: [] for p in ACYCLIC}
