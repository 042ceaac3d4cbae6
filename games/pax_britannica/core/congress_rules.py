"""The Congress of Europe's rules that need no orders: where it may sit, who belongs to it,
who votes and who signs, how votes are counted, and what a proposal may say.

Rules: CONGRESS OF EUROPE; MINOR POWER/GREAT POWER STATUS CONFLICTS; AUSTRIA-HUNGARY.
The Congress itself lives in ``state["congress"]`` (see new_congress) and is played in
phases/congress.py.
"""
from __future__ import annotations

from pbem.kit.state_copy import copy_state

from . import board, disputes, treaties
from .state import by_rules_order

#: Rules: CONGRESS OF EUROPE - "All other European players (Great Britain, France, Germany,
#: Italy, and Russia) may attend"; the United States and Japan only as the rules allow.
EUROPEAN = ("Britain", "France", "Germany", "Italy", "Russia")
OVERSEAS = ("United States", "Japan")
STEPS = ("attend", "propose", "vote", "sign", "decide")
STEP_TITLES = {"attend": "attendance", "propose": "proposals", "vote": "votes",
               "sign": "signatures", "decide": "war or peace", "closed": "closed"}


def option(state: dict, name: str, default):
    return (state.get("options") or {}).get(name, default)


def rounds_cap(state: dict) -> int:
    return max(1, int(option(state, "congress_rounds", 3)))


def speaker(state: dict, power: str) -> str | None:
    """Who writes for a power: itself when played, the German player for Austria-Hungary;
    nobody for a Minor Power (Choice: a Minor Power neither votes nor signs nor negotiates; it
    abides by the Congress, as MINOR POWER/GREAT POWER STATUS CONFLICTS says)."""
    players = state.get("players", [])
    if power in players:
        return power
    if power == "Austria-Hungary" and "Germany" in players:
        return "Germany"
    return None


def speakers(state: dict, powers) -> list[str]:
    return by_rules_order({s for s in (speaker(state, p) for p in powers) if s})


def europeans(state: dict) -> list[str]:
    return [p for p in EUROPEAN if p in state.get("players", [])]


# -- the site ----------------------------------------------------------------------------------
def valid_sites(state: dict, parties: set[str]) -> list[str]:
    """Rules: CONGRESS OF EUROPE - "Any player's Home Country is an acceptable site. Unless all
    players are party to the dispute, the Congress must be held in a country that is not party
    to the dispute. If all players are party, the Congress is automatically held in Germany.
    The United States or Japan can be a Congress site only if all European Great Powers are
    party to the dispute, and the United States or Japan is not"; "Austria-Hungary can be the
    site of a Congress of Europe".  Choice: Austria-Hungary may host while it is not itself a
    party, even when Germany is."""
    players = state.get("players", [])
    if set(players) <= parties:
        return ["Germany"]
    homes = list(players) + (["Austria-Hungary"] if "Germany" in players else [])
    out = []
    for site in by_rules_order(homes):
        if site in parties:
            continue
        if site in OVERSEAS and not set(europeans(state)) <= parties:
            continue
        out.append(site)
    return out


def all_parties(state: dict) -> set[str]:
    """Every party to this turn's disputes, less those already at War with each other."""
    out: set[str] = set()
    for cb in congress_cbs(state):
        out |= {cb["holder"], cb["against"]}
    for claim in state.get("minor_claims", []):
        if claim.get("turn") == state.get("turn") and claim.get("defenders"):
            out |= set(claim["defenders"])
    return out


def congress_cbs(state: dict) -> list[dict]:
    """Rules: CONGRESS OF EUROPE - "only a single Congress is called. All parties to all such
    disputes are members".  Choice: every Casus Belli of the turn goes before it, except those
    between powers already at War with each other."""
    return [cb for cb in disputes.current(state) if not disputes.at_war(state, cb["holder"], cb["against"])]


