"""Parse trees of orders.lark to orders: each rule's kind, arguments and canonical text
(the text a reply echoes, which reads back as the same order)."""
from __future__ import annotations

from lark import Transformer

from pbem.kit.gameapi import GMError


def _detail_text(d: list[str]) -> str:
    return f" {d[0]} {' FOR '.join(d[1:]) if d[0] == 'EXCHANGE' else ' '.join(d[1:])}"


class Shape(Transformer):
    """Each order rule of orders.lark -> (kind, args, canonical text)."""

    def declare(self, c):
        targets, cb = c[0], (c[1] if len(c) > 1 else None)
        canon = f"DECLARE WAR ON {','.join(targets)}" + (f" CB {cb.upper()}" if cb else "")
        return "declare", {"targets": list(targets), "cb": cb}, canon

    def call(self, c):
        return "cta", {"realm": c[0]}, f"CALL TO ARMS {c[0]}"

    def hop(self, c):
        return c[0]

    def siege_flag(self, c):
        return True

    def unit_count(self, c):
        return (c[1], c[0])

    def taking(self, c):
        out: dict[str, int] = {}
        for unit, n in c:
            out[unit] = out.get(unit, 0) + n
        return out

    def activate(self, c):
        taking = next((x for x in c[1:] if isinstance(x, dict)), None)
        path = [c[0]] + [x for x in c[1:] if x is not True and not isinstance(x, dict)]
        siege = any(x is True for x in c[1:])
        if len(path) < 2:
            raise GMError("ACTIVATE <area> [WITH <n> INF|CAV|ART ...] TO <area> [TO <area>] [SIEGE]")
        with_text = (" WITH " + " ".join(f"{n} {u.upper()}" for u, n in taking.items())) if taking else ""
        return "activate", {"path": path, "siege": siege, "taking": taking}, \
            f"ACTIVATE {path[0]}{with_text} TO " + " TO ".join(path[1:]) + (" SIEGE" if siege else "")

    def naval(self, c):
        return "naval", {"from": c[0], "to": c[1]}, f"NAVAL {c[0]} TO {c[1]}"

    def category(self, c):
        word = str(c[0]).lower()
        return "merc" if word.startswith("merc") else word

    def recruit(self, c):
        n, unit, where = c[0], c[1], c[2]
        cat = c[3] if len(c) > 3 else "regular"
        canon = f"RECRUIT {n} {unit.upper()} IN {where}" + ("" if cat == "regular" else f" {cat.upper()}")
        return "recruit", {"n": n, "unit": unit, "where": where, "category": cat}, canon

    def siege(self, c):
        area, provs = c[0], [str(p) for p in c[1:]]
        return "siege", {"area": area, "provinces": provs}, f"SIEGE {area}" + "".join(f" {p}" for p in provs)

    def appoint(self, c):
        return "appoint", {"leader": c[0], "place": c[1]}, f"APPOINT {c[0]} TO {c[1]}"

    def forge(self, c):
        return "forge", {"realm": c[0]}, f"FORGE ALLIANCE {c[0]}"

    def influence(self, c):
        n = c[1] if len(c) > 1 else 1
        return "influence", {"area": c[0], "n": n}, f"INFLUENCE {c[0]} {n}"

    def cut(self, c):
        return "cut_ties", {"realm": c[0]}, f"CUT TIES {c[0]}"

    def subjugate(self, c):
        return "subjugate", {"realm": c[0]}, f"SUBJUGATE {c[0]}"

    def royal(self, c):
        return "marriage", {"realm": c[0]}, f"ROYAL MARRIAGE {c[0]}"

    def pass_(self, c):
        return "pass", {}, "PASS"

    def cta_answer(self, c):
        return str(c[0])

    activity = retreat_when = call_whom = cta_answer

    def standing_cta(self, c):
        return "CTA", " ".join(c)

    def standing_retreat(self, c):
        return "RETREAT", "IF OUTNUMBERED" if not c or c[0] == "OUTNUMBERED" else c[0]

    def standing_casualties(self, c):
        return "CASUALTIES", c[0]

    def standing_call(self, c):
        return "CALL", c[0]

    def standing_leader(self, c):
        return "LEADER", c[0]

    def standing(self, c):
        topic, value = c[0]
        return "standing", {"topic": topic.lower(), "value": value}, f"STANDING {topic} {value}"

    def accept(self, c):
        extra = c[0] if c else None
        return "accept", {"active": extra != "INACTIVE"}, "ACCEPT" + (f" {extra}" if extra else "")

    def refuse(self, c):
        return "refuse", {}, "REFUSE"

    def retreat(self, c):
        to = c[0] if c else None
        return "retreat", {"to": to}, "RETREAT" + (f" TO {to}" if to else "")

    def fight(self, c):
        return "fight", {}, "FIGHT"

    def leader(self, c):
        if c[0] == "ASK":
            raise GMError("LEADER names a leader, BEST or NONE (ASK is for STANDING LEADER)", "invalid-order")
        return "leader", {"leader": c[0]}, f"LEADER {c[0]}"

    def return_(self, c):
        return ["RETURN", c[0]]

    def exchange(self, c):
        return ["EXCHANGE", c[0], c[1]]

    def liberate(self, c):
        return ["LIBERATE", c[0]]

    def ally(self, c):
        return ["ALLY", c[0]]

    def claim(self, c):
        return ["CLAIM", c[0]]

    def details(self, c):
        return list(c)

    def enforce(self, c):
        term, realm, details = c[0], c[1], list(c[2:])
        canon = f"ENFORCE {term} ON {realm}" + "".join(_detail_text(d) for d in details)
        return "enforce", {"term": term, "realm": realm, "details": details}, canon.rstrip()

    def offer(self, c):
        return "offer_white", {"realm": c[0]}, f"OFFER WHITE PEACE TO {c[0]}"

    def surrender(self, c):
        return "surrender", {"realm": c[0]}, f"SURRENDER TO {c[0]}"

    def keep(self, c):
        return "keep_war", {"realm": c[0]}, f"KEEP WAR {c[0]}"

    def deal(self, c):
        return c[0]

    def __default_token__(self, token):
        return token.value
