"""The Marker Adjustment Phase.

Rules: GAME TURN SEQUENCE (Marker Adjustment Phase); Unrest in a Controlled Area; Unrest in an
Influence Area; Unrest in a Neutral Area; Establishing a Status Marker During the Marker
Adjustment Phase; MOVEMENT (Army Units: a Control marker not established by the end of the
Marker Adjustment Phase); GARRISONS; CODOMINIONS; NEGOTIATION (Influence cannot remain beside
an established Control marker); EUROPEAN TENSION INCREASES; Forced Expenditures and Tension
Increases (marker-conflict increases happen in this phase).

The steps, in the order the phase lists them:
1. each Area still in Unrest: the revolt succeeds (markers removed, units retreat), then every
   Unrest marker goes;
2. unestablished Interest and Influence markers are established;
3. Control markers still unestablished (no successful Colonial Combat) are removed and their
   Army Units retreat;
4. garrisons: a Control marker that had no Army Unit when the Movement/Status Change Phase
   ended (recorded then) drops to Influence (in a Codominion it goes, leaving an Interest where
   no Possession stands);
5. marker conflicts: Influence beside an established Control marker, and Interest beside an
   established Possession, are downgraded (European Tensions, the newcomer blamed);
6. units left in an Area where their power no longer has Control retreat.
"""
from __future__ import annotations

from ..core import board, disputes, mapgraph, summaries
from . import colonial_combat as cc

CONTROL = board.CONTROL
POSSESSION_LIKE = ("possession", "dominion", "state")
TIER = {"protectorate": 0, "possession": 1, "dominion": 2, "state": 2}


def option(state: dict, name: str, default):
    return (state.get("options") or {}).get(name, default)


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    events: list[dict] = []
    events += unrest_outcomes(state, data)
    events += establish_round_markers(state)
    events += drop_unestablished_control(state, data)
    events += garrisons(state, data)
    # Choice (game option marker_conflicts): "marker_adjustment" settles conflicts here, as
    # Forced Expenditures and Tension Increases places their ETI; "negotiation" leaves them.
    # They come after the garrisons, so only Control markers that survive the phase push
    # other markers out.
    if option(state, "marker_conflicts", "marker_adjustment") == "marker_adjustment":
        events += resolve_conflicts(state, data)
    events += withdraw_stranded_units(state, data)
    return events


# -- 1. Unrest ----------------------------------------------------------------------------
def unrest_outcomes(state: dict, data) -> list[dict]:
    """Rules: Unrest in a Controlled Area - the controller's marker is removed and all its
    Military Units retreat; Unrest in an Influence/Neutral Area - all Status markers are
    removed and all Military Units retreat.  No European Tensions: losses to Unrest are
    excepted (Rules: EUROPEAN TENSION INCREASES).  Then all Unrest markers are removed."""
    events: list[dict] = []
    for area in sorted(state.get("unrest", [])):
        ctrl = board.controllers(state, area)
        losers = ctrl or sorted(board.markers_in(state, area))
        for power in losers:
            events.append(board.remove_marker(state, power, area, "unrest not suppressed"))
        for unit in sorted(board.units_of(state, where=area), key=lambda u: u["id"]):
            if unit["power"] in losers or not ctrl:
                events.append(cc.retreat_unit(state, data, unit, "unrest not suppressed"))
        events.append({"kind": "unrest", "area": area, "cleared": True,
                       "reason": "not suppressed: the revolt succeeded"})
    state["unrest"] = []
    return events


# -- 2. and 3. establishing ------------------------------------------------------------------
def establish_round_markers(state: dict) -> list[dict]:
    """Rules: Establishing a Status Marker During the Marker Adjustment Phase."""
    events = []
    for area in sorted(state.get("markers", {})):
        for power, marker in sorted(board.markers_in(state, area).items()):
            if marker["status"] in ("interest", "influence") and not marker.get("established"):
                events.append(cc.establish(state, power, area, "established"))
    return events


