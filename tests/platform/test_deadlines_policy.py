"""Durations, the stored policy, warnings, due checks, extensions and pauses."""
from datetime import datetime, time, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.base.deadlines import DeadlineError, DeadlinePolicy, extend, is_due, pause_allowed, warnings_due
from pbem.base.time_values import format_duration, parse_duration

UTC = timezone.utc
H = timedelta(hours=1)
DEADLINE = datetime(2026, 1, 10, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize("text, expected", [
    ("48h", timedelta(hours=48)), ("2d", timedelta(days=2)), ("1d12h", timedelta(hours=36)),
    ("90m", timedelta(minutes=90)), ("1w", timedelta(days=7)), ("0h", timedelta(0)),
    ("0", timedelta(0)), (" 1D 6H ", timedelta(hours=30)), ("45s", timedelta(seconds=45)),
])
def test_parse_duration(text, expected):
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "48", "h", "-2h", "2 days", "1.5h", "2x", "h48"])
def test_parse_duration_rejects_with_an_example(text):
    with pytest.raises(ValueError, match=r'not a duration: ".*" \(use .*"48h"'):
        parse_duration(text)


def test_parse_duration_rejects_non_strings():
    with pytest.raises(ValueError, match="not a duration"):
        parse_duration(48)


@pytest.mark.parametrize("td, text", [
    (timedelta(hours=48), "48h"), (timedelta(hours=12), "12h"), (timedelta(hours=72), "3d"),
    (timedelta(days=7), "7d"), (timedelta(hours=84), "3d12h"), (timedelta(minutes=90), "1h30m"),
    (timedelta(0), "0h"), (timedelta(seconds=45), "45s"),
])
def test_format_duration(td, text):
    assert format_duration(td) == text


@given(st.integers(min_value=0, max_value=10**8).map(lambda s: timedelta(seconds=s)))
def test_format_duration_round_trips(td):
    assert parse_duration(format_duration(td)) == td


def test_policy_from_settings_defaults_and_values():
    assert DeadlinePolicy.from_settings({}) == DeadlinePolicy()
    p = DeadlinePolicy.from_settings({
        "timezone": "Europe/Paris", "phase_duration": "2d", "allowed_days": ["mon", "Friday"],
        "hour": "18:30", "warnings": ["12h", "48h"], "grace": "1h", "process_early": False,
        "max_extensions": 1, "max_extension_total": "1d", "max_pauses": 0,
        "missed_before_replacement": 2})
    assert p.duration == timedelta(days=2) and p.timezone == "Europe/Paris"
    assert p.allowed_days == frozenset({0, 4}) and p.hour == time(18, 30)
    assert p.warnings == (timedelta(hours=48), timedelta(hours=12))
    assert (p.grace, p.process_early, p.max_extensions) == (H, False, 1)
    assert (p.max_extension_total, p.max_pauses, p.missed_before_replacement) == \
        (timedelta(days=1), 0, 2)


@pytest.mark.parametrize("settings, message", [
    ({"timezone": "Mars/Olympus"}, 'timezone: unknown time zone "Mars/Olympus"'),
    ({"phase_duration": "0h"}, "phase_duration: must be longer than zero"),
    ({"phase_duration": "soon"}, 'phase_duration: not a duration: "soon"'),
    ({"allowed_days": ["mon", "funday"]}, 'allowed_days: not a day: "funday"'),
    ({"allowed_days": []}, "allowed_days: allowed days must name at least one day"),
    ({"hour": "25:00"}, 'hour: not a time of day: "25:00"'),
    ({"warnings": ["12"]}, 'warnings: not a duration: "12"'),
    ({"max_pauses": -1}, "max_pauses: expected a whole number >= 0"),
    ({"process_early": "yes"}, "process_early: expected true or false"),
])
def test_policy_from_settings_names_the_bad_key(settings, message):
    with pytest.raises(ValueError) as info:
        DeadlinePolicy.from_settings(settings)
    assert str(info.value).startswith(message)


