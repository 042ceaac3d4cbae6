"""Mail that is right and quiet, a GM who is not misled, treaties private by
default (issue 7, problems 6 to 8), on a Pax Britannica game by mail."""
import re
from datetime import timedelta

import pytest

from pax_table import GM, POWERS, PaxTable
from pbem.outbound import batch
from pbem.storage import store


@pytest.fixture
def pax(tmp_path, monkeypatch):
    return PaxTable(tmp_path, monkeypatch)


def count_new(pax, before: dict[str, int]) -> dict[str, int]:
    return {p: len(pax.mails(p)) - before[p] for p in POWERS}


# -- 6: noisy or wrong mail ----------------------------------------------------------

def test_one_gm_mail_makes_one_mail_per_player(pax):
    before = {p: len(pax.mails(p)) for p in POWERS}
    pax.gm("GM PAUSE", "GM RESUME", "GM EXTEND 24h", "GM ANNOUNCE", "Play nicely.", "ENDANNOUNCE")
    assert count_new(pax, before) == {p: 1 for p in POWERS}
    text = pax.text(pax.mails("France")[-1])
    assert "paused the game" in text and "extended the deadline by 24h" in text and "Play nicely." in text
    assert text.count("Deadline:") == 1
    pax.loop.tick()
    pax.loop.flush()
    assert count_new(pax, before) == {p: 1 for p in POWERS}  # no reminder on top


