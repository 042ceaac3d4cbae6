"""The ``pbem`` command line.  Every verb has --help; errors are one line and
a non-zero exit."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def _scenario_run(args) -> int:
    from .scenario import run_paths

    return run_paths([Path(p) for p in args.paths], sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="play-by-email moderator")
    parser.add_argument("-c", "--config", type=Path, help="configuration file (default: ./pbem.toml if present)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    scenario = sub.add_parser("scenario", help="run the rules' golden scenario files")
    scenario_sub = scenario.add_subparsers(dest="scenario_command", metavar="VERB")
    scenario_sub.required = True
    run = scenario_sub.add_parser("run", help="run scenario files or folders; non-zero exit on any failure")
    run.add_argument("paths", nargs="+", help="a .scn file or a folder of them")
    run.set_defaults(func=_scenario_run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line, never a traceback, for the user
        print(f"pbem: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