# -- the Congress record -----------------------------------------------------------------------
def new_congress(state: dict, caller: str, site: str) -> dict:
    cbs = congress_cbs(state)
    parties = all_parties(state)
    defenders = {}
    for claim in state.get("minor_claims", []):
        if claim.get("turn") == state.get("turn") and claim.get("defenders"):
            defenders[claim["area"]] = {"minor": claim["minor"], "placer": claim["placer"],
                                        "defenders": list(claim["defenders"])}
    members = by_rules_order(parties | {site})
    return {"turn": state["turn"], "called_by": caller, "site": site, "step": "attend", "round": 1,
            "disputes": disputes.group(cbs), "cbs": [cb["id"] for cb in cbs],
            "parties": by_rules_order(parties), "defended": defenders,
            "members": members, "attending": [], "declined": [], "invites": {},
            "proposals": [], "adopted": None, "signatures": {}, "refusals": [],
            "outcome": None, "unresolved": []}


def current(state: dict) -> dict | None:
    c = state.get("congress")
    return c if c and c.get("turn") == state.get("turn") else None


def sitting(state: dict) -> bool:
    c = current(state)
    return bool(c) and c.get("step") != "closed"


def voters(state: dict, c: dict) -> list[str]:
    """Members who vote: the players among them (Austria-Hungary only in a tie, Minor Powers
    never)."""
    return [p for p in c["members"] if p in state.get("players", [])]


def voices(state: dict, c: dict) -> list[str]:
    """Players who speak in the Congress (propose): voters, and the German player for a
    member Austria-Hungary."""
    return speakers(state, c["members"])


def disputants(state: dict, c: dict) -> list[str]:
    """Players who must sign: the parties (Austria-Hungary's signature is Germany's)."""
    return speakers(state, c["parties"])


def live_disputes(state: dict, c: dict) -> list[dict]:
    """The Congress's disputes not gone to War (Rules: DECLARATIONS OF WAR - other disputes
    "should be resolved by Congress or Negotiations before any War Movement begins")."""
    out = []
    for d in c["disputes"]:
        cbs = [disputes.find(state, i) for i in d["cbs"]]
        if any(cb and not disputes.at_war(state, cb["holder"], cb["against"]) for cb in cbs):
            out.append(d)
    return out


def areas(c: dict) -> list[str]:
    return sorted({d["area"] for d in c["disputes"] if d.get("area")} | set(c.get("defended", {})))


def invitable(state: dict, c: dict) -> list[str]:
    return [p for p in OVERSEAS if p in state.get("players", []) and p not in c["members"]]


# -- votes ------------------------------------------------------------------------------------
def tally(state: dict, c: dict, proposal: dict, votes: dict[str, str]) -> tuple[bool, dict]:
    """Rules: CONGRESS OF EUROPE - "If one or more members abstain, the treaty passes if a
    majority of those voting vote in favor. In the event of a tie, the host player can break
    the tie"; "Austria-Hungary ... does not vote in the Congress - unless there is a tie, in
    which case the German player can vote twice".  Choice: in a tie a member Austria-Hungary
    votes first (as the German player writes with FOR Austria-Hungary, else as Germany voted);
    a tie left after that is broken by the host's own vote (a host who did not vote YES lets
    the proposal fall)."""
    counted = {p: votes.get(p, "abstain") for p in voters(state, c)}
    yes = sum(1 for v in counted.values() if v == "yes")
    no = sum(1 for v in counted.values() if v == "no")
    record = {"yes": yes, "no": no, "by": counted, "tie": yes == no}
    if yes == no and "Austria-Hungary" in c["members"]:
        ah = votes.get("Austria-Hungary") or votes.get("Germany", "abstain")
        record["Austria-Hungary"] = ah
        yes += ah == "yes"
        no += ah == "no"
    if yes == no:
        host = c["site"]
        cast = votes.get(host) or (votes.get("Germany") if host == "Austria-Hungary" else None)
        record["host"] = cast or "abstain"
        return cast == "yes", record
    return yes > no, record


