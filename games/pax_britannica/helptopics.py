"""HELP topics of Pax Britannica: each order, the prices, the map, one place
(the Negotiation, Congress, treaty-clause and War forms are the game's help_text).

``HELP BUY`` explains an order with its forms and an example; ``HELP PRICES``
gives the tables a player needs to plan a turn; ``HELP MAP`` says how the map
is named; ``HELP <place>`` gives one Area, Home Country or Sea Zone as the
board shows it (the board is open: every player may see every marker and
unit, Rules: THE MAP).  Prices come from the game's data, so a GM's data
override shows here too.
"""
from __future__ import annotations

import textwrap

from . import gm
from .core import board, clauses, mapgraph
from .core.state import label
from .phases import diplomacy_orders, movement_orders, movement_rules as rules
from .phases.movement_orders import ALIASES, FORMS
from .report import events as say
from .war import orders as war_orders

#: what each order does, with the rules section it follows and an example
ORDERS = {
    "BUY": ("Place or upgrade a Status marker in an Area (Rules: STATUS CHANGE; ALTERING EXISTING STATUS "
            "MARKERS). You need a Communication Link to the Area: a chain of your Merchant Fleet seas, "
            "established Control markers and your Home Country. An upgrade pays the difference between "
            "the two prices. A Protectorate or Possession goes only in an unorganized or Chinese Vassal "
            "Area, or one in Unrest; a new marker must be established (Colonial Combat) before it can be "
            "upgraded again. Britain writes DOMINION, the United States STATE.",
            "BUY INFLUENCE Tunis"),
    "DOWNGRADE": ("Give up an Interest or Influence, one step (or TO NONE); Control markers cannot be "
                  "downgraded at will (Rules: ALTERING EXISTING STATUS MARKERS).", "DOWNGRADE Persia TO NONE"),
    "BUILD": ("Buy an Army or Naval Unit of strength 1, 3 or 10, placed at home; a navy goes in one of "
              "your Home Area's sea boxes (Rules: MOVEMENT/STATUS CHANGE). BUILD CANAL builds a canal in "
              "Panama or Central America for £30, with an established Influence or Control marker there "
              "(Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS).", "BUILD ARMY 3"),
    "MOVE": ("Move an Army from your Home Country or an Area you Control, through your Merchant Fleet "
             "seas and established Control markers not in Unrest, to an Area with your Control marker; "
             "VIA names places to pass on the way, in order, and the rest of the way is found for you. "
             "A Navy moves to a coastal Area you Control or a Home Area sea box. A Merchant Fleet moves "
             "any distance to a Sea Zone without one of yours (Rules: MOVEMENT).",
             "MOVE ARMY 3 HOME TO Tunis VIA Mediterranean Sea"),
    "PLACE": ("Place a new Merchant Fleet from the Game Turn Track in a Sea Zone without one of yours "
              "(Rules: MOVEMENT, Merchant Fleets).", "PLACE MERCHANT Indian Ocean"),
    "SUPPRESS": ("Your armies in an Area in Unrest fight the Unrest in the Colonial Combat Phase "
                 "(Rules: COLONIAL COMBAT TO SUPPRESS UNREST).", "SUPPRESS Egypt"),
    "GIVE": ("Give money to another Great Power; it counts for them only if they write ACCEPT <amount> "
             "FROM you (Rules: TRANSFERRING MONEY). Austria-Hungary never gives money.", "GIVE France 10"),
    "TRANSFER": ("Hand a Status marker to another power, who writes ACCEPT for it; States and Dominions "
                 "cannot be transferred (Rules: ALTERING EXISTING STATUS MARKERS, Transferring Status).",
                 "TRANSFER PROTECTORATE Tunis TO France"),
    "ACCEPT": ("Take money or a marker another power gives you this phase; from your ACCEPT line on you "
               "may use it (Rules: TRANSFERRING MONEY; Transferring Status).", "ACCEPT 10 FROM Britain"),
    "REMOVE": ("Choose the units abroad that meet a deficit left by the Administrative Phase; without "
               "REMOVE lines the default removals apply (Rules: NET INCOME RECORD).", "REMOVE ARMY 3 Egypt"),
    "ELIMINATE": ("Choose which of your armies in an Area are lost when a later phase asks for losses.",
                  "ELIMINATE ARMY 3 Egypt"),
    "FOR": ("The German player also writes Austria-Hungary's orders: lines after FOR Austria-Hungary are "
            "its orders, until FOR Germany (Rules: AUSTRIA-HUNGARY).", "FOR Austria-Hungary"),
}
#: what an order of a War's Resolution does that shares its verb with a Movement order
RESOLUTION_ORDERS = {
    "PLACE": ("In the Resolution Phase after a War, the victors put their own Status markers, free, in the "
              "Areas their alliance conquered (a Minor Power only a Possession); markers that conflict "
              "are reduced or removed, a neutral's Control marker stays, and a marker at or below the one "
              "you hold there changes nothing (Rules: NEGOTIATION AND ENDING A WAR).",
              "PLACE POSSESSION Algiers"),
}
#: every topic of the game (the diplomacy ones are answered by the game's help_text)
TOPICS = ("PRICES", "MAP", *ORDERS, "NEGOTIATION", "CONGRESS", "CLAUSES", "WAR", "<place>")


