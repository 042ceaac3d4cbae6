"""Fewer mails, nothing lost: a war's sub-phases mail the powers that have a part in them;
a power with none gets no report until a phase asks something of it, and that report
covers every phase held for it (a digest)."""
from pax_table import GM, PaxTable, address
from pbem.storage import store

SCENE = ("GM SET MARKER Britain possession Egypt", "GM SET ARMY Britain 10 Egypt",
         "GM SET MARKER France possession Algiers", "GM SET ARMY France 3 Algiers",
         "GM SET CB Britain France AREA Egypt")


def reports(pax, power_or_address):
    return [m for m in pax.loop.inbox(power_or_address if "@" in power_or_address else address(power_or_address))
            if "report" in m["Subject"]]


def test_a_war_mails_its_parties_and_the_others_read_it_in_their_next_report(tmp_path, monkeypatch):
    pax = PaxTable(tmp_path, monkeypatch, options=" OPTION setup=empty")
    pax.gm(*SCENE)
    game = lambda: store.get_game(pax.ctx, "pax")  # noqa: E731
    for _ in range(3):  # Movement and Negotiation pass with nothing done
        if game().state["phase"].startswith("war"):
            break
        for p in ("Britain", "France", "Germany", "United-States"):
            pax.say(p, "DONE")
        pax.loop.tick()
        pax.loop.flush()
    assert game().state["phase"].startswith("war")
    before = {p: len(reports(pax, p)) for p in ("Britain", "France", "Germany", "United-States", GM)}
    pax.say("Britain", "ORDERS", "DECLARE WAR ON France", "ENDORDERS", "DONE")
    pax.loop.tick()
    pax.loop.flush()
    phases = 0
    while game().state["phase"].startswith("war") and phases < 30:  # every window of the war, answered DONE
        phase = game().rules.phase(game().state)
        assert set(phase.owes) <= {"Britain", "France"}, phase
        for p in phase.owes:
            pax.say(p, "DONE")
        pax.loop.tick()
        pax.loop.flush()
        phases += 1
    assert not game().state["phase"].startswith("war")
    during = {p: len(reports(pax, p)) - n for p, n in before.items()}
    # The parties are told of each step of their war; the GM of every phase; nobody else yet.
    assert during["Britain"] >= 3 and during["France"] >= 3 and during[GM] >= during["Britain"]
    # The next phase asks every power for orders: each uninvolved power now gets one report,
    # which covers the war from its declaration.
    assert during["Germany"] == during["United-States"] == 1, during
    digest = pax.text(reports(pax, "Germany")[-1])
    assert "Britain declares War on France" in " ".join(digest.split())
    told = store.player(pax.ctx, "pax", "Germany")["told_seq"]
    assert told == game().row["seq"]
