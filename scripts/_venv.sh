# Sourced by scripts/demo and scripts/test: create .venv and install pbem into it
# (again only when pyproject.toml changed since the last install).
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.pbem-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".[test]"
  touch "$stamp"
fi