def test_a_reminder_says_the_time_really_left(pax):
    now = pax.loop.clock.now()
    soon = now + timedelta(minutes=5)
    pax.gm(f"GM SET DEADLINE {soon:%Y-%m-%d %H:%M} UTC")
    pax.loop.tick()
    pax.loop.flush()
    reminders = [m["Subject"] for p in POWERS for m in pax.mails(p, "reminder")]
    assert not any("12h left" in s or "48h left" in s for s in reminders), reminders
    pax.gm("GM EXTEND 10h")  # 10h05m left: the 12h reminder is due, and says so truly
    pax.loop.clock.advance(minutes=30)
    pax.loop.tick()
    pax.loop.flush()
    assert not [m for p in POWERS for m in pax.mails(p, "reminder")]  # the GM's announcement told them
    pax.gm("GM EXTEND 3d")
    pax.loop.clock.advance(hours=73)
    pax.loop.tick()
    pax.loop.flush()
    subjects = [m["Subject"] for m in pax.mails("France", "reminder")]
    assert subjects and all(re.search(r"reminder, \d+h left", s) for s in subjects), subjects
    left = int(re.search(r"reminder, (\d+)h left", subjects[-1]).group(1))
    deadline = store.get_game(pax.ctx, "pax").deadline
    assert left == int((deadline - pax.loop.clock.now()).total_seconds() // 3600)


def test_treaty_records_and_history_say_dates_and_statuses_in_words(pax):
    pax.say("France", "TREATY PROPOSE entente WITH Britain", "Friends in Africa.", "ENDTREATY")
    pax.say("Britain", "TREATY SIGN entente")
    record = pax.text(pax.mails("France", "treaty entente")[-1])
    assert "Status:     in force" in record and "in_force" not in record
    assert "signed Mon 5 Jan 2026 12:00 UTC" in record
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", record)
    assert pax.mails("France", "treaty entente: in force")
    pax.all_order()
    history = pax.say("France", "HISTORY")
    assert "1880 Movement/Status Change [1880/movement] (resolved Mon 5 Jan 2026 12:00 UTC)" in history
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", history)


# -- 7: the GM is not misled ------------------------------------------------------------

def test_rollback_takes_the_label_history_prints_and_mails_the_restored_position(pax):
    pax.all_order()
    before = {p: len(pax.mails(p)) for p in POWERS}
    reply = pax.gm("GM ROLLBACK 1880 Movement/Status Change")
    assert "Rolled back:" in reply and "[bad-rollback]" not in reply
    assert count_new(pax, before) == {p: 1 for p in POWERS}
    mail = pax.mails("France")[-1]
    text = pax.text(mail)
    assert "rolled the game back to the start of 1880 Movement/Status Change" in text
    assert "What you may do now" in text and "Your orders are due" in text and "== France ==" in text
    assert "Treasury" in pax.html(mail)


def test_a_rollback_to_no_resolved_phase_lists_the_phases(pax):
    pax.all_order()
    reply = pax.gm("GM ROLLBACK 1884 Movement/Status Change")
    assert "[bad-rollback]" in reply and "Resolved phases (label [id], the latest last):" in reply
    assert "  1880 Movement/Status Change [1880/movement]" in reply
    reply = pax.gm("GM ROLLBACK 1880")
    assert "[bad-rollback] '1880' names" in reply and "name one by its label or its id" in reply
    assert "Resolved phases it names" in reply and "  1880 Random Events [1880/random_events]" in reply


def test_a_paused_game_says_so_in_replies_and_status(pax):
    pax.gm("GM PAUSE")
    for p in ("Britain", "France", "Germany"):
        reply = pax.say(p, "ORDERS", "BUILD ARMY 1", "ENDORDERS")
    assert "THE GAME IS PAUSED" in reply and "Still waiting for orders from: United States" in reply
    assert "Every power" not in reply
    status = pax.say("United-States", "STATUS")
    assert "is paused" in status and "no phase runs until the GM resumes it" in status
    pax.say("United-States", "ORDERS", "BUILD ARMY 1", "ENDORDERS")
    reply = pax.say("France", "STATUS")
    assert "the phase runs once the GM resumes the game" in reply


def test_pbem_game_status_says_paused_and_who_is_missing(pax, capsys, monkeypatch):
    from pbem.host import cli_game

    pax.gm("GM PAUSE")
    pax.say("France", "ORDERS", "BUILD ARMY 1", "ENDORDERS")
    monkeypatch.setattr(cli_game, "open_ctx", lambda args: (pax.ctx, None))
    cli_game.cmd_game_status(type("Args", (), {"name": "pax"})())
    out = capsys.readouterr().out
    assert "PAUSED" in out and "waiting for: Britain, Germany, United States" in out


def test_resume_keeps_the_time_left_and_does_not_run_a_finished_phase_at_once(pax):
    deadline = store.get_game(pax.ctx, "pax").deadline
    pax.gm("GM PAUSE")
    pax.loop.clock.advance(hours=10)
    for p in POWERS:
        pax.say(p, "ORDERS", "BUILD ARMY 1", "ENDORDERS")
    reply = pax.gm("GM RESUME")
    assert "the phase runs at the deadline" in reply and "GM RESUME NOW" in reply
    assert store.get_game(pax.ctx, "pax").deadline == deadline + timedelta(hours=10)
    assert not pax.loop.tick()  # kept waiting: the orders may still change
    assert "the phase runs at\nits deadline and orders may still change" in pax.say("France", "STATUS")
    pax.loop.clock.advance(hours=72)
    assert pax.loop.tick()


def test_resume_now_runs_the_phase_at_once(pax):
    pax.gm("GM PAUSE")
    reply = pax.gm("GM RESUME NOW")
    assert "Game resumed and processed:" in reply and "1880 Movement/Status Change" in reply
    assert store.get_game(pax.ctx, "pax").rules.phase(store.get_game(pax.ctx, "pax").state).turn == 1884


def test_resend_sends_the_whole_report(pax):
    pax.all_order()
    sent = pax.text(pax.mails("France", "turn report")[-1])
    pax.say("France", "RESEND")
    again = pax.mails("France", "report again")[-1]
    # One mail: the reply, then the report asked for (pbem.outbound.batch).
    reply, text = batch.parts(pax.text(again))
    assert "Report sent again" in reply and text.startswith("[pax] France report again")
    text = text.split("\n", 1)[1].lstrip("\n")
    assert "report for France" in text and "Resolved: 1880 Movement/Status Change" in text
    assert "What you may do now" in text and "== France ==" in text
    assert text.split("-- \n")[0].replace("\n", "").strip() == sent.split("-- \n")[0].replace("\n", "").strip()
    assert again.get_body(("html",)) is not None
    pax.say("France", "RESEND 1880 Colonial Combat")
    text = pax.text(pax.mails("France", "report again")[-1])
    assert "1880 Movement/Status Change" in text  # the whole report the phase came in


# -- 8: treaties ------------------------------------------------------------------------

def test_a_proposal_is_private_to_its_parties_unless_public(pax):
    pax.say("France", "TREATY PROPOSE entente WITH Britain", "Friends.", "ENDTREATY")
    assert pax.mails("Britain", "treaty entente") and not pax.mails("Germany", "treaty entente")
    pax.say("France", "TREATY PROPOSE open WITH Britain PUBLIC", "Everyone may know.", "ENDTREATY")
    record = pax.text(pax.mails("Germany", "treaty open")[-1])
    assert "TREATY SIGN" not in record and "TREATY REFUSE" not in record
    assert "TREATY SIGN open" in pax.text(pax.mails("Britain", "treaty open")[-1])


def test_reports_list_the_treaties_in_force_the_power_may_see(pax):
    pax.say("France", "TREATY PROPOSE entente WITH Britain", "Friends in Africa.", "ENDTREATY")
    pax.say("Britain", "TREATY SIGN entente")
    pax.say("Germany", "TREATY PROPOSE triple WITH United-States PUBLIC", "Trade.", "ENDTREATY")
    pax.say("United-States", "TREATY SIGN triple")
    pax.all_order()
    france = pax.text(pax.mails("France", "turn report")[-1])
    # Pax Britannica's report lists every treaty its reader may see, so the moderator adds no list
    assert "Treaties in force you may see:" not in france
    listed = " ".join(france.split("Treaties you may see:")[1].split("\n\n")[0].split())
    assert 'entente (in force, secret): France, Britain; "Friends in Africa."' in listed
    assert 'triple (in force): Germany, United States; "Trade."' in listed
    germany = pax.text(pax.mails("Germany", "turn report")[-1])
    assert "entente" not in germany
    public = pax.text(pax.mails(GM, "GM report")[-1])
    assert "triple" in public and "entente" not in public


def test_a_players_command_written_after_gm_is_named_as_such(pax):
    reply = pax.gm("GM STATUS")
    assert "[not-gm-command] STATUS is not a GM command: write it without GM" in reply
    assert "expected SET or REMOVE" not in reply


def test_a_gm_command_misspelt_is_suggested_after_the_games_refusal(pax):
    reply = pax.gm("GM EXTND 1d", "GM SET TREASURY Britian 10")
    assert "expected SET or REMOVE or CLEAR or ADD in: EXTND 1d (did you mean GM EXTEND 1d?)" in reply
    assert "unknown power 'Britian' (did you mean Britain?)\n" in reply  # the game's own hint only


def test_a_long_list_of_gm_news_keeps_a_short_subject(pax):
    pax.gm("GM PAUSE", "GM EXTEND 1d", "GM ANNOUNCE", "Holidays.", "ENDANNOUNCE", "GM REVEAL SEED")
    subject = pax.mails("France")[-1]["Subject"]
    assert subject == "[pax] the game is paused, and 3 more from the GM"


def test_an_edit_that_changes_nothing_is_refused_and_stores_nothing_for_any_game(pax):
    """Pax Britannica does not check this itself: the moderator does, for every game."""
    pax.gm("GM SET TREASURY Germany 7")
    seq = store.get_game(pax.ctx, "pax").row["seq"]
    before = {p: len(pax.mails(p)) for p in POWERS}
    reply = pax.gm("GM SET TREASURY Germany 7")
    assert "[no-change] SET TREASURY Germany 7: this changes nothing (the game already stands so)" in reply
    assert "State edit applied" not in reply
    assert store.get_game(pax.ctx, "pax").row["seq"] == seq
    assert count_new(pax, before) == {p: 0 for p in POWERS}
