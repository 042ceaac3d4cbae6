"""A GM edit, by mail, in both shipped games: it changes the game or is refused with the
reason, and every player whose position it changed is told what changed, in one mail for the
whole GM mail; a player whose position it did not change gets nothing."""
from __future__ import annotations

import pytest

from helpers_loop import GM_SECRET, Loop, secret_in

GM = "gm@example.test"
EU = {"Valmont": "val@example.test", "Corvia": "cor@example.test", "Ostmark": "ost@example.test"}
PAX = {"Britain": "bri@example.test", "France": "fra@example.test", "Germany": "ger@example.test",
       "Russia": "rus@example.test"}


def _start(loop: Loop, game: str, rules: str, seats: dict[str, str], option: str = "") -> None:
    lines = [f"SIGNON GM@{game} {GM_SECRET}", f"GM CREATE {game} RULES {rules}{option}"]
    lines += [f"GM ADD PLAYER {power} {address}" for power, address in seats.items()]
    assert loop.mail(GM, "\n".join(lines + ["GM START"]) + "\n") == "done"
    loop.flush()
    for address in seats.values():  # each seat got its secret
        assert any(secret_in(m.get_body(("plain",)).get_content()) for m in loop.about(address, "you play"))


def _gm(loop: Loop, game: str, *lines: str) -> tuple[str, dict[str, list[str]]]:
    """Send a GM mail; the GM's reply and the mails each address got from it."""
    before = len(loop.sender.sent)
    loop.mail(GM, f"SIGNON GM@{game} {GM_SECRET}\n" + "\n".join(lines) + "\n")
    loop.flush()
    got: dict[str, list[str]] = {}
    for to, msg in loop.sender.sent[before:]:
        for address in to:
            got.setdefault(address, []).append(msg.get_body(("plain",)).get_content())
    return "\n".join(got.get(GM, [])), got


@pytest.fixture
def eu(tmp_path):
    loop = Loop(tmp_path)
    _start(loop, "eu1", "eu_tpop", EU, " OPTION setup=sample")
    return loop


@pytest.fixture
def pax(tmp_path):
    loop = Loop(tmp_path)
    _start(loop, "pb1", "pax_britannica", PAX)
    return loop


def test_eu_a_changed_figure_is_told_to_its_player_alone(eu):
    reply, got = _gm(eu, "eu1", "GM SET DUCATS Valmont 21")
    assert "State edit applied" in reply and "Valmont is told: Ducats: 21 (was 15)" in reply
    assert len(got[EU["Valmont"]]) == 1
    assert "The GM changed Valmont's position:\n  - Ducats: 21 (was 15)" in got[EU["Valmont"]][0]
    assert EU["Corvia"] not in got and EU["Ostmark"] not in got


def test_eu_every_party_of_a_gm_mail_is_told_once_and_a_bystander_nothing(eu):
    _, got = _gm(eu, "eu1", "GM SET WAR Valmont VS Corvia", "GM SET PRESTIGE Corvia 4", "GM SET STABILITY Valmont 2")
    assert len(got[EU["Valmont"]]) == 1 and len(got[EU["Corvia"]]) == 1
    valmont, corvia = got[EU["Valmont"]][0], got[EU["Corvia"]][0]
    assert "at war with: Corvia (was no one)" in valmont and "stability: 2 (was 1)" in valmont
    assert "at war with: Valmont (was no one)" in corvia and "prestige: 4 (was" in corvia
    assert "prestige: 4" not in valmont and "stability: 2" not in corvia   # each reads its own position
    assert EU["Ostmark"] not in got


def test_eu_an_edit_that_would_do_nothing_is_refused_with_the_reason_and_told_to_no_one(eu):
    reply, got = _gm(eu, "eu1", "GM REMOVE UNITS Valmont Belcourt", "GM SET DUCATS Valmont 15",
                     "GM SET UNITS Valmont Belcourt INF 2")
    assert "[nothing-to-remove]" in reply and "units stand at areas, and Belcourt is a province of the area Valmont" \
        in reply
    assert "[no-change]" in reply and "SET DUCATS Valmont 15: this changes nothing" in reply
    assert "[units-at-areas]" in reply and "SET UNITS Valmont Valmont ..." in reply
    assert "State edit applied" not in reply
    assert not any(address in got for address in EU.values())


def test_eu_a_change_of_the_map_alone_is_no_ones_position(eu):
    reply, got = _gm(eu, "eu1", "GM MAP AREA Faraway")
    assert "State edit applied" in reply and "is told" not in reply
    assert not any(address in got for address in EU.values())


def test_pax_a_treasury_is_told_to_its_player_alone_and_austria_hungary_to_germany(pax):
    reply, got = _gm(pax, "pb1", "GM SET TREASURY Britain 33")
    assert "The GM changed Britain's position:\n  - Britain: treasury: £33 (was £" in got[PAX["Britain"]][0]
    assert not any(PAX[p] in got for p in ("France", "Germany", "Russia"))
    _, got = _gm(pax, "pb1", "GM SET TREASURY Austria-Hungary 7")
    assert "Austria-Hungary: treasury: £7" in got[PAX["Germany"]][0]
    assert not any(PAX[p] in got for p in ("Britain", "France", "Russia"))


def test_pax_units_of_two_powers_in_one_mail_one_notice_each(pax):
    _, got = _gm(pax, "pb1", "GM SET ARMY France 3 Algeria", "GM SET ARMY Russia 3 Afghanistan",
                 "GM SET TREASURY France 9")
    assert len(got[PAX["France"]]) == 1 and len(got[PAX["Russia"]]) == 1
    assert "France: armies at Algiers: strengths 10, 3 (was strength 10)" in got[PAX["France"]][0] and "treasury: £9" in got[PAX["France"]][0]
    assert "Russia: armies at Afghanistan: strength 3 (new)" in got[PAX["Russia"]][0]
    assert PAX["Britain"] not in got and PAX["Germany"] not in got


def test_eu_each_player_reads_the_secret_before_the_start_report(eu):
    """GM CREATE, ADD PLAYER and START in one mail: each player gets one mail, the secret first
    (pbem.outbound.batch ranks a welcome right after a reply), in the text and in the HTML."""
    for address in EU.values():
        mails = eu.inbox(address)
        assert len(mails) == 1
        text = mails[0].get_body(("plain",)).get_content()
        assert text.index("Your secret is:") < text.index("has started.")
        html = mails[0].get_body(("html",))
        if html is not None:
            body = html.get_content()
            assert body.index("Your secret is:") < body.index("has started.")


def test_pax_a_spending_cap_or_forced_expenditure_the_gm_sets_is_told_to_its_player(pax):
    _, got = _gm(pax, "pb1", "GM SET SPENDCAP France 5", "GM SET FORCED Russia 12")
    assert "France: most it may spend on units this turn: £5 (was no limit)" in got[PAX["France"]][0]
    assert "Russia: least it must spend on units this turn: £12 (was £0)" in got[PAX["Russia"]][0]
    assert PAX["Britain"] not in got and PAX["Germany"] not in got
