"""next_deadline on the wall clock, across both DST changes in two zones."""
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.base.deadlines import add_wall, DeadlinePolicy, format_deadline, next_deadline, to_instant

UTC = timezone.utc
LONDON = ZoneInfo("Europe/London")
NEW_YORK = ZoneInfo("America/New_York")


def policy(zone="UTC", duration="72h", **more):
    return DeadlinePolicy.from_settings({"timezone": zone, "phase_duration": duration, **more})


def local(dt, zone):
    return dt.astimezone(zone).replace(tzinfo=None)


def at(zone, *wall):
    """An aware UTC instant for a (non-ambiguous, existing) wall time in zone."""
    return datetime(*wall, tzinfo=zone).astimezone(UTC)


# -- Europe/London: BST ends 25 Oct 2026 02:00, starts 29 Mar 2026 01:00 --

def test_london_autumn_72h_keeps_the_wall_time_and_lasts_73_hours():
    start = at(LONDON, 2026, 10, 23, 18, 0)          # Friday 18:00 BST
    deadline = next_deadline(policy("Europe/London"), start)
    assert local(deadline, LONDON) == datetime(2026, 10, 26, 18, 0)
    assert deadline == datetime(2026, 10, 26, 18, 0, tzinfo=UTC)
    assert deadline - start == timedelta(hours=73)


def test_london_spring_72h_keeps_the_wall_time_and_lasts_71_hours():
    start = at(LONDON, 2026, 3, 27, 18, 0)            # Friday 18:00 GMT
    deadline = next_deadline(policy("Europe/London"), start)
    assert local(deadline, LONDON) == datetime(2026, 3, 30, 18, 0)
    assert deadline - start == timedelta(hours=71)


def test_london_wall_time_in_the_spring_gap_moves_to_the_end_of_the_gap():
    start = at(LONDON, 2026, 3, 28, 1, 30)            # Saturday 01:30 GMT
    deadline = next_deadline(policy("Europe/London", "1d"), start)
    # Sunday 01:30 does not exist; the clocks jump from 01:00 GMT to 02:00 BST.
    assert deadline == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
    assert local(deadline, LONDON) == datetime(2026, 3, 29, 2, 0)


def test_london_ambiguous_wall_time_takes_the_first_occurrence():
    start = at(LONDON, 2026, 10, 24, 1, 30)           # Saturday 01:30 BST
    deadline = next_deadline(policy("Europe/London", "24h"), start)
    assert deadline == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)   # 01:30 BST, not GMT
    assert deadline.astimezone(LONDON).tzname() == "BST"


# -- America/New_York: DST starts 8 Mar 2026 02:00, ends 1 Nov 2026 02:00 --

def test_new_york_spring_gap_and_duration():
    start = at(NEW_YORK, 2026, 3, 7, 2, 30)           # Saturday 02:30 EST
    deadline = next_deadline(policy("America/New_York", "24h"), start)
    assert local(deadline, NEW_YORK) == datetime(2026, 3, 8, 3, 0)  # first valid instant
    assert deadline == datetime(2026, 3, 8, 7, 0, tzinfo=UTC)
    start = at(NEW_YORK, 2026, 3, 6, 12, 0)           # Friday noon EST
    deadline = next_deadline(policy("America/New_York"), start)
    assert local(deadline, NEW_YORK) == datetime(2026, 3, 9, 12, 0)
    assert deadline - start == timedelta(hours=71)


def test_new_york_autumn_ambiguous_and_duration():
    start = at(NEW_YORK, 2026, 10, 31, 1, 15)         # Saturday 01:15 EDT
    deadline = next_deadline(policy("America/New_York", "1d"), start)
    assert deadline == datetime(2026, 11, 1, 5, 15, tzinfo=UTC)     # 01:15 EDT, first
    start = at(NEW_YORK, 2026, 10, 30, 20, 0)         # Friday 20:00 EDT
    deadline = next_deadline(policy("America/New_York"), start)
    assert local(deadline, NEW_YORK) == datetime(2026, 11, 2, 20, 0)
    assert deadline - start == timedelta(hours=73)


def test_fixed_hour_is_the_first_such_wall_time_after_the_duration():
    p = policy("Europe/London", "48h", hour="18:00")
    start = at(LONDON, 2026, 1, 5, 9, 0)              # Monday 09:00
    assert local(next_deadline(p, start), LONDON) == datetime(2026, 1, 7, 18, 0)
    start = at(LONDON, 2026, 1, 5, 19, 0)             # Monday 19:00: 18:00 Wed is too early
    assert local(next_deadline(p, start), LONDON) == datetime(2026, 1, 8, 18, 0)
    start = at(LONDON, 2026, 1, 5, 18, 0)             # exactly on the hour
    assert local(next_deadline(p, start), LONDON) == datetime(2026, 1, 7, 18, 0)


def test_fixed_hour_in_the_spring_gap():
    p = policy("Europe/London", "12h", hour="01:30")
    start = at(LONDON, 2026, 3, 28, 12, 0)            # +12h = Sunday 00:00
    assert next_deadline(p, start) == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)


