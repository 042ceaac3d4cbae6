"""Military and Naval Capacity (9.2) and what counts once per turn."""
from __future__ import annotations

from . import state as st


def _hostile_units_in(state: dict, realm: str, area: str) -> bool:
    return any(st.hostile(state, realm, r) for r in st.realms_with_land(state, area))


def mc_provinces(state: dict, realm: str, area: str, *, used: list[str] | None = None) -> list[str]:
    """The provinces giving ``realm`` Military Capacity in ``area`` (9.2 MC):
    its own and its vassals' provinces in and adjacent to the area, and ports
    facing the area's non-hostile sea zones.  Occupied provinces never count;
    provinces in an area holding hostile units count only for their own area
    (Blocking MC); a province already used this turn does not count again."""
    seas = set(state["areas"][area]["seas"])
    open_seas = {s for s in seas if not st.sea_hostile(state, realm, s)}
    neighbours = set(st.land_neighbours(state, area))
    out = []
    for r in st.family(state, realm):
        for p in st.owned(state, r):
            d = state["provinces"][p]
            if used and p in used:
                continue
            if d["area"] == area:
                out.append(p)
                continue
            if _hostile_units_in(state, realm, d["area"]):
                continue
            if d["area"] in neighbours or (d.get("port") in open_seas):
                out.append(p)
    return sorted(out)


def mc(state: dict, realm: str, area: str, *, used: list[str] | None = None, npr_defence: bool = False) -> int:
    total = 0
    for p in mc_provinces(state, realm, area, used=used):
        d = state["provinces"][p]
        # 13.4 (NOTES 3.7): distant provinces count double for an NPR's defence.
        double = npr_defence and state["areas"][d["area"]].get("distant")
        total += d["tax"] * (2 if double else 1)
    return total


def nc_provinces(state: dict, realm: str, sea: str, *, used: list[str] | None = None) -> list[str]:
    """Ports the realm owns facing ``sea`` (9.2 NC): vassal ports do not count
    (11.4), nor occupied ones, nor an NPR's inactive ports."""
    out = []
    for p in st.owned(state, realm):
        d = state["provinces"][p]
        if d.get("port") != sea or (used and p in used):
            continue
        if d.get("inactive") and st.kind(state, realm) == "NPR":
            continue
        out.append(p)
    return sorted(out)


def port_nc(province: dict) -> int:
    """A port's Naval Capacity (9.2 NC): 2 for a large port, else 1."""
    return 2 if province.get("large") else 1


def nc(state: dict, realm: str, sea: str, *, used: list[str] | None = None, npr_defence: bool = False) -> int:
    total = 0
    for p in nc_provinces(state, realm, sea, used=used):
        d = state["provinces"][p]
        total += port_nc(d) * (2 if npr_defence and state["areas"][d["area"]].get("distant") else 1)
    return total


def take_mc(state: dict, realm: str, area: str, need: int, used_key: str = "used_mc") -> list[str]:
    """Mark provinces used for ``need`` capacity in ``area`` (9.2 'MC/NC only
    counts once per Turn'); the largest provinces in the area itself go first."""
    used = state[used_key].setdefault(realm, [])
    provs = mc_provinces(state, realm, area, used=used)
    provs.sort(key=lambda p: (state["provinces"][p]["area"] != area, -state["provinces"][p]["tax"], p))
    taken, got = [], 0
    for p in provs:
        if got >= need:
            break
        taken.append(p)
        got += state["provinces"][p]["tax"]
    used.extend(taken)
    return taken


def take_nc(state: dict, realm: str, sea: str, need: int) -> list[str]:
    used = state["used_nc"].setdefault(realm, [])
    taken, got = [], 0
    for p in nc_provinces(state, realm, sea, used=used):
        if got >= need:
            break
        taken.append(p)
        got += port_nc(state["provinces"][p])
    used.extend(taken)
    return taken
