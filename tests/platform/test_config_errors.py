"""Every kind of configuration problem, each reported in one line."""
import pytest

from pbem.base.config import ConfigError, load_config


def problems(tmp_path, text: str) -> list[str]:
    path = tmp_path / "pbem.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    prefix = f"{path}: "
    for line in info.value.problems:
        assert line.startswith(prefix) and "\n" not in line, line
    assert str(info.value) == "\n".join(info.value.problems)
    return [line[len(prefix):] for line in info.value.problems]


@pytest.mark.parametrize("toml, expected", [
    ('[server]\nadress = "a@b"\n', "server.adress: unknown setting (did you mean server.address?)"),
    ('[smtp]\nmailbox = "INBOX"\n', "smtp.mailbox: unknown setting (did you mean imap.mailbox?)"),
    ('[smtp]\nflavour = 1\n', "smtp.flavour: unknown setting"),
    ('[imapp]\nhost = "x"\n', "imapp: unknown section (did you mean [imap]?)"),
    ('[colours]\nred = 1\n', "colours: unknown section"),
    ('address = "a@b"\n', "address: a setting outside any section (did you mean server.address?)"),
    ('server = 3\n', "server: expected a section [server], got an integer (3)"),
    ('[imap]\nport = "993"\n', 'imap.port: expected an integer, got a string ("993")'),
    ('[imap]\nport = true\n', "imap.port: expected an integer, got a boolean (true)"),
    ('[imap]\nport = 70000\n', "imap.port: must be a port number from 1 to 65535, got 70000"),
    ('[imap]\nssl = "yes"\n', 'imap.ssl: expected true or false, got a string ("yes")'),
    ('[imap]\ntimeout = "30s"\n', 'imap.timeout: expected a number, got a string ("30s")'),
    ('[imap]\nmailbox = ["INBOX"]\n', "imap.mailbox: expected a string, got a list"),
    ('[imap]\nmailbox = { name = "x" }\n', "imap.mailbox: expected a string, got a table"),
    ('[server]\ngames_extra = "a:b"\n',
     'server.games_extra: expected a list of strings, got a string ("a:b")'),
    ('[server]\ngames_extra = [1]\n', "server.games_extra: item 1: expected a string, got an integer (1)"),
    ('[server]\ngames_extra = ["a:b", "nocolon"]\n',
     'server.games_extra: item 2: must be "module:attribute", got "nocolon"'),
    ('[server]\nlog_level = "LOUD"\n',
     'server.log_level: must be one of "DEBUG", "INFO", "WARNING", "ERROR", got "LOUD"'),
    ('[intake]\nkind = "pop3"\n', 'intake.kind: must be one of "maildir", "imap", got "pop3"'),
    ('[server]\naddress = "nobody"\n', 'server.address: must be a bare mail address'),
    ('[server]\ngm_secret_hash = "hunter2"\n', 'server.gm_secret_hash: must be "" or a hash'),
    ('[server]\nbase_url = "example.org"\n', 'server.base_url: must be "" or an http(s) URL'),
    ('[server]\ndatabase = ""\n', "server.database: must not be empty"),
    ('[server]\nreply_rate_per_hour = -1\n', "server.reply_rate_per_hour: must be at least 0, got -1"),
    ('[deadlines]\nphase_duration = "3 days"\n', 'deadlines.phase_duration: not a duration: "3 days"'),
    ('[deadlines]\nphase_duration = "0h"\n', 'deadlines.phase_duration: must be longer than zero'),
    ('[deadlines]\ntimezone = "Europe/Lundun"\n', 'deadlines.timezone: unknown time zone "Europe/Lundun"'),
    ('[deadlines]\nallowed_days = ["mon", "fun"]\n', 'deadlines.allowed_days: not a day: "fun"'),
    ('[deadlines]\nhour = "6pm"\n', 'deadlines.hour: not a time of day: "6pm"'),
    ('[deadlines]\nwarnings = ["48h", "soon"]\n', 'deadlines.warnings: item 2: not a duration: "soon"'),
    ('[intake]\nkind = "imap"\n', 'imap.host: required when intake.kind = "imap"'),
    ('[outbound]\nkind = "smtp"\n', 'smtp.host: required when outbound.kind = "smtp"'),
    ('[smtp]\ntls = true\n', "smtp.tls: cannot be true together with smtp.starttls"),
])
def test_each_problem_has_its_line(tmp_path, toml, expected):
    found = problems(tmp_path, toml)
    assert len(found) == 1, found
    assert found[0].startswith(expected), found[0]


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    found = problems(tmp_path, """
[server]
adress = "x@y"
max_message_bytes = "big"
[imap]
port = 0
[deadlines]
grace = "later"
[smtp]
tls = true
""")
    assert [line.split(":")[0] for line in found] == [
        "server.adress", "server.max_message_bytes", "imap.port", "deadlines.grace", "smtp.tls"]


def test_a_cross_check_is_not_repeated_for_a_key_already_wrong(tmp_path):
    found = problems(tmp_path, '[intake]\nkind = "imap"\n[imap]\nhost = 5\n')
    assert found == ["imap.host: expected a string, got an integer (5)"]


def test_invalid_toml_is_one_line_with_its_position(tmp_path):
    found = problems(tmp_path, "[server]\nname = \n")
    assert len(found) == 1 and found[0].startswith("not valid TOML: ")
    assert "line 2" in found[0]


def test_a_missing_file(tmp_path):
    path = tmp_path / "absent.toml"
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.problems == [f"{path}: cannot read the file: No such file or directory"]


def test_control_characters_in_values_stay_on_one_line(tmp_path):
    found = problems(tmp_path, '[intake]\nkind = "mail\\ndir"\n')
    assert found == ['intake.kind: must be one of "maildir", "imap", got "mail\\ndir"']