def _wrap(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, 76, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False)


def answer(state: dict | None, data, power: str | None, topic: str) -> str | None:
    word = " ".join(topic.upper().split())
    verb = ALIASES.get(word, word)
    if verb in RESOLUTION_ORDERS and state is not None and state.get("phase") == "war_resolution":
        return resolution_help(verb) + "\n" + order_help(verb)
    if verb in ORDERS:
        return order_help(verb) + ("\n" + resolution_help(verb) if verb in RESOLUTION_ORDERS else "")
    if word in ("PRICES", "PRICE", "COSTS", "COST"):
        return prices(data)
    if word == "MAP":
        return map_help(data)
    if word == "GM":
        return "GM state edits (GM <edit> in a GM mail): " + "; ".join(gm.COMMANDS) + "\n"
    place = data.resolve_place(topic, power)
    if place:
        return place_help(state, data, place)
    return None


def order_help(verb: str) -> str:
    text, example = ORDERS[verb]
    forms = [f for f in FORMS if f.split()[0] == verb]
    lines = [f"{verb} (Movement/Status Change Phase):"] + [f"  {f}" for f in forms] + _wrap(text)
    lines.append(f"  Example: {example}")
    lines.append("  Orders take effect in the order written: build or move what a later line needs above it.")
    return "\n".join(lines) + "\n"


def resolution_help(verb: str) -> str:
    text, example = RESOLUTION_ORDERS[verb]
    forms = [f for f in war_orders.FORMS if f.split()[0] == verb]
    lines = [f"{verb} (Resolution Phase after a War):"] + [f"  {f}" for f in forms] + _wrap(text)
    lines.append(f"  Example: {example}")
    return "\n".join(lines) + "\n"


def prices(data) -> str:
    """Rules: STATUS CHANGE, MAINTENANCE RECORD, INCOME RECORD; unit prices are data
    (an assumption the GM was shown: see data/DATA.md)."""
    lines = ["Prices (Movement/Status Change Phase):", "  Status markers: to buy, upkeep a turn, income",
             "  (Economic Value x); an upgrade pays the difference."]
    for status, m in data.markers.items():
        lines.append(f"    {say.status(status):<13} {say.money(m.buy):>4}  upkeep {say.money(m.maint):>4}"
                     f"  income EV x {m.income_mult}")
    for kind, word in (("army", "Army"), ("navy", "Naval")):
        costs = data.unit_costs.get(kind, {})
        lines.append(f"  {word} Units: " + ", ".join(f"({s}) {say.money(c)}" for s, c in sorted(costs.items())))
    lines.append(f"  A canal (Panama or Central America): {say.money(rules.CANAL_COST)}")
    lines.append("  Units abroad cost upkeep by strength; units at home cost none.")
    return "\n".join(lines) + "\n"


def map_help(data) -> str:
    kinds: dict[str, int] = {}
    for a in data.areas.values():
        kinds[a.kind] = kinds.get(a.kind, 0) + 1
    lines = ["The map (Rules: THE MAP):",
             f"  {len(data.areas)} Areas ("
             + ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(kinds.items())) + "), "
             f"{len(data.homes)} Home Countries and {len(data.seas)} Sea Zones.",
             "  Names need no quotes and ignore case; HOME is your Home Country; a sea may be written "
             "without Ocean or Sea (North Atlantic).",
             "  Sea Zones: " + ", ".join(sorted(data.seas)) + ".",
             "  HELP <place> gives one Area, Home Country or Sea Zone: who holds what there, its "
             "neighbours and coasts.",
             "  Your reports list the board nearest your own holdings first."]
    return "\n".join(lines) + "\n"


