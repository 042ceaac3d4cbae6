"""pyproject.toml declares exactly the libraries the code imports: nothing the
installed packages import is missing, and nothing declared goes unused."""
import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement such as "tomli>=2; python_version < '3.11'"."""
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _imports(folders: list[str]) -> set[str]:
    """Top-level names of the absolute imports in every module under folders."""
    found = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    found.add(node.module.split(".")[0])
    return found


def _third_party(names: set[str], local: set[str]) -> set[str]:
    """Distribution names of the imports that are neither the standard library nor local."""
    dists = packages_distributions()
    outside = names - set(sys.stdlib_module_names) - local - {"__future__"}
    # A library that is not installed here (tomli on Python 3.11+) is named as imported.
    return {_name(dists.get(name, [name])[0]) for name in outside}


def test_the_packages_import_exactly_the_declared_dependencies():
    declared = {_name(r) for r in PROJECT["dependencies"]}
    used = _third_party(_imports(["pbem", "games"]), local={"pbem", "games"})
    assert used == declared, f"imported but not declared: {used - declared}; " \
                             f"declared but not imported: {declared - used}"


def test_the_tests_import_only_declared_libraries():
    declared = {_name(r) for r in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]}
    local = {"pbem", "games", "tests"} | {p.stem for p in (ROOT / "tests").rglob("*.py")}
    assert _third_party(_imports(["tests"]), local) <= declared
