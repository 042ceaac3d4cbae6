"""Running scenario cases against a game's pure rules (no database, no mail).

Every statement of a case goes through the same game contract the daemon
uses: GM edits through ``gm_command``, orders through ``parse_orders`` and
``validate``, processing through :func:`pbem.kit.engine.run_phases`.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pbem.base import registry
from pbem.kit.dice import DiceExhausted, ScriptedDice
from pbem.kit.engine import EngineError, apply_one, run_phases
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import Edit, Game, GMError, Order, Problem, Refused, Ruling
from pbem.scenario.compare import compare, event_matches
from pbem.scenario.parser import Case, ScenarioSyntaxError, Statement, parse_file, scenario_files


@dataclass
class CaseResult:
    case: Case
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class _Orders:
    accepted: list[Order]
    problems: list[Problem]
    rejected: bool


class _Run:
    """The mutable state of one case while it runs."""

    def __init__(self, case: Case, game: Game):
        self.case, self.game = case, game
        self.dice = ScriptedDice()
        self.options = {"setup": case.setup or "empty", "scenario": True}
        self.state = game.setup(case.players, self.options, self.dice)
        self.events: list[dict] = []
        self.orders: dict[str, _Orders] = {}
        # Orders stay answerable to EXPECT PROBLEM after a PROCESS cleared them.
        self.orders_history: dict[str, _Orders] = {}
        self.failures: list[str] = []

    def fail(self, st: Statement, message: str) -> None:
        self.failures.append(f"line {st.line}: {message}")

    def power(self, name: str) -> str:
        if name.upper() == "GM":
            return "GM"
        resolved = self.game.roster(self.options, self.state).resolve(name)
        if resolved is None:
            raise GMError(f"unknown power {name!r}")
        return resolved

    def run(self, st: Statement) -> None:
        handler = getattr(self, "do_" + st.kind)
        handler(st)

    def do_phase(self, st: Statement) -> None:
        self.state = self.game.set_phase(self.state, st.args["phase"], st.args["turn"], st.args.get("step"))

    def do_gm(self, st: Statement) -> None:
        """A GM line goes through the game as the daemon sends it: ``RULE <id>
        <ruling>`` as a ruling, anything else as a state edit."""
        text = st.args["text"]
        words = text.split(None, 2)
        inp = Ruling(words[1], words[2]) if len(words) == 3 and words[0].upper() == "RULE" else Edit(text)
        step = apply_one(self.game, self.state, inp, self.dice)
        self.state = step.after
        self.events.extend(step.events)

    def do_dice(self, st: Statement) -> None:
        self.dice.push(st.args["values"])

    def do_orders(self, st: Statement) -> None:
        power = self.power(st.args["power"])
        parsed = self.game.parse_orders(self.state, power, st.args["lines"])
        problems = list(parsed.problems) + list(self.game.validate(self.state, power, parsed.orders))
        bad_lines = {p.line for p in problems if p.kind != "warning"}
        accepted = [o for o in parsed.orders if o.line not in bad_lines]
        rejected = any(p.kind != "warning" for p in problems)
        self.orders[power] = _Orders(accepted, problems, rejected)

    def do_process(self, st: Statement) -> None:
        orders: dict[str, list[Order]] = {}
        for power, o in self.orders.items():
            for order in o.accepted:
                orders.setdefault(order.power, []).append(order)
        steps = run_phases(self.game, self.state, orders, lambda _phase: self.dice,
                           one=st.args["one"])
        for step in steps:
            self.events.extend(step.events)
        self.state = steps[-1].after
        self.orders = {}

    def do_expect(self, st: Statement) -> None:
        query = st.args["query"].replace('"', "")
        actual = self.game.query(self.state, query)
        ok, shown = compare(actual, st.args["op"], st.args["value"])
        if not ok:
            self.fail(st, f"{st.args['query']} {st.args['op']} {st.args['value']}: actual {shown}")

    def do_expect_event(self, st: Statement) -> None:
        kind, fields = st.args["kind"], st.args["fields"]
        found = [e for e in self.events if event_matches(e, kind, fields)]
        if st.args["negate"] and found:
            self.fail(st, f"expected no {kind} event like {fields}, got {found[0]}")
        elif not st.args["negate"] and not found:
            same_kind = [e for e in self.events if e.get("kind") == kind]
            seen = "; ".join(_short(e) for e in same_kind[:4]) or "none of that kind"
            self.fail(st, f"expected event {kind} {fields}: produced {seen}")

    def _orders_of(self, st: Statement) -> _Orders | None:
        power = self.power(st.args["power"])
        o = self.orders.get(power) or self.orders_history.get(power)
        if o is None:
            self.fail(st, f"no orders were given for {power}")
        return o

    def do_expect_problem(self, st: Statement) -> None:
        o = self._orders_of(st)
        if o is not None and st.args["code"].lower() not in {p.code.lower() for p in o.problems}:
            codes = ", ".join(p.code for p in o.problems) or "no problems"
            self.fail(st, f"expected problem {st.args['code']}: got {codes}")

    def do_expect_rejected(self, st: Statement) -> None:
        o = self._orders_of(st)
        if o is not None and not o.rejected:
            self.fail(st, "expected at least one order refused: all were accepted")

    def do_expect_accepted(self, st: Statement) -> None:
        o = self._orders_of(st)
        if o is not None and o.rejected:
            self.fail(st, "expected every order accepted: " + "; ".join(p.render() for p in o.problems))


def _short(event: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in event.items())


def run_case(case: Case) -> CaseResult:
    result = CaseResult(case)
    if not case.rules:
        result.failures.append(f"line {case.line}: the case names no RULES")
        return result
    try:
        game = registry.get(case.rules)
    except KeyError as exc:
        result.failures.append(str(exc.args[0]))
        return result
    if not supports(game, "scenarios"):
        result.failures.append(f"line {case.line}: {game.title} takes no scenario files "
                               "(it answers no PHASE statement nor EXPECT query)")
        return result
    try:
        run = _Run(case, game)
    except (Refused, DiceExhausted) as exc:
        result.failures.append(f"line {case.line}: set-up failed: {exc}")
        return result
    for st in case.statements:
        try:
            run.run(st)
            run.orders_history.update(run.orders)
        except DiceExhausted as exc:
            run.fail(st, f"dice: {exc}")
            break
        except Refused as exc:
            run.fail(st, str(exc))
            break
        except EngineError as exc:
            run.fail(st, f"engine: {exc}")
            break
        except Exception as exc:  # a rules bug must fail the case, not the run
            tb = traceback.extract_tb(exc.__traceback__)[-1]
            run.fail(st, f"crashed: {type(exc).__name__}: {exc} ({Path(tb.filename).name}:{tb.lineno})")
            break
    result.failures = run.failures
    return result


def run_paths(paths: list[Path], out: TextIO) -> int:
    """Run every case under ``paths``; print one line per case and a total.
    Returns the process exit status (0 only when every case passed)."""
    passed = failed = 0
    broken = False
    files = scenario_files(paths)
    if not files:
        print("no scenario files found", file=out)
        return 2
    for path in files:
        try:
            cases = parse_file(path)
        except ScenarioSyntaxError as exc:
            print(f"ERROR {exc}", file=out)
            broken = True
            continue
        for case in cases:
            result = run_case(case)
            if result.passed:
                passed += 1
                print(f"PASS {case.id} {case.title}", file=out)
            else:
                failed += 1
                print(f"FAIL {case.id} {case.title}", file=out)
                for failure in result.failures:
                    print(f"    {path}:{failure}", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed or broken else 0