# -- what a proposal may say ---------------------------------------------------------------------
def minor_scope(state: dict, c: dict) -> dict[str, set | None]:
    """Rules: MINOR POWER/GREAT POWER STATUS CONFLICTS - "Congress may not make Proposals
    regarding any Minor Power territories other than those in which the Minor Powers are
    involved in Casus Belli"; note on American Yellow-Press Journalism ("any and all Spanish
    markers may be included").  Choice: an Area-less Casus Belli against a Minor Power before
    the Congress (the event's) opens every Area of that power.  minor -> Areas (None: all)."""
    scope: dict[str, set | None] = {}
    for cb in (disputes.find(state, i) for i in c["cbs"]):
        if cb is None:
            continue
        for p in (cb["holder"], cb["against"]):
            if board.is_great(state, p):
                continue
            if cb.get("area") is None:
                scope[p] = None
            elif scope.get(p, set()) is not None:
                scope.setdefault(p, set()).add(cb["area"])
    for area, d in c.get("defended", {}).items():
        if scope.get(d["minor"], set()) is not None:
            scope.setdefault(d["minor"], set()).add(area)
    return scope


def clause_touches(state: dict, clause: dict) -> list[tuple[str, str]]:
    """(power, Area) pairs whose markers a clause changes."""
    t = clause["type"]
    if t == "downgrade":
        return [(clause["power"], clause["area"])]
    if t == "transfer":
        holders = [p for p, m in board.markers_in(state, clause["area"]).items()
                   if m["status"] == clause["status"]]
        return [(p, clause["area"]) for p in ([clause["subject"]] if clause.get("subject") else holders)]
    if t == "codominion":
        return [(p, clause["area"]) for p in board.markers_in(state, clause["area"])]
    return []


def proposal_problems(state: dict, data, c: dict, terms: list[dict]) -> list[tuple[str, str, int | None]]:
    """(code, message, line) for each thing that keeps a proposal from the Congress.
    Rules: CONGRESS OF EUROPE - "In the case of status disputes, any such Treaty must resolve
    the dispute such that, once the Treaty is accepted, Status markers do not occupy Areas
    illegally"; what Congressional Proposals may involve.  Choice: "a single Treaty resolving
    all disputes at once" - every proposal settles every status dispute before the Congress
    (no vote on the order of the disputes)."""
    problems: list[tuple[str, str, int | None]] = []
    scope = minor_scope(state, c)
    for clause in terms:
        for power, area in clause_touches(state, clause):
            if board.is_great(state, power) or power not in state.get("powers", {}):
                continue
            allowed = scope.get(power, set())
            if allowed is not None and area not in allowed:
                problems.append(("minor-territory", f"{clause['text']}: {power} is in no dispute over "
                                 f"{area}, so the Congress may not touch its markers there",
                                 clause.get("line")))
    for clause in terms:
        for message in treaties.check_terms(state, data, [clause], [], congress=True, where_lines=False):
            problems.append(("bad-clause", message, clause.get("line")))
    if problems:
        return problems
    sim = simulate(state, data, terms)
    for area in areas(c):
        if area in [d["area"] for d in live_disputes(state, c)] or area in c.get("defended", {}):
            illegal = disputes.illegal_markers(sim, area)
            if illegal:
                problems.append(("leaves-conflict", f"the dispute over {area} is not settled: "
                                 + "; ".join(f"{p}: {why}" for p, why in sorted(illegal.items())),
                                 None))
    return problems


def simulate(state: dict, data, terms: list[dict]) -> dict:
    """The board as it would be with every clause carried out (a Congress grants Codominions
    free); the state given is not changed."""
    sim = copy_state(state)
    record = {"id": "proposal", "status": "in_force", "parties": list(sim.get("players", [])),
              "terms": copy_state(terms), "history": [], "breaches": []}
    for p in sim["powers"]:
        sim["powers"][p]["treasury"] = 10 ** 9
    treaties.come_into_force(sim, data, record, free_codominions=True)
    return sim