def drop_unestablished_control(state: dict, data) -> list[dict]:
    """Rules: MOVEMENT (Army Units) - a Control marker not established by now is removed and
    the Army Units retreat as after a lost Colonial Combat.  An upgrade needs no combat and
    is established instead.  Choice: no European Tensions, as the marker never stood."""
    events = []
    for area in sorted(state.get("markers", {})):
        for power, marker in sorted(board.markers_in(state, area).items()):
            if marker["status"] not in CONTROL or marker.get("established"):
                continue
            if not cc.needs_combat(state, area, power):
                events.append(cc.establish(state, power, area, "upgrade: no combat needed"))
                continue
            events.append(cc.fail_marker(state, power, area, "not established"))
            for unit in board.units_of(state, power, area):
                events.append(cc.retreat_unit(state, data, unit, "marker not established"))
    return events


# -- 5. conflicts ---------------------------------------------------------------------------
def resolve_conflicts(state: dict, data) -> list[dict]:
    """Rules: NEGOTIATION (2) - Influence cannot remain where a Control marker is established
    (Interest may stay beside a Protectorate); STATUS CHANGE - no Interest beside an
    established Possession, State or Dominion.  Each step lost raises European Tensions by 1
    (Rules: EUROPEAN TENSION INCREASES), blamed on the placer of the Control marker."""
    events: list[dict] = []
    for area in sorted(state.get("markers", {})):
        ctrl = board.controllers(state, area)
        if not ctrl:
            continue
        heavy = [p for p in ctrl if board.status_of(state, area, p) in POSSESSION_LIKE]
        for power, marker in sorted(board.markers_in(state, area).items()):
            status = marker["status"]
            if power in ctrl or status not in ("interest", "influence"):
                continue
            if heavy:
                new, blame = None, disputes.blame(state, area, heavy)
            elif status == "influence":
                new, blame = "interest", disputes.blame(state, area, ctrl)
            else:
                continue
            lost = downgrade(state, power, area, new, blame,
                             f"conflict with {blame}'s Control marker")
            # who displaced it: a Minor Power's Influence may be defended in Negotiation
            lost[0]["displaced_by"] = blame
            events += lost
    return events


def downgrade(state: dict, power: str, area: str, new: str | None, blame: str | None,
              reason: str, eti: bool = True) -> list[dict]:
    """Reduce (or with ``new`` None remove) a marker, raising European Tensions one point a
    step (Rules: EUROPEAN TENSION INCREASES)."""
    before = board.status_of(state, area, power)
    if new is None:
        events = [board.remove_marker(state, power, area, reason)]
    else:
        events = [board.set_marker(state, power, area, new, True, reason)]
    steps = summaries.eti_steps(before, new)
    if eti and steps:
        events.append(board.add_eti(state, steps, f"{power}'s {before} in {area}: {reason}",
                                    blame))
    return events


# -- 4. garrisons ---------------------------------------------------------------------------
def record_garrisons(state: dict) -> None:
    """Rules: STATUS CHANGE (Important Note) - "you must have at least one Army Unit in an
    Area that contains one of your Control markers - whether it is established or not - at
    the end of each Movement/Status Change Phase"; GARRISONS - "If, at the end of any Movement
    / Status Change Phase, a Controlled Area does not meet this requirement ...".

    Called when the Movement/Status Change Phase ends: every power's (Minor Powers too)
    Control markers with no Army Unit of that power beside them, for :func:`garrisons`."""
    bare: dict[str, list[str]] = {}
    for area, marks in sorted(state.get("markers", {}).items()):
        for power, mark in sorted(marks.items()):
            if mark["status"] in CONTROL and not board.army_strength(state, power, area):
                bare.setdefault(power, []).append(area)
    state["garrison_record"] = {"turn": state.get("turn"), "bare": bare}


def bare_at_movement_end(state: dict) -> set[tuple[str, str]] | None:
    """(power, area) pairs recorded bare when this turn's Movement Phase ended, or None when
    nothing was recorded.  Choice: with no record (the game was put at this phase by a GM
    edit), the units standing now are taken as those that stood when Movement ended."""
    record = state.pop("garrison_record", None)
    if not record or record.get("turn") != state.get("turn"):
        return None
    return {(p, a) for p, areas in record.get("bare", {}).items() for a in areas}


