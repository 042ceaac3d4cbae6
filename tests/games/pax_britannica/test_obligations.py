"""What a power must do this phase, before it writes its orders (the game's ``obligations``):
a report opens with them, STATUS and the reply to orders show them, and the checks of the
orders read the very same facts (phases/obligations.py).  Rules: Forced Expenditures and
Tension Increases; HEADLINE EVENTS (Liberal Victory in Britain); INCOME RECORD."""
from __future__ import annotations

from pax_table import GM, PaxTable, address

from games.pax_britannica import GAME
from games.pax_britannica.phases import obligations as duties
from pbem.kit import audience
from pbem.kit.dice import SeededDice
from pbem.storage import store

#: a seed whose 1880 Random Events Phase rolls Liberal Victory in Britain (1-3) and Pan-Slav
#: Agitation in Russia (2-6): the dice follow from the seed and the phase alone
SEED = "pax-oblig-19"
POWERS = ("Britain", "France", "Germany", "Russia")


def _movement(seed: str = SEED) -> dict:
    """The 1880 Movement/Status Change Phase as the moderator reaches it (same seed, same dice)."""
    state = GAME.setup(list(POWERS), {}, SeededDice(seed=seed, context="pax:setup"))
    while GAME.phase(state).name != "movement":
        state, _ = GAME.resolve(state, {}, SeededDice(seed=seed, context=f"pax:{GAME.phase(state).key}"))
    return state


def _warnings(state, power, *lines):
    parsed = GAME.parse_orders(state, power, list(enumerate(lines, 1)))
    return [p for p in GAME.validate(state, power, parsed.orders) + parsed.problems]


def test_the_random_events_obligations_name_their_event_its_dice_and_their_rule():
    state = _movement()
    russia = GAME.obligations(state, "Russia")
    forced = [o for o in russia if o.kind == "must"]
    assert len(forced) == 1
    assert forced[0].text.startswith("Pan-Slav Agitation in Russia: spend at least £30 building units")
    assert forced[0].dice == (2, 6) and forced[0].rule == duties.FORCED_RULE
    assert forced[0].audience == audience.powers("Russia")
    britain = GAME.obligations(state, "Britain")
    cap = [o for o in britain if o.kind == "limit"]
    assert [o.text for o in cap] == ["Liberal Victory in Britain: spend no more than £10 building units this turn"]
    assert cap[0].dice == (1, 3)
    # The Colonial Office income with its die, as a number (Rules: INCOME RECORD).
    office = [o for o in britain if o.text.startswith("Colonial Office income £")]
    assert len(office) == 1 and len(office[0].dice) == 1 and 1 <= office[0].dice[0] <= 6
    assert "halved" in " ".join(o.text for o in britain)
    # Nobody else's: France has only its own income.
    assert all("Pan-Slav" not in o.text and "Liberal" not in o.text for o in GAME.obligations(state, "France"))
    # Only the Movement Phase, whose orders meet them, lists them.
    assert GAME.obligations(dict(state, phase="colonial_combat"), "Russia") == []


def test_the_report_and_the_checks_of_the_orders_read_the_same_forced_expenditure(monkeypatch):
    state = _movement()
    said = lambda: [o.text for o in GAME.obligations(state, "Russia") if o.kind == "must"][0]  # noqa: E731
    warned = lambda: [p.message for p in _warnings(state, "Russia", "BUILD ARMY 1")  # noqa: E731
                      if p.code == "forced-expenditure"][0]
    assert "£30" in said() and "at least 30 " in warned()
    # Change the one fact both read: the report and the reply change together.
    monkeypatch.setattr(duties, "forced_due", lambda state, power: 17)
    assert "at least £17 " in said() and "at least 17 " in warned()


def test_the_report_and_the_checks_of_the_orders_read_the_same_spending_cap(monkeypatch):
    state = _movement()
    capped = lambda: [o.text for o in GAME.obligations(state, "Britain") if o.kind == "limit"][0]  # noqa: E731
    refused = lambda *lines: {p.code for p in _warnings(state, "Britain", *lines)}  # noqa: E731
    assert "£10" in capped() and "spend-cap" in refused("BUILD ARMY 10") and "spend-cap" not in refused("BUILD ARMY 3")
    monkeypatch.setattr(duties, "spend_cap", lambda state, power: 2)
    assert "no more than £2 " in capped() and "spend-cap" in refused("BUILD ARMY 3")


def test_a_spending_cap_names_its_cause_the_event_or_the_gm():
    state = _movement()
    said = lambda s, power: [p.message for p in _warnings(s, power, "BUILD ARMY 10")  # noqa: E731
                             if p.code == "spend-cap"]
    assert said(state, "Britain") == ["Britain may spend no more than 10 on units this turn "
                                      "(Liberal Victory in Britain)"]
    state, _ = GAME.gm_command(state, "SET SPENDCAP France 5", None)
    assert said(state, "France") == ["France may spend no more than 5 on units this turn (a cap the GM set)"]
    assert [o.text for o in GAME.obligations(state, "France") if o.kind == "limit"] == [
        "Set by the GM: spend no more than £5 building units this turn"]


def _reports(pax, power):
    return [m for m in pax.loop.inbox(address(power) if "@" not in power else power) if "report" in m["Subject"]]


def test_russias_report_opens_with_the_pan_slav_obligation_and_its_dice_before_its_orders(tmp_path, monkeypatch):
    pax = PaxTable(tmp_path, monkeypatch, seed=SEED, powers=POWERS)
    assert store.get_game(pax.ctx, "pax").state["phase"] == "movement"
    report = _reports(pax, "Russia")[-1]
    text = pax.text(report)
    flat = " ".join(text.split())
    head = text.index("What you must do this phase")
    assert head < text.index("Resolved:") < text.index("Your orders are due")
    assert "Pan-Slav Agitation in Russia: spend at least £30 building units this turn" in flat
    assert "(dice 2 and 6) [rules: Forced Expenditures and Tension Increases]" in flat
    assert flat.index("Pan-Slav Agitation in Russia: spend") < flat.index("Random event")
    html = pax.html(report)
    assert html.index("What you must do this phase") < html.index("Resolved:")
    assert "Pan-Slav Agitation in Russia: spend at least £30 building units this turn" in html
    # Britain reads its own spending cap; the other powers read neither (their accounts are secret).
    britain = " ".join(pax.text(_reports(pax, "Britain")[-1]).split())
    assert "Liberal Victory in Britain: spend no more than £10 building units this turn (dice 1 and 3)" in britain
    assert "spend at least £30" not in britain
    for other in ("France", "Germany"):
        told = " ".join(pax.text(_reports(pax, other)[-1]).split())
        assert "spend at least £30" not in told and "spend no more than £10" not in told
    # The GM's report lists every power's, each led by its power.
    gm = " ".join(pax.text(_reports(pax, GM)[-1]).split())
    assert "Russia: Pan-Slav Agitation in Russia: spend at least £30" in gm and "Britain: Liberal Victory" in gm
    # STATUS says it again, and the reply to orders shows it above the warning that enforces it.
    status = " ".join(pax.say("Russia", "STATUS").split())
    assert "What you must do this phase" in status and "spend at least £30 building units" in status
    reply = " ".join(pax.say("Russia", "ORDERS", "BUILD ARMY 1", "ENDORDERS").split())
    assert reply.index("spend at least £30 building units") < reply.index("[forced-expenditure]")
    assert "Russia must spend at least 30 on units this turn (Pan-Slav Agitation in Russia)" in reply