def place_help(state: dict | None, data, place: str) -> str:
    """One place as the board shows it (the board is open to every player)."""
    lines = []
    if place in data.areas:
        a = data.areas[place]
        extra = f"; may become a {a.may_become.title()}" if a.may_become else ""
        lines.append(f"{place}: {a.kind.replace('_', ' ')} Area, Economic Value {a.ev}, Combat Strength "
                     f"{a.cs}{extra}.")
        lines += _wrap("Overland to: " + (", ".join(sorted(a.neighbours)) or "none") + ".")
        lines += _wrap("Coasts: " + (", ".join(sorted(a.seas)) or "none (inland)") + ".")
    elif place in data.seas:
        coast = sorted(mapgraph.coastal_index(data).get(place, set()))
        lines.append(f"{place}: Sea Zone.")
        lines += _wrap("Next to: " + ", ".join(sorted(data.seas[place].adjacent)) + ".")
        lines += _wrap("Coasts: " + ", ".join(coast) + ".")
    else:
        power = data.home_of(place)
        if power is None:
            return f"{place}: a Cape Zone, used only in a War.\n"
        lines.append(f"{place}: the Home Country of {power}; sea boxes "
                     + ", ".join(sorted(data.homes[power].seas)) + ".")
    if state is not None:
        lines += _wrap("Now (" + f"{state['turn']} {label(state['phase'])}): " + _holding(state, place))
    return "\n".join(lines) + "\n"


def _holding(state: dict, place: str) -> str:
    parts = []
    for p, m in sorted(board.markers_in(state, place).items()):
        parts.append(f"{p} {m['status']}" + ("" if m.get("established") else " (not yet established)"))
    units = board.units_of(state, where=place)
    for u in sorted(units, key=lambda u: (u["power"], u["type"], -u["strength"])):
        parts.append(f"{u['power']} {say.unit(u)}")
    fleets = state.get("merchants", {}).get(place, [])
    if fleets:
        parts.append("Merchant Fleets of " + ", ".join(fleets))
    if board.in_unrest(state, place):
        parts.append("in Unrest")
    if place in state.get("canals", []):
        parts.append("a canal")
    return "; ".join(parts) + "." if parts else "nobody holds anything here."


# -- the help on the orders of each phase -------------------------------------------
def help_text(topic: str | None = None) -> str:
    """The help on a diplomacy or War topic (NEGOTIATION, CONGRESS, WAR, CLAUSES, GM), the
    Movement orders' help for none, else nothing."""
    key = (topic or "").strip().lower()
    if key == "gm":
        return "GM commands: " + "; ".join(gm.COMMANDS)
    if key == "negotiation":
        return "Negotiation Phase orders, one a line (end with DONE):\n" + \
            "\n".join("  " + f for f in diplomacy_orders.NEGOTIATION_FORMS + ("DONE",))
    if key == "congress":
        return ("Congress of Europe orders, by step (attendance, proposals, votes, "
                "signatures):\n" + "\n".join("  " + f for f in diplomacy_orders.CONGRESS_FORMS)
                + "\n  DECLARE WAR ON <power>[,<power>...] (in any step, with a Casus Belli)")
    if key in ("war", "wars", "rebellion"):
        return ("War orders, one a line (each window takes some of them; the report says which "
                "you may send now):\n" + "\n".join("  " + f for f in war_orders.FORMS))
    if key in ("clauses", "treaty", "treaties", "propose"):
        return ("Treaty clauses the moderator checks, one a line in a treaty's text or a "
                "proposal, each optionally after '<power>:' naming the power bound:\n"
                + "\n".join("  " + f for f in clauses.FORMS))
    if key:
        return ""
    return movement_orders.HELP


def help_on_form(topic: str) -> str | None:
    """``HELP DECLARE WAR``, ``HELP JOIN``: an order of the Negotiation, the Congress or
    the War is answered with the help of the topics whose forms it begins."""
    words = topic.upper().split()
    if not words:
        return None
    found = [name for name, forms in (("NEGOTIATION", diplomacy_orders.NEGOTIATION_FORMS),
                                      ("CONGRESS", diplomacy_orders.CONGRESS_FORMS),
                                      ("WAR", war_orders.FORMS))
             if any(f.upper().split()[:len(words)] == words for f in forms)]
    return "\n\n".join(help_text(name) for name in found) or None


def order_forms() -> list[str]:
    """Every order form of the game, each once."""
    forms = list(movement_orders.FORMS) + [f for f in diplomacy_orders.FORMS if f not in movement_orders.FORMS]
    return forms + [f for f in war_orders.FORMS if f not in forms]
