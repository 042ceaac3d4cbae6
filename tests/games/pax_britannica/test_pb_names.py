"""The names of Pax Britannica's powers: the one order the rules list them in, the names and
aliases players write for them, and the suggestion a misspelling gets (of the kind asked for).

Rules: PLAYING PIECES (the twelve sets, then the Chinese and Ottoman armies).
"""
from __future__ import annotations

import pytest

from games.pax_britannica.core import state as st


def test_the_rules_order_ranks_the_twelve_sets_then_china_then_the_ottomans_then_the_rest():
    ranks = [st.power_order(p) for p in (*st.POWERS, st.CHINA, st.OTTOMANS, "Abyssinia", "Zanzibar")]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks) - 1  # only the two Minor Power Areas tie
    assert st.power_order("Abyssinia") == st.power_order("Zanzibar")


def test_a_list_of_powers_is_put_in_the_rules_order_once_each_ties_by_name():
    found = st.by_rules_order(["Zanzibar", "Ottoman Empire", "Japan", "China", "Britain", "Japan", "Abyssinia"])
    assert found == ["Britain", "Japan", "China", "Ottoman Empire", "Abyssinia", "Zanzibar"]


@pytest.mark.parametrize("module", ["core.disputes", "war.model"])
def test_the_rules_order_is_written_once(module):
    import importlib

    loaded = importlib.import_module(f"games.pax_britannica.{module}")
    assert getattr(loaded, "power_order", st.power_order) is st.power_order
    assert getattr(loaded, "by_rules_order", st.by_rules_order) is st.by_rules_order
