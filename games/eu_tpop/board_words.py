"""The public board of Europa Universalis, as data and in words.

What the physical board shows every player: who owns and who holds each province (9.8), every
realm's armies and fleets where they stand, the rebels, Influence and Claims on the Areas,
the Casus Belli, alliance, marriage and truce tokens, the wars, the Imperial Authority and
the realms' tracks (prestige, stability).  Nothing here is any one realm's own (its monarch
power, its standing orders, a deal it was offered, its peace orders): the map
(:mod:`.mapdraw`), every report and ``HELP <place>`` are drawn from this alone, so they tell
every reader the same.
"""
from __future__ import annotations

from . import hre
from . import state as st

ARMS = (("inf", "inf"), ("cav", "cav"), ("art", "art"))
KINDS = {"PR": "player realm", "BOT": "bot realm", "NPR": "non-player realm"}


def pieces(units: dict[str, int]) -> str:
    """A realm's units at one place in words: ``army 4: 3 inf, 1 cav`` / ``fleet 2: 1 light, 1 heavy``."""
    land, ships = [], []
    for cat in st.CATEGORIES:
        prefix = "" if cat == "regular" else f"{cat}_"
        for key, word in ARMS:
            if units.get(prefix + key):
                land.append(f"{units[prefix + key]} {'' if cat == 'regular' else cat + ' '}{word}")
    for key in st.SHIPS:
        if units.get(key):
            ships.append(f"{units[key]} {key}")
    if units.get("damaged"):
        ships.append(f"{units['damaged']} damaged")
    out = []
    if land:
        out.append(f"army {st.land_count(units)}: {', '.join(land)}")
    if st.ship_count(units):
        out.append(f"fleet {st.ship_count(units)}: {', '.join(ships)}")
    return "; ".join(out)


def _forces(state: dict, loc: str) -> list[dict]:
    return [{"realm": r, "text": pieces(u), "label": f"{r} {pieces(u)}"}
            for r, u in sorted(state["units"].get(loc, {}).items()) if pieces(u)]


def board(state: dict) -> dict:
    """The public board as JSON data (what :func:`lines`, the map and ``HELP <place>`` show)."""
    capitals = {d.get("capital"): r for r, d in state["realms"].items() if d.get("capital")}
    leaders = {}
    for realm, lds in sorted(state["leaders"].items()):
        for ld in lds:
            if ld.get("at"):
                leaders.setdefault(ld["at"], []).append(f"{ld['name']} ({realm})")
    areas = []
    for name in sorted(state["areas"]):
        a = state["areas"][name]
        provs = []
        for p in st.area_provinces(state, name):
            d = state["provinces"][p]
            provs.append({"name": p, "tax": d["tax"], "owner": d["owner"], "controller": d["controller"],
                          "occupied": st.occupied(state, p), "capital_of": capitals.get(p),
                          "unrest": bool(d["unrest"]), "port": d.get("port"),
                          "ships": _forces(state, st.PORT + p)})
        areas.append({"name": name, "hre": bool(a.get("hre")), "distant": bool(a.get("distant")),
                      "religion": a.get("religion"), "seas": list(a.get("seas", [])),
                      "borders": {b: k for b, k in sorted(state["adj"].get(name, {}).items())},
                      "provinces": provs, "forces": _forces(state, name),
                      "rebels": int(state["rebels"].get(name, 0)),
                      "influence": dict(sorted(state["influence"].get(name, {}).items())),
                      "claims": sorted(state["claims"].get(name, [])), "leaders": leaders.get(name, [])})
    seas = [{"name": s, "adjacent": sorted(state["seas"][s].get("adj", [])), "forces": _forces(state, s),
             "coasts": sorted(a for a, d in state["areas"].items() if s in d.get("seas", []))}
            for s in sorted(state["seas"])]
    # the players' realms in turn order, then the rest by name: the same order (and colours)
    # whichever way the stored state keeps its keys
    named = [r for r in state["order"] if r in state["realms"]]
    named += sorted(r for r in state["realms"] if r not in named)
    realms = [{"name": r, "kind": d["kind"], "capital": d.get("capital"), "religion": d.get("religion"),
               "prestige": d["prestige"], "stability": d["stability"], "overlord": d.get("overlord"),
               "ruler": bool(d.get("ruler", True))} for r in named for d in [state["realms"][r]]]
    return {
        "areas": areas, "seas": seas, "realms": realms,
        "wars": [w["pair"].split("|") for w in sorted(state["wars"], key=lambda w: w["pair"])],
        "truces": [t.split("|") for t in sorted(state["truces"])],
        "alliances": [{"pair": k.split("|"), "active": bool(v.get("active"))}
                      for k, v in sorted(state["alliances"].items())],
        "marriages": [{"pr": k.split("|")[0], "realm": k.split("|")[1], "disputed": v == "disputed"}
                      for k, v in sorted(state["marriages"].items())],
        "cbs": sorted({(c["holder"], c["target"]) for c in state["cbs"]}),
        "occupied": [{"province": p, "owner": d["owner"], "controller": d["controller"]}
                     for p, d in sorted(state["provinces"].items()) if st.occupied(state, p)],
        "emperor": state.get("emperor"), "imperial_authority": hre.authority(state),
    }


def _join(items, empty: str = "none") -> str:
    items = list(items)
    return ", ".join(items) if items else empty


def province_words(p: dict) -> str:
    bits = [f"tax {p['tax']}", f"owner {p['owner'] or 'none'}"]
    if p["occupied"]:
        bits.append(f"occupied by {p['controller']}")
    if p["capital_of"]:
        bits.append(f"capital of {p['capital_of']}")
    if p["port"]:
        bits.append(f"port on {p['port']}")
    if p["unrest"]:
        bits.append("unrest")
    bits += [f"in port: {f['label']}" for f in p["ships"]]
    return f"{p['name']} ({', '.join(bits)})"


