"""Every gain and loss of Influence told with its cause.

Rules that move Influence as a side effect (a refused Defensive Call to Arms, a Call to Arms
paid, Subjugate, Cut Ties, a peace term and the Influence it displaces) take a
:func:`snapshot` before and :func:`tell` after: one public ``influence`` event per realm and
Area whose Influence changed, as the board shows it.
"""
from __future__ import annotations


def snapshot(state: dict) -> dict[str, dict[str, int]]:
    return {area: dict(by_realm) for area, by_realm in state["influence"].items()}


def tell(state: dict, before: dict[str, dict[str, int]], reason: str, events: list) -> None:
    for area in sorted(set(before) | set(state["influence"])):
        was, now = before.get(area, {}), state["influence"].get(area, {})
        for realm in sorted(set(was) | set(now)):
            delta = now.get(realm, 0) - was.get(realm, 0)
            if delta:
                events.append({"kind": "influence", "realm": realm, "area": area, "delta": delta,
                               "reason": reason})