def test_policy_json_round_trip():
    p = DeadlinePolicy.from_settings({"timezone": "America/New_York", "hour": "09:05",
                                      "allowed_days": ["sat", "sun"], "warnings": ["1d12h"]})
    text = p.to_json()
    assert DeadlinePolicy.from_json(text) == p
    assert '"hour": "09:05"' in text and '"warnings": ["36h"]' in text
    assert DeadlinePolicy.from_json(DeadlinePolicy().to_settings()) == DeadlinePolicy()


def test_warnings_due_in_order_once_and_not_after_the_deadline():
    p = DeadlinePolicy()
    assert warnings_due(p, DEADLINE, DEADLINE - 49 * H, set()) == []
    assert warnings_due(p, DEADLINE, DEADLINE - 48 * H, set()) == ["48h"]
    assert warnings_due(p, DEADLINE, DEADLINE - 13 * H, {"48h"}) == []
    assert warnings_due(p, DEADLINE, DEADLINE - 11 * H, {"48h"}) == ["12h"]
    assert warnings_due(p, DEADLINE, DEADLINE - 11 * H, set()) == ["48h", "12h"]
    assert warnings_due(p, DEADLINE, DEADLINE - 11 * H, {"48h", "12h"}) == []
    assert warnings_due(p, DEADLINE, DEADLINE, set()) == []


def test_is_due():
    before, after_grace = DEADLINE - H, DEADLINE + 2 * H
    kw = dict(grace=H, all_orders_in=False, process_early=True, paused=False)
    assert not is_due(DEADLINE, before, **kw)
    assert not is_due(DEADLINE, DEADLINE, **kw)          # still inside the grace
    assert is_due(DEADLINE, DEADLINE + H, **kw)
    assert is_due(DEADLINE, before, **{**kw, "all_orders_in": True})
    assert not is_due(DEADLINE, before, **{**kw, "all_orders_in": True, "process_early": False})
    assert is_due(DEADLINE, DEADLINE, **{**kw, "all_orders_in": True, "process_early": False})
    assert not is_due(DEADLINE, after_grace, **{**kw, "paused": True})
    assert not is_due(DEADLINE, before, **{**kw, "all_orders_in": True, "paused": True})


def test_is_due_requires_aware_times():
    with pytest.raises(ValueError, match="timezone-aware"):
        is_due(DEADLINE, datetime(2026, 1, 1), grace=H, all_orders_in=False,
               process_early=True, paused=False)


def test_extend_within_the_caps():
    p = DeadlinePolicy.from_settings({"max_extensions": 2, "max_extension_total": "3d"})
    assert extend(DEADLINE, timedelta(days=1), p, []) == DEADLINE + timedelta(days=1)
    assert extend(DEADLINE, timedelta(days=2), p, [timedelta(days=1)]) == \
        DEADLINE + timedelta(days=2)


def test_extend_keeps_the_local_wall_time_across_dst():
    p = DeadlinePolicy.from_settings({"timezone": "Europe/London"})
    friday = datetime(2026, 10, 23, 17, 0, tzinfo=UTC)   # 18:00 BST
    assert extend(friday, timedelta(days=3), p, []) == datetime(2026, 10, 26, 18, 0, tzinfo=UTC)


def test_extend_refuses_over_the_caps():
    p = DeadlinePolicy.from_settings({"max_extensions": 2, "max_extension_total": "3d"})
    with pytest.raises(DeadlineError, match="no extension left: 2 of 2 already granted"):
        extend(DEADLINE, H, p, [H, H])
    with pytest.raises(DeadlineError, match=r"total to 4d, over the cap of 3d \(48h left\)"):
        extend(DEADLINE, timedelta(days=3), p, [timedelta(days=1)])
    with pytest.raises(DeadlineError, match="longer than zero"):
        extend(DEADLINE, timedelta(0), p, [])
    with pytest.raises(DeadlineError):
        extend(DEADLINE, H, DeadlinePolicy.from_settings({"max_extensions": 0}), [])


def test_pause_allowed():
    p = DeadlinePolicy.from_settings({"max_pauses": 2})
    assert pause_allowed(p, 0) and pause_allowed(p, 1)
    assert not pause_allowed(p, 2)
    assert pause_allowed(p, ["first"]) and not pause_allowed(p, ["first", "second"])
    assert not pause_allowed(DeadlinePolicy.from_settings({"max_pauses": 0}), 0)
