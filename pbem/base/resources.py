"""Files pbem ships beside its code: the shared templates and the example configuration.

In the source tree (and an editable install) they sit at the top of the repository,
``templates/`` and ``config.example.toml``; the wheel carries them inside the package, as
``pbem/templates/`` and ``pbem/config.example.toml`` (pyproject.toml's force-include).
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

_SOURCE_TREE = Path(__file__).resolve().parents[2]  # pbem/base/resources.py -> the top


def resource(name: str) -> Path:
    """The path of a shipped file or folder, e.g. ``resource("templates")``."""
    # pip installs packages unpacked, so the package's files are ordinary paths (which
    # jinja2's FileSystemLoader and shutil need).
    packaged = Path(str(files("pbem") / name))
    if packaged.exists():
        return packaged
    source = _SOURCE_TREE / name
    if source.exists():
        return source
    raise FileNotFoundError(f"{name} is neither in the installed package ({packaged}) "
                            f"nor in the source tree ({source})")