def garrisons(state: dict, data) -> list[dict]:
    """Rules: STATUS CHANGE (Important Note) - without an Army Unit at the end of the
    Movement/Status Change Phase "your Control marker is reduced, during the ensuing Marker
    Adjustment Phase, to an Influence marker"; so an army that retreats in later (after a
    Colonial Combat) saves nothing, and one there when Movement ended keeps the marker even if
    it is lost later in the turn.  Rules: CODOMINIONS - in a Codominion it is removed, not
    replaced by Influence (an Interest may stay where no Possession stands).  Choice (option
    garrison_eti, default on, as EUROPEAN TENSION INCREASES: "whenever markers are removed or
    downgraded, whether forcibly or via negotiation"): it raises European Tensions, blamed on
    the power itself."""
    events: list[dict] = []
    with_eti = bool(option(state, "garrison_eti", True))
    recorded = bare_at_movement_end(state)
    short: dict[str, dict[str, str]] = {}
    for area in sorted(state.get("markers", {})):
        ctrl = board.controllers(state, area)
        for power in ctrl:
            if recorded is None and board.army_strength(state, power, area) > 0:
                continue
            if recorded is not None and (power, area) not in recorded:
                continue
            short.setdefault(power, {})[area] = board.status_of(state, area, power)
            if len(ctrl) >= 2:
                others = [p for p in ctrl if p != power]
                heavy = any(board.status_of(state, area, p) in POSSESSION_LIKE for p in others)
                new = None if heavy else "interest"
            else:
                new = "influence"
            events += downgrade(state, power, area, new, power,
                                "no garrison when the Movement Phase ended", with_eti)
    for power, areas in sorted(short.items()):
        notice = garrison_order_notice(state, data, power, areas)
        if notice:
            events.append(notice)
    return events


def _value(state: dict, data, power: str, area: str, status: str | None = None) -> tuple:
    status = status or board.status_of(state, area, power)
    ev = data.areas[area].ev if area in data.areas else 0
    return TIER.get(status, 0), ev


def _special_garrison(state: dict, data, power: str, area: str) -> bool:
    """Rules: Special British Garrison Rule / Special Russian Garrison Rule - Army (10) Units
    bound near India or in the Western Garrison take precedence over the lowest-value order."""
    tens = [u for u in board.units_of(state, power, area, "army") if u["strength"] == 10]
    if not tens:
        return False
    regions = getattr(data, "regions", {}) or {}
    if power == "Britain":
        india = set(regions.get("india", ()))
        near = set(india)
        for _ in range(2):  # "within two Areas of India, by Overland Routes"
            near |= {n for a in near for n in mapgraph.land_neighbours(data, a)}
        return area in near
    if power == "Russia":
        return area in set(regions.get("western_garrison", ()))
    return False


def garrison_order_notice(state: dict, data, power: str, lost: dict[str, str]) -> dict | None:
    """Rules: GARRISONS - a power short of Army Units must leave its lowest-valued
    Protectorates ungarrisoned first, then Possessions, then States and Dominions.  The engine
    cannot move units for the player, so it tells the GM when a higher-valued Area was left
    bare while a lower-valued one kept its garrison (units bound by the special British and
    Russian rules excepted)."""
    lost_before = {a: _value(state, data, power, a, status) for a, status in lost.items()}
    kept = [a for a in board.areas_of(state, power, CONTROL)
            if board.is_established(state, a, power)
            and not _special_garrison(state, data, power, a)]
    worse = sorted(a for a in lost for k in kept if lost_before[a] > _value(state, data, power, k))
    if not worse:
        return None
    return {"kind": "gm_notice", "power": power, "areas": sorted(set(worse)),
            "text": f"{power} left {', '.join(sorted(set(worse)))} without a garrison while "
                    f"lower-valued Controlled Areas kept theirs (Rules: GARRISONS): GM ruling."}


# -- 6. stragglers -----------------------------------------------------------------------
def withdraw_stranded_units(state: dict, data) -> list[dict]:
    """Rules: MOVEMENT - Army and Naval Units may stay only in their own Home Country or in
    Areas holding their own established Control marker; any left elsewhere by this phase's
    changes retreat (Naval Units to the Home Area)."""
    events = []
    powers = set(state.get("powers", {}))
    for unit in sorted(state.get("units", []), key=lambda u: u["id"]):
        where, power = unit["where"], unit["power"]
        if power not in powers or where not in data.areas:
            continue
        if not board.has_control(state, power, where):
            events.append(cc.retreat_unit(state, data, unit, "no Control marker"))
    return events
