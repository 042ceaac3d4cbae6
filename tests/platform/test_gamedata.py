"""A GM's data override is read once, from the game data folder or the GM
mail's attachment, and frozen into the game with its hash."""
from email.message import EmailMessage

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.base import gamedata
from pbem.inbound import intake
from pbem.storage import store
from pbem.mail.source import RawMail

GM = "gm@example.test"
GUIANA_3 = '[areas."Guiana"]\nev = 3\n'


@pytest.fixture
def lp(tmp_path):
    folder = tmp_path / "game-data"
    folder.mkdir()
    (folder / "house.toml").write_text(GUIANA_3, encoding="utf-8")
    return Loop(tmp_path, game_data_dir=str(folder))


def create(lp: Loop, option: str) -> str:
    lp.mail(GM, f"SIGNON GM@pax {GM_SECRET}\nGM CREATE pax RULES pax_britannica OPTION {option}\n")
    lp.flush()
    return lp.last_text(GM)


def test_the_file_is_read_once_and_the_game_keeps_its_copy(lp, tmp_path):
    reply = create(lp, "data=house.toml")
    frozen = store.get_game(lp.ctx, "pax").options["data"]
    assert frozen == gamedata.freeze("house.toml", GUIANA_3)
    assert f"Uses the data override house.toml (sha256 {frozen['sha256'][:16]}...)" in reply
    (tmp_path / "game-data" / "house.toml").unlink()  # the game no longer needs the file
    seats = "".join(f"GM ADD PLAYER {p} {p.lower()}@example.test\n" for p in ("Britain", "France", "Germany",
                                                                                  "Russia"))
    lp.mail(GM, f"SIGNON GM@pax {GM_SECRET}\n{seats}GM START\n")
    rec = store.get_game(lp.ctx, "pax")
    assert rec.status == "active"
    from games.pax_britannica import load_data
    assert load_data(rec.state).areas["Guiana"].ev == 3


@pytest.mark.parametrize("name", ["../pbem.sqlite", "/etc/passwd", "sub/house.toml", ".hidden", "missing.toml"])
def test_only_a_plain_file_of_the_folder_is_read(lp, name):
    reply = create(lp, f"data={name}")
    assert "[bad-data-file]" in reply and "the game was not created" in reply
    assert store.find_game(lp.ctx, "pax") is None


def test_a_link_out_of_the_folder_is_refused(lp, tmp_path):
    (tmp_path / "secret.toml").write_text("x = 1\n")
    (tmp_path / "game-data" / "link.toml").symlink_to(tmp_path / "secret.toml")
    assert "[bad-data-file]" in create(lp, "data=link.toml")


def test_a_file_that_is_not_toml_or_does_not_fit_is_refused(lp, tmp_path):
    (tmp_path / "game-data" / "bad.toml").write_text("ev = = 3\n")
    assert "is not valid TOML" in create(lp, "data=bad.toml")
    (tmp_path / "game-data" / "typo.toml").write_text('[areas."Guiana"]\nneighbours = ["Brazil"]\n')
    reply = create(lp, "data=typo.toml")
    assert "[bad-data-file] the data override does not fit the game's tables" in reply and "Brazil" in reply


def test_the_gm_may_attach_the_file_instead(lp):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = GM, lp.ctx.address, "new game", "<att@gm.test>"
    msg.set_content(f"SIGNON GM@pax {GM_SECRET}\nGM CREATE pax RULES pax_britannica OPTION data=mine.toml\n")
    msg.add_attachment(GUIANA_3.encode(), maintype="application", subtype="toml", filename="mine.toml")
    row = intake.store_raw(lp.ctx, RawMail("att:1", bytes(msg)))
    assert intake.process(lp.ctx, row) == "done"
    assert store.get_game(lp.ctx, "pax").options["data"]["text"] == GUIANA_3
