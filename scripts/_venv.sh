# Sourced by scripts/demo and scripts/test: create .venv and install pbem into it (again
# only when pyproject.toml changed since the last install), saying what it does as it goes.
PY=${PYTHON:-python3}
say() { printf '%s: %s\n' "${0##*/}" "$*"; }
started=$SECONDS
if [ ! -x .venv/bin/python ]; then
  say "first run: making the virtual environment .venv and installing pbem into it;" \
      "this takes about a minute, more on a slow network (later runs skip it)"
  say "creating .venv with $("$PY" --version 2>&1) (venv puts pip into it: 10 to 20 s) ..."
  "$PY" -m venv .venv
fi
stamp=.venv/.pbem-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  say "installing pbem and its dependencies into .venv with pip (its progress follows) ..."
  .venv/bin/python -m pip install --disable-pip-version-check -e ".[test]"
  touch "$stamp"
  say "pbem installed into .venv in $((SECONDS - started)) s"
fi
