"""Combat odds (Rules: COLONIAL COMBAT RESOLUTION) and the Colonial Combat helpers."""
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.pax_britannica import combat_table as ct

strength = st.integers(min_value=1, max_value=400)


def value(column: str) -> Fraction:
    a, b = ct.column_value(column)
    return Fraction(a, b)


def test_columns_are_in_rising_order():
    values = [value(c) for c in ct.COLUMNS]
    assert values == sorted(values) and len(set(values)) == len(values)


@pytest.mark.parametrize("attack, defense, column", [
    (13, 5, "2:1"),    # Rules: COLONIAL COMBAT RESOLUTION, the Manchuria example
    (15, 5, "3:1"),    # ... "would need two more Army (1) Units" for 3-to-1
    (7, 5, "1:1"),     # Rules: COMBAT DURING A WAR, Japan 7 against Russia 5
    (8, 5, "3:2"),     # ... with the British Army (1) joining
    (1, 10, "1:10"), (1, 11, "1:10"), (1, 100, "1:10"),
    (1, 3, "1:3"), (1, 2, "1:2"), (2, 3, "2:3"), (3, 3, "1:1"), (3, 2, "3:2"),
    (2, 1, "2:1"), (3, 1, "3:1"), (10, 1, "10:1"), (99, 1, "10:1"), (9, 1, "3:1"),
    (4, 5, "2:3"), (5, 4, "1:1"), (29, 10, "2:1"), (30, 10, "3:1"),
])
def test_worked_ratios(attack, defense, column):
    assert ct.ratio(attack, defense) == column


@given(strength, strength)
def test_rounding_never_favours_the_attacker(attack, defense):
    column = ct.ratio(attack, defense)
    true = Fraction(attack, defense)
    index = ct.COLUMNS.index(column)
    if true >= value(ct.COLUMNS[0]):
        assert value(column) <= true
    else:  # Choice: clamped to the worst column
        assert column == ct.COLUMNS[0]
    # and it is the best column that does not exceed the true ratio
    if index + 1 < len(ct.COLUMNS):
        assert value(ct.COLUMNS[index + 1]) > true


@given(strength, strength)
def test_table_depends_on_the_smaller_force(attack, defense):
    expected = 1 if min(attack, defense) < 5 else 2
    assert ct.table_for(attack, defense) == expected


@given(strength, strength, st.integers(min_value=1, max_value=6))
def test_lookup_reads_the_cell_of_the_odds(attack, defense, die):
    def code(t, c, d):
        return ct.RESULTS[(t * 7 + ct.COLUMNS.index(c) * 3 + d) % 6]
    crt = {t: {c: tuple(code(t, c, d) for d in range(1, 7)) for c in ct.COLUMNS}
           for t in (1, 2)}
    column, table = ct.odds(attack, defense)
    assert ct.lookup(crt, table, column, die) == code(table, column, die)


def test_lookup_normalises_printed_codes():
    crt = {1: {"1:1": ("AE", "AR", "EX", "½EX", "DR", "DE")}}
    assert [ct.lookup(crt, 1, "1:1", d) for d in range(1, 7)] == list(ct.RESULTS)


@pytest.mark.parametrize("attack, defense", [(0, 5), (5, 0), (-1, 3)])
def test_no_odds_without_two_forces(attack, defense):
    with pytest.raises(ValueError):
        ct.ratio(attack, defense)


def test_bad_die_and_bad_code_are_refused():
    crt = {1: {"1:1": ("AE", "AR", "EX", "½EX", "DR", "XX")}}
    with pytest.raises(ValueError):
        ct.lookup(crt, 1, "1:1", 7)
    with pytest.raises(ValueError):
        ct.lookup(crt, 1, "1:1", 6)
