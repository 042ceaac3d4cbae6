"""The site GM (server.gm_address): a game made on the command line without --gm has it
as its GM, so what "the GM is told" reaches a person; never the moderator's own address."""
from __future__ import annotations

import pytest
from helpers_site import Site

from pbem.base.config import ConfigError, load_config
from pbem.storage.db import open_db
from pbem.mail.reader import read


def _gm_of(site: Site, game: str) -> str:
    return open_db(site.folder / "var" / "pbem.sqlite")["games"].get(game)["gm_address"]


def test_init_sets_a_site_gm_and_a_game_made_without_gm_tells_it(tmp_path):
    site = Site(tmp_path)
    out = site.pbem("init")
    assert "site GM: gm@localhost (server.gm_address in " in out and "pbem mail gm@localhost" in out
    assert load_config(site.config).server.gm_address == "gm@localhost"
    made = site.pbem("game", "new", "g1", "--rules", "beacon")
    assert "GM: gm@localhost (server.gm_address)" in made
    assert _gm_of(site, "g1") == "gm@localhost"
    site.pbem("game", "add-player", "g1", "North", "north@example.test")
    site.pbem("game", "add-player", "g1", "South", "south@example.test")
    site.pbem("game", "start", "g1")
    site.pbem("game", "process", "g1")
    site.pbem("serve", "--once")
    told = [str(msg["Subject"]) for msg in read(site.mailbox("gm@localhost"))]
    assert any("GM report" in subject for subject in told), told
    assert not site.mailbox("pbem@localhost").exists()  # nothing is mailed to the moderator itself


def test_init_takes_the_site_gm_given_and_refuses_the_moderator_s_own(tmp_path):
    site = Site(tmp_path)
    proc = site.run("init", "--gm", "pbem@localhost")
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "server.gm_address: must not be the moderator's own address" in proc.stderr
    assert not site.config.exists()
    site.pbem("init", "--gm", "Referee@Example.org")
    assert load_config(site.config).server.gm_address == "Referee@Example.org"
    site.pbem("game", "new", "g1", "--rules", "beacon")
    assert _gm_of(site, "g1") == "referee@example.org"


def test_a_game_without_gm_needs_a_site_gm_and_never_gets_the_moderator(tmp_path):
    site = Site(tmp_path)
    site.config.write_text('[server]\ndatabase = "pbem.sqlite"\naddress = "mod@example.test"\n')
    proc = site.run("game", "new", "g1", "--rules", "beacon")
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
    assert "give --gm ADDRESS, or set server.gm_address in" in proc.stderr
    proc = site.run("game", "new", "g1", "--rules", "beacon", "--gm", "Mod@Example.test")
    assert proc.returncode == 1 and "is the moderator's own address" in proc.stderr, proc.stderr
    site.pbem("game", "new", "g1", "--rules", "beacon", "--gm", "gm@example.test")
    assert "g1" in site.pbem("game", "list")


def test_the_site_gm_may_not_be_the_moderator_s_own_address(tmp_path):
    path = tmp_path / "pbem.toml"
    path.write_text('[server]\naddress = "pbem@example.org"\ngm_address = "PBEM@example.org"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [
        f'{path}: server.gm_address: must not be the moderator\'s own address (server.address = '
        '"pbem@example.org"): mail to the GM would reach nobody']
