"""Random full games of Pax Britannica with bot orders (the conformance test):
every game finishes, state stays JSON, and after every phase no invariant is
broken — no negative treasury after administration, no illegal marker
combination, units only where they may be, no Casus Belli outliving its turn,
no marker the status rules forbid once Negotiation or the Congress is over,
European Tensions never falling, and the game ending the moment they reach 100.
Bots negotiate, call Congresses, propose, vote and sign, and sign small treaties
now and then (some of which they break); they declare Wars when they hold a Casus Belli and
are stronger, and Chinese Rebellions and Ottoman wars break out: no unit stands where the
rules forbid it, no army outlives a supply phase unsupplied, every war ends within its War
Phase, and the Great War ends the game."""
from __future__ import annotations

import json
import random

import pytest

from pbem.base import registry
from pbem.kit.dice import SeededDice
from pbem.kit.engine import apply_one, run_phases
from pbem.kit.gameapi import Refused

#: the suite's short run: 40 games and seed 100, the first whose game has an Ottoman war (the
#: movement bots seldom take Control in an Ottoman Area); bench/pax_playouts.py plays hundreds
SEEDS = [*range(40), 100]
PLAYER_SETS = [
    ["Britain", "France", "Germany", "United States"],
    ["Britain", "France", "Germany", "United States", "Japan"],
    ["Britain", "France", "Germany", "United States", "Japan", "Russia"],
    ["Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy"],
]
STATUSES = {"interest", "influence", "protectorate", "possession", "dominion", "state"}
CONTROL = {"protectorate", "possession", "dominion", "state"}
HEAVY = {"possession", "dominion", "state"}


def unlawful(state) -> list[str]:
    """Markers the status rules forbid, judged here without the game's own code: Influence
    beside another power's established Control marker, Interest beside another's Possession,
    two Control markers whose holders still hold a placement Casus Belli against each other."""
    found = []
    for area, markers in state.get("markers", {}).items():
        ctrl = {p for p, m in markers.items() if m["status"] in CONTROL and m.get("established")}
        heavy = {p for p in ctrl if markers[p]["status"] in HEAVY}
        for p, m in markers.items():
            if m["status"] == "influence" and ctrl - {p}:
                found.append(f"{p}'s Influence beside Control in {area}")
            if m["status"] == "interest" and heavy - {p}:
                found.append(f"{p}'s Interest beside a Possession in {area}")
        for cb in state.get("cb", []):
            if cb.get("area") == area and cb.get("rule") == "CB-02" and {cb["holder"], cb["against"]} <= ctrl:
                found.append(f"rival Control markers in {area}")
    return found


def war_declared(state) -> bool:
    """A dispute gone to War is left for the War Phase (bots never declare War)."""
    return any(d.get("turn") == state["turn"] for d in state.get("declarations", []))


def diplomacy_invariants(before, after, phase_done: str) -> list[str]:
    problems = []
    if after.get("eti", 0) < before.get("eti", 0):
        problems.append(f"European Tensions fell from {before['eti']} to {after['eti']}")
    if after.get("eti", 0) >= 100 and not after.get("game_over") and after["phase"] != "final_record":
        problems.append(f"the Index is {after['eti']} but the game goes on to {after['phase']}")
    if before.get("great_war") and phase_done != "final_record":
        problems.append(f"the {phase_done} Phase ran after the Great War broke out")
    if not after.get("game_over"):
        stale = [cb["id"] for cb in after.get("cb", []) if cb.get("turn") != after["turn"]]
        if stale:
            problems.append(f"Casus Belli {stale} outlived their turn")
    if phase_done in ("negotiation", "congress") and after["phase"] not in ("negotiation", "congress") \
            and not after.get("great_war"):
        problems += [] if war_declared(after) else unlawful(after)
    return problems


def broken_invariants(state, data, phase_done: str) -> list[str]:
    problems = []
    homes = {h.name: p for p, h in data.homes.items()}
    for power, info in state["powers"].items():
        if info.get("treasury", 0) < 0:
            problems.append(f"{power} has a negative treasury after {phase_done}")
    for area, markers in state.get("markers", {}).items():
        if area in homes:
            problems.append(f"a status marker in the Home Country {area}")
            continue
        if area not in data.areas:
            problems.append(f"a marker in {area}, which is not an Area")
            continue
        for p, m in markers.items():
            s = m["status"]
            if s not in STATUSES:
                problems.append(f"{p} has an unknown marker {s!r} in {area}")
            if s == "state" and (p != "United States" or data.areas[area].may_become != "state"):
                problems.append(f"{p} holds a State marker in {area}")
            if s == "dominion" and (p != "Britain" or data.areas[area].may_become != "dominion"):
                problems.append(f"{p} holds a Dominion marker in {area}")
    # a power that made a separate peace brings its units home when the war is settled
    at_war = {p for w in state.get("wars", []) if w.get("status") in ("active", "ended")
              for p in [*(p for side in w["sides"] for p in side), *w.get("left", [])]}
    # the Great War (or tensions reaching 100 in a War) ends the game at once, mid-war
    in_war = phase_done == "war" or phase_done.startswith("war_") or bool(state.get("great_war") and at_war)
    for unit in state.get("units", []):
        where, power = unit["where"], unit["power"]
        if where in homes and homes[where] != power and not (
                in_war and power == "Germany" and homes[where] == "Austria-Hungary"):
            problems.append(f"{power} {unit['type']} in another power's Home Country {where}")
        at_sea = where in data.seas or where in data.capes
        if at_sea and not (in_war and power in at_war and state["phase"] != "victory_points"):
            problems.append(f"{power} {unit['type']} at sea in {where} outside a War")
        if at_sea and unit["type"] == "army" and in_war:
            beside = data.capes[where].between if where in data.capes else {where}
            if not any(power in state.get("merchants", {}).get(s, []) for s in beside):
                problems.append(f"{power} army at sea in {where} without its own Merchant Fleet")
        if not at_sea and where not in homes and where not in data.areas:
            problems.append(f"{power} {unit['type']} in {where}, which is no place")
        if unit["strength"] not in (1, 3, 5, 10):
            problems.append(f"{power} unit of strength {unit['strength']}")
        if power in ("China", "Ottoman Empire") and not in_war:
            problems.append(f"a {power} army outside a War")
    return problems