def area_line(a: dict) -> str:
    """One Area in a line: its provinces, forces and tokens."""
    tags = [t for t, on in (("HRE", a["hre"]), ("distant", a["distant"])) if on]
    out = f"{a['name']}{' [' + ', '.join(tags) + ']' if tags else ''}: " + "; ".join(province_words(p) for p in a["provinces"])
    if not a["provinces"]:
        out += "no provinces"
    extra = [f["label"] for f in a["forces"]]
    if a["rebels"]:
        extra.append(f"Rebels {a['rebels']}")
    if extra:
        out += ". Units: " + "; ".join(extra)
    if a["leaders"]:
        out += ". Leaders: " + ", ".join(a["leaders"])
    if a["influence"]:
        out += ". Influence: " + ", ".join(f"{r} {n}" for r, n in a["influence"].items())
    if a["claims"]:
        out += ". Claims: " + ", ".join(a["claims"])
    return out + "."


def sea_line(s: dict) -> str:
    return f"{s['name']} (sea): " + ("; ".join(f["label"] for f in s["forces"]) or "no fleets") + "."


def relation_lines(b: dict) -> list[str]:
    """The tokens between realms and the Empire, a line each."""
    return [
        "Wars: " + _join(f"{x} vs {y}" for x, y in b["wars"]),
        "Truces: " + _join(f"{x}-{y}" for x, y in b["truces"]),
        "Alliances: " + _join(f"{x}-{y}{' (active ally)' if a['active'] else ''}" for a in b["alliances"]
                              for x, y in [a["pair"]]),
        "Royal marriages: " + _join(f"{m['pr']} with {m['realm']}{' (disputed)' if m['disputed'] else ''}"
                                    for m in b["marriages"]),
        "Casus Belli: " + _join(f"{h} on {t}" for h, t in b["cbs"]),
        "Occupied: " + _join(f"{o['province']} ({o['owner']}'s, held by {o['controller']})" for o in b["occupied"]),
        f"Imperial Authority {b['imperial_authority']}; Emperor: {b['emperor'] or 'none'}",
    ]


def realm_line(r: dict) -> str:
    bits = [KINDS.get(r["kind"], r["kind"]), f"capital {r['capital'] or 'none'}", f"prestige {r['prestige']}",
            f"stability {r['stability']:+d}"]
    if r["overlord"]:
        bits.append(f"vassal of {r['overlord']}")
    if not r["ruler"]:
        bits.append("interregnum")
    return f"{r['name']}: " + ", ".join(bits)


def lines(b: dict) -> list[str]:
    """The whole public board in words: realms, relations, then every Area and Sea Zone."""
    return ([realm_line(r) for r in b["realms"]] + relation_lines(b)
            + [area_line(a) for a in b["areas"]] + [sea_line(s) for s in b["seas"]])


def place_help(state: dict, topic: str) -> str | None:
    """``HELP <place>``: an Area's, a province's or a Sea Zone's facts, or None when ``topic``
    names none (spelled in any case, hyphens for spaces)."""
    want = " ".join(topic.replace("-", " ").split()).lower()
    b = board(state)
    for a in b["areas"]:
        if a["name"].lower() == want:
            return _area_help(a)
    for a in b["areas"]:
        for p in a["provinces"]:
            if p["name"].lower() == want:
                return (f"{p['name']}, a province of the Area {a['name']}: " + province_words(p)[len(p['name']) + 2:-1]
                        + ".\n" + _area_help(a))
    for s in b["seas"]:
        if s["name"].lower() == want:
            return "\n".join([f"{s['name']}, a Sea Zone.", "Fleets: " + ("; ".join(f["label"] for f in s["forces"]) or "none"),
                              "Coasts: " + _join(s["coasts"]), "Sea lanes to: " + _join(s["adjacent"])])
    return None


def _area_help(a: dict) -> str:
    borders = [f"{n}{' (mountain)' if k == 'mountain' else ''}" for n, k in a["borders"].items()]
    return "\n".join([
        f"{a['name']}, an Area" + (" of the Holy Roman Empire" if a["hre"] else "")
        + (", distant" if a["distant"] else "") + (f", {a['religion']}" if a["religion"] else "") + ".",
        "Provinces: " + _join((province_words(p) for p in a["provinces"])),
        "Units: " + _join([f["label"] for f in a["forces"]] + ([f"Rebels {a['rebels']}"] if a["rebels"] else [])),
        "Leaders: " + _join(a["leaders"]),
        "Influence: " + _join(f"{r} {n}" for r, n in a["influence"].items()),
        "Claims: " + _join(a["claims"]),
        "Borders: " + _join(borders), "Coasts on: " + _join(a["seas"]),
    ])


def map_help(state: dict) -> str:
    """``HELP MAP``: how the map is read and the places ``HELP <place>`` answers on."""
    return "\n".join([
        "The map: a card per Area and Sea Zone; each province a square in its owner's colour (the holder's "
        "inside it when occupied, a star on a capital), then the armies and fleets there with their strength, "
        "rebels, leaders, Influence and Claims. Lines: borders (dashed: mountain), coasts (dotted), sea lanes. "
        "Under the cards: the realms, wars, truces, alliances, marriages, Casus Belli, occupations and the "
        "Imperial Authority. Your own provinces are ringed in gold.",
        "HELP <place> gives a place's facts (hyphens for spaces):",
        "  Areas: " + ", ".join(sorted(state["areas"])),
        "  Provinces: " + ", ".join(sorted(state["provinces"])),
        "  Sea Zones: " + ", ".join(sorted(state["seas"])),
    ])