def test_deadline_moves_to_an_allowed_day_keeping_the_wall_time():
    p = policy("Europe/London", "72h", allowed_days=["mon", "tue", "wed", "thu", "fri"])
    start = at(LONDON, 2026, 1, 8, 18, 0)             # Thursday: +72h is Sunday
    assert local(next_deadline(p, start), LONDON) == datetime(2026, 1, 12, 18, 0)
    p = policy("Europe/London", "24h", allowed_days=["sun"], hour="20:00")
    start = at(LONDON, 2026, 3, 23, 12, 0)            # Monday; next Sunday is after BST starts
    deadline = next_deadline(p, start)
    assert local(deadline, LONDON) == datetime(2026, 3, 29, 20, 0)
    assert deadline == datetime(2026, 3, 29, 19, 0, tzinfo=UTC)


def test_extension_and_wall_addition_keep_the_wall_time():
    before = at(LONDON, 2026, 10, 24, 18, 0)
    assert local(add_wall(before, timedelta(days=1), LONDON), LONDON) == datetime(2026, 10, 25, 18, 0)
    assert to_instant(datetime(2026, 10, 25, 1, 30), LONDON).astimezone(LONDON).tzname() == "BST"


def test_format_deadline_names_the_zone_and_utc():
    dt = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)
    assert format_deadline(dt, "Europe/London") == "Mon 5 Jan 2026 18:00 GMT (18:00 UTC)"
    summer = datetime(2026, 7, 6, 17, 0, tzinfo=UTC)
    assert format_deadline(summer, LONDON) == "Mon 6 Jul 2026 18:00 BST (17:00 UTC)"
    assert format_deadline(dt, "UTC") == "Mon 5 Jan 2026 18:00 UTC"
    assert format_deadline(dt, "Australia/Sydney") == "Tue 6 Jan 2026 05:00 AEDT (Mon 5 Jan 18:00 UTC)"


ZONES = ["UTC", "Europe/London", "America/New_York", "Australia/Sydney", "Asia/Kolkata",
         "America/Santiago", "Pacific/Chatham"]
starts = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2060, 1, 1),
                      timezones=st.just(UTC))
durations = st.integers(min_value=1, max_value=14 * 24 * 60).map(lambda m: timedelta(minutes=m))
day_sets = st.sets(st.integers(0, 6), min_size=1)
hours = st.none() | st.times().map(lambda t: time(t.hour, t.minute))


@settings(max_examples=400, deadline=None)
@given(start=starts, zone=st.sampled_from(ZONES), duration=durations, days=day_sets,
       hour=hours)
def test_next_deadline_properties(start, zone, duration, days, hour):
    p = DeadlinePolicy(duration=duration, timezone=zone, allowed_days=frozenset(days), hour=hour)
    tz = ZoneInfo(zone)
    deadline = next_deadline(p, start)
    assert deadline.tzinfo is UTC
    wall = local(deadline, tz)
    # Never before start + duration on the wall clock, nor more than the
    # largest DST jump (1h in these zones) earlier in elapsed time.
    assert wall >= local(start, tz) + duration
    assert deadline >= start + duration - timedelta(hours=1)
    assert deadline > start
    assert wall.weekday() in days
    if hour is not None:
        # Exactly at the hour, unless that wall time does not exist that day.
        requested = datetime.combine(wall.date(), hour)
        assert wall == requested or local(to_instant(requested, tz), tz) != requested
    # Lands within a week and a day of the earliest possible moment.
    assert wall < local(start, tz) + duration + timedelta(days=8)


@settings(max_examples=200, deadline=None)
@given(start=starts, duration=durations, hour=hours, step=durations)
def test_next_deadline_is_monotonic_in_utc_on_every_day(start, duration, hour, step):
    # Only with every day allowed: moving to an allowed day keeps the wall
    # time, so a later start can land on an earlier hour of the same day.
    p = DeadlinePolicy(duration=duration, timezone="UTC", hour=hour)
    assert next_deadline(p, start + step) >= next_deadline(p, start)
    assert next_deadline(p, start) >= start + duration


def test_a_deadline_in_the_readers_own_zone_too():
    from pbem.base.deadlines import format_deadline

    dt = datetime(2026, 1, 5, 18, 0, tzinfo=timezone.utc)
    assert format_deadline(dt, "UTC", "America/New_York") == \
        "Mon 5 Jan 2026 18:00 UTC (13:00 your time, America/New_York)"
    assert format_deadline(dt, "Europe/London", "Asia/Tokyo") == \
        "Mon 5 Jan 2026 18:00 GMT (18:00 UTC; Tue 6 Jan 03:00 your time, Asia/Tokyo)"
    assert format_deadline(dt, "Europe/London", "Europe/London") == "Mon 5 Jan 2026 18:00 GMT (18:00 UTC)"
    assert format_deadline(dt, "Europe/Paris", "UTC") == "Mon 5 Jan 2026 19:00 CET (18:00 UTC)"


def test_moments_and_time_left_in_words():
    from pbem.base.deadlines import format_left, format_moment

    assert format_moment("2026-01-05T18:00:00+00:00", "Europe/Paris") == "Mon 5 Jan 2026 19:00 CET"
    assert format_moment(None) == ""
    assert [format_left(timedelta(minutes=m)) for m in (0, 5, 100, 659, 72 * 60 + 30, 5 * 24 * 60)] == \
        ["1m", "5m", "1h40m", "10h", "3d", "5d"]
