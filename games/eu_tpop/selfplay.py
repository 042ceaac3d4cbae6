"""Random games among bots on the sample scenario, with the invariants every
state must keep (tests/games/eu_tpop/test_eu_playouts.py runs a few; bench/eu_playouts.py
runs 200).  Pure: seeded dice, a seeded random.Random for the bots."""
from __future__ import annotations

import json
import random

from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases

from . import GAME, state as st

REALMS = ["Valmont", "Corvia", "Ostmark"]


def broken(state: dict, before: dict, events: list) -> list[str]:
    """What is wrong with ``state`` after a step that started from ``before``."""
    out = []
    for r, d in state["realms"].items():
        for key in ("manpower", "ducats", "exhausted", "allied"):
            if d[key] < 0:
                out.append(f"{r} has negative {key} ({d[key]})")
    for loc, here in state["units"].items():
        if loc not in state["areas"] and loc not in state["seas"] and loc.removeprefix(st.PORT) not in state["provinces"]:
            out.append(f"units in {loc}, which is no place")
        for r, u in here.items():
            if r not in state["realms"]:
                out.append(f"units of {r}, which is no realm")
            land, ships = st.land_count(u), st.ship_count(u)
            if land and loc not in state["areas"]:
                out.append(f"{r}'s land units at sea or in port at {loc}")
            if ships and loc in state["areas"]:
                out.append(f"{r}'s ships on land in {loc}")
            if any(n < 0 for n in u.values()):
                out.append(f"{r} has a negative unit count in {loc}")
    for e in events:
        if e.get("kind") == "war" and st.pair(e["aggressor"], e["target"]) in before.get("truces", []):
            out.append(f"{e['aggressor']} declared war on {e['target']} during a truce")
    for w in state["wars"]:
        a, b = w["pair"].split("|")
        if a not in state["realms"] or b not in state["realms"]:
            out.append(f"a war of a realm that is gone: {w['pair']}")
    for p, d in state["provinces"].items():
        if d["controller"] not in (*state["realms"], st.REBELS, None):
            out.append(f"{p} controlled by {d['controller']}, which is no realm")
    json.dumps(state)
    return out


def play(seed: int, rules: str = "pre-1.2", max_steps: int = 3000) -> dict:
    """One game to its end; returns a summary with every broken invariant."""
    game = GAME
    rng = random.Random(seed)
    key = f"selfplay-{seed}"
    state = game.setup(REALMS, {"rules": rules}, SeededDice(seed=key, context="setup"))
    summary = {"seed": seed, "broken": [], "steps": 0, "battles": 0, "sieges": 0, "peaces": 0, "reactions": 0}
    while not game.is_over(state) and summary["steps"] < max_steps:
        phase = game.phase(state)
        orders = {}
        for power in phase.owes:
            lines = game.bot_orders(state, power, rng)
            parsed = game.parse_orders(state, power, list(enumerate(lines, 1)))
            problems = list(parsed.problems) + game.validate(state, power, parsed.orders)
            bad = {p.line for p in problems if p.kind != "warning"}
            if bad:
                summary["broken"].append(f"bot orders refused: {lines} {[p.render() for p in problems]}")
            orders[power] = [o for o in parsed.orders if o.line not in bad]
        steps = run_phases(game, state, orders, lambda ph: SeededDice(seed=key, context=ph.key))
        for step in steps:
            summary["steps"] += 1
            summary["broken"] += broken(step.after, step.before, step.events)
            for e in step.events:
                kind = e.get("kind")
                summary["battles"] += kind == "battle"
                summary["sieges"] += kind == "siege"
                summary["peaces"] += kind == "peace"
                summary["reactions"] += kind == "decision_needed"
            for power in REALMS:
                game.report(step.after, step.events, power)
        state = steps[-1].after
    if not game.is_over(state):
        summary["broken"].append(f"the game did not end in {max_steps} steps")
    summary["results"] = game.results(state)
    return summary