def war_invariants(before, after, phase_done: str, data) -> list[str]:
    """The War Sequence, judged on the states around each phase: no army the supply phase left
    out of supply, every war over when the War Phase ends, no unit left where its power may not
    stand once a war is settled."""
    from games.pax_britannica.war import geo, model, sequence, supply
    problems = []
    found = sequence.step_of(phase_done)
    if found and found[0] == "supply" and not after.get("great_war"):
        for war in model.fighting(after):
            if found[1] >= len(war["sides"]):
                continue
            for power in war["sides"][found[1]]:
                if model.is_native(power):
                    continue
                lines = geo.Lines(after, data, power)
                for u in after["units"]:
                    # a Rebellion or an Ottoman war checks only the units in its lands or at sea
                    if u["power"] == power and u["type"] == "army" and u["where"] not in lines \
                            and supply.theatre(data, war, u["where"]):
                        problems.append(f"{power}'s army in {u['where']} survived the supply phase unsupplied")
    if after["phase"] == "victory_points" and phase_done in ("war", "war_end", "war_resolution", "war_alliances"):
        still = [w["id"] for w in after.get("wars", []) if w.get("status") in ("active", "ended")]
        if still:
            problems.append(f"wars {still} outlived the War Phase")
        homes = {h.name: p for p, h in data.homes.items()}
        for u in after["units"]:
            where = u["where"]
            if where in homes:
                continue
            control = after.get("markers", {}).get(where, {}).get(u["power"], {})
            if control.get("status") not in ("protectorate", "possession", "dominion", "state"):
                problems.append(f"{u['power']} {u['type']} left in {where} after the War without Control there")
    if after.get("great_war") and not before.get("great_war") and after["phase"] != "final_record" \
            and not after.get("game_over"):
        problems.append(f"the Great War broke out but the game went on to {after['phase']}")
    return problems


def count_wars(state, seen: dict) -> None:
    """Tally each war once by kind, and whether a Great War broke out."""
    for war in state.get("wars", []):
        seen.setdefault("ids", set()).add((war["id"], war["kind"]))
    if state.get("great_war"):
        seen["great_war"] = seen.get("great_war", 0) + 1


def play(game, seed: int, seen: dict | None = None) -> tuple[int, list[str]]:
    seen = {} if seen is None else seen
    rng = random.Random(seed)
    players = PLAYER_SETS[seed % len(PLAYER_SETS)]
    state = game.setup(players, {"setup": "1880"}, SeededDice(seed=f"g{seed}", context="setup"))
    from games.pax_britannica.core import mapdata
    from games.pax_britannica.bots.diplomacy import treaty_actions as bot_treaties

    data = mapdata.load()
    phases = 0
    while not game.is_over(state):
        phase = game.phase(state)
        orders = {}
        if phase.name == "movement":
            for action in bot_treaties(state, rng):
                try:
                    state = apply_one(game, state, action, SeededDice(seed=f"g{seed}", context="treaty")).after
                except Refused as exc:
                    return phases, [f"a bot treaty was refused: {exc}"]
        for power in phase.owes:
            lines = game.bot_orders(state, power, rng)
            parsed = game.parse_orders(state, power, list(enumerate(lines, 1)))
            refused = parsed.problems + game.validate(state, power, parsed.orders)
            hard = [p for p in refused if p.kind != "warning"]
            if hard:
                return phases, [f"the bot's orders were refused: {[p.render() for p in hard]} for {lines}"]
            for order in parsed.orders:
                orders.setdefault(order.power, []).append(order)
        for step in run_phases(game, state, orders, lambda ph: SeededDice(seed=f"g{seed}", context=ph.key)):
            phases += 1
            problems = broken_invariants(step.after, data, step.phase.name)
            problems += diplomacy_invariants(step.before, step.after, step.phase.name)
            problems += war_invariants(step.before, step.after, step.phase.name, data)
            if problems:
                return phases, [f"after {step.phase.label}: {p}" for p in problems]
            state = step.after
        json.dumps(state)
        count_wars(state, seen)
        if phases > 2000:
            return phases, ["the game never ended"]
    return phases, []


@pytest.mark.slow
def test_random_games_keep_every_invariant():
    game = registry.get("pax_britannica")
    failures = []
    wars: dict[str, int] = {}
    great = 0
    for seed in SEEDS:
        seen: dict = {}
        phases, problems = play(game, seed, seen)
        assert phases > 0
        if problems:
            failures.append(f"game {seed}: {problems[0]}")
        for _, kind in seen.get("ids", ()):
            wars[kind] = wars.get(kind, 0) + 1
        great += bool(seen.get("great_war"))
    assert not failures, "\n".join(failures[:10])
    # the bots make war: declared wars, Chinese Rebellions and Ottoman wars all happen
    assert wars.get("war", 0) >= 10 and wars.get("rebellion", 0) >= 5 and wars.get("ottoman", 0) >= 1, wars
    assert great >= 1, "no random game reached the Great War"
