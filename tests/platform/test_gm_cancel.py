"""GM CANCEL deletes a forming game: its seats, log and archive pages go, its players are
told, the mail it received and sent stays; a started game is never deleted."""
from helpers_loop import GM_SECRET, Loop
from pbem.base.sitepaths import game_dir
from pbem.storage import store
from pbem.web import archive

GM = "gm@example.test"


def test_a_forming_game_is_deleted_with_its_pages_and_its_players_are_told(tmp_path):
    lp = Loop(tmp_path)
    lp.mail(GM, f"SIGNON GM@doomed {GM_SECRET}\nGM CREATE doomed RULES eu_tpop\n"
                "GM ADD PLAYER Valmont v@example.test\n")
    lp.mail(GM, f"SIGNON GM@kept {GM_SECRET}\nGM CREATE kept RULES eu_tpop\n")
    lp.flush()
    site = tmp_path / "site"
    archive.build_archive(lp.ctx, site)
    assert (site / game_dir("doomed") / "index.html").is_file()
    mails_before = lp.db.execute("select count(*) from messages").fetchone()[0]

    lp.mail(GM, f"SIGNON GM@doomed {GM_SECRET}\nGM CANCEL\n")
    lp.flush()
    assert "Game cancelled:" in lp.last_text(GM) and "doomed is deleted" in lp.last_text(GM)
    told = lp.last_text("v@example.test")
    assert "cancelled the game doomed" in told and "Valmont" in told
    assert store.find_game(lp.ctx, "doomed") is None
    for table in store.GAME_TABLES:
        assert lp.db.execute(f"select count(*) from {table} where game = 'doomed'").fetchone()[0] == 0, table
    assert lp.db.execute("select count(*) from messages").fetchone()[0] == mails_before + 1   # nothing lost
    archive.build_archive(lp.ctx, site)
    assert not (site / game_dir("doomed")).exists()
    assert (site / game_dir("kept") / "index.html").is_file()
    assert "doomed" not in (site / "index.html").read_text(encoding="utf-8")
    # the name is free again
    lp.mail(GM, f"SIGNON GM@doomed {GM_SECRET}\nGM CREATE doomed RULES eu_tpop\n")
    assert store.find_game(lp.ctx, "doomed").status == "forming"


def test_a_started_game_is_not_cancelled(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon("g1")
    lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CANCEL\n")
    lp.flush()
    assert "[wrong-game-status] g1 is active; this needs it forming" in lp.last_text(GM)
    assert store.find_game(lp.ctx, "g1").status == "active"
