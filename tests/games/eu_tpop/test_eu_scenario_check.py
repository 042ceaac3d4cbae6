"""A scenario a GM can trust: every key known, every name resolved, every value in range,
every problem listed at once with its line, and never a game made or started from a file
that fails (games/eu_tpop/scenario_check.py; the schema is data/DATA.md)."""
import re
import shutil
from pathlib import Path

import pytest

from helpers_loop import GM_SECRET, Loop
from games.eu_tpop import EuropaUniversalis, scenario_check
from games.eu_tpop.scenario_schema import documented_keys
from pbem.kit.dice import SeededDice
from pbem.kit.gameapi import GMError
from pbem.storage import store

DATA = Path(__file__).resolve().parents[3] / "games" / "eu_tpop" / "data"
BROKEN = Path(__file__).parent / "broken_scenarios"
GM = "gm@example.test"
#: each broken file: the problem code the check gives, and a word its message or suggestion holds
EXPECTED = {
    "province_without_area": ("missing-key", "'area'"),
    "border_of_three_areas": ("bad-value", "exactly two"),
    "tax_as_word": ("bad-type", "'one'"),
    "tax_out_of_range": ("out-of-range", "from 1 to 2"),
    "sea_adjacency_typo": ("unknown-name", "Middle Sea"),
    "capital_typo": ("unknown-name", "Corvia"),
    "marriage_typo": ("unknown-name", "Brenn"),
    "owned_by_for_owner": ("unknown-key", "owned_by"),
    "units_at_misspelt_area": ("unknown-name", "Ostmark"),
    "units_at_a_province": ("not-an-area", "Valmont"),
    "turn_order_typo": ("unknown-name", "Ostmark"),
    "realm_without_kind": ("missing-key", "'kind'"),
    "port_on_a_sea_of_another_area": ("bad-value", "Middle Sea"),
    "unknown_realm_key": ("unknown-key", "stability"),
    "not_toml": ("not-toml", "Invalid value"),
}


def example() -> str:
    doc = (DATA / "DATA.md").read_text(encoding="utf-8")
    return re.search(r"```toml\n(.*?)```", doc, re.S).group(1)


def start(text: str, players=("Valmont",)):
    options = {"data": {"name": "scenario.toml", "sha256": "-", "text": text}}  # not frozen: a bad TOML too
    return EuropaUniversalis().setup(list(players), options, SeededDice(seed=b"s" * 32, context="t"))


def test_the_shipped_data_and_the_documented_example_fit():
    assert scenario_check.check((DATA / "sample.toml").read_text(encoding="utf-8")) == []
    assert scenario_check.check((DATA / "dice.toml").read_text(encoding="utf-8")) == []
    assert scenario_check.check(example()) == []
    state = start(example(), ("Aster", "Bryn"))
    assert state["order"] == ["Aster", "Bryn"] and state["units"]["Aster"]["Aster"]["inf"] == 3


def test_every_key_the_check_knows_is_documented_and_no_other():
    doc = (DATA / "DATA.md").read_text(encoding="utf-8").split("## Scenario schema")[1].split("## A complete")[0]
    documented, section = set(), None
    for line in doc.splitlines():
        if line.startswith("### "):
            section = "" if line[4:].strip() == "top level" else line[4:].strip()
        elif line.startswith("- `") and section is not None:
            key = line[3:line.index("`", 3)]
            documented.add(f"{section}.{key}" if section else key)
    assert documented == documented_keys()


def test_manpower_is_documented_as_the_reserve_the_engine_keeps():
    """A scenario's ``manpower`` is what recruiting spends (moves.py) and refreshing fills
    (phases/action.py): the Available manpower, not 9.3's total ``m``; the schema says which."""
    doc = (DATA / "DATA.md").read_text(encoding="utf-8")
    line = next(x for x in doc.splitlines() if x.startswith("- `manpower`"))
    assert "Available manpower" in line and "not 9.3's `m`" in line and "`exhausted`" in line


def test_the_broken_files_are_one_of_each_kind():
    assert sorted(p.stem for p in BROKEN.glob("*.toml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_broken_scenario_gives_its_problem_with_its_line_and_never_a_game(name):
    text = (BROKEN / f"{name}.toml").read_text(encoding="utf-8")
    code, word = EXPECTED[name]
    found = scenario_check.check(text)
    assert [p.code for p in found] == [code], [p.render() for p in found]
    assert word in found[0].render()
    rows = text.splitlines()
    assert found[0].line and 0 < found[0].line <= len(rows)
    with pytest.raises(GMError) as refused:
        start(text)
    assert refused.value.code == "bad-data-file" and f"line {found[0].line}" in str(refused.value)


def test_every_problem_is_listed_at_once_each_at_its_own_line():
    text = (DATA / "sample.toml").read_text(encoding="utf-8")
    text = text.replace('turn_order = ["Valmont"', 'turn_order = ["Valmnt"')
    text = text.replace("[provinces.Belcourt]\narea = \"Valmont\"\ntax = 1", "[provinces.Belcourt]\narea = \"Valmont\"\ntax = \"one\"")
    text = text.replace('units = [ { at = "Valmont"', 'units = [ { at = "Belcourt"')
    text = text.replace("owner = \"Tarvo\"\n[provinces.Kest]", "owned_by = \"Tarvo\"\n[provinces.Kest]")
    found = scenario_check.check(text)
    rows = text.splitlines()
    assert [p.code for p in found] == ["unknown-name", "bad-type", "unknown-key", "not-an-area"]
    for p, needle in zip(found, ("Valmnt", '"one"', "owned_by", "Belcourt")):
        assert needle in rows[p.line - 1]
    assert found[0].suggestion == "Valmont" and found[3].suggestion == "Valmont"


def test_a_realm_out_of_the_turn_order_and_a_capital_not_its_own_are_refused():
    text = (DATA / "sample.toml").read_text(encoding="utf-8")
    text = text.replace('turn_order = ["Valmont", "Corvia", "Ostmark"]', 'turn_order = ["Valmont", "Lusca"]')
    text = text.replace('capital = "Corvia"', 'capital = "Salera"\n', 1).replace(
        '[provinces.Salera]\narea = "Corvia"\ntax = 1\nport = "Middle Sea"\nowner = "Corvia"',
        '[provinces.Salera]\narea = "Corvia"\ntax = 1\nport = "Middle Sea"\nowner = "Lusca"')
    messages = [p.message for p in scenario_check.check(text)]
    assert any("Lusca is of kind NPR" in m for m in messages)
    assert any("Corvia is missing from the turn order" in m for m in messages)
    assert any("Ostmark is missing from the turn order" in m for m in messages)
    assert any("capital Salera is not Corvia's own province" in m for m in messages)


@pytest.fixture
def lp(tmp_path):
    folder = tmp_path / "game-data"
    folder.mkdir()
    for f in BROKEN.glob("*.toml"):
        shutil.copy(f, folder / f.name)
    shutil.copy(DATA / "sample.toml", folder / "good.toml")
    return Loop(tmp_path, game_data_dir=str(folder))


def test_gm_create_lists_the_problems_of_a_broken_scenario_and_makes_no_game(lp):
    lp.mail(GM, f"SIGNON GM@eu {GM_SECRET}\nGM CREATE eu RULES eu_tpop OPTION data=units_at_a_province.toml\n")
    lp.flush()
    reply = lp.last_text(GM)
    assert "units_at_a_province.toml has 1 problem(s)" in reply and "the game was not created" in reply
    assert "units_at_a_province.toml line 159" in reply, reply
    assert "'Belcourt' is a province" in reply
    assert "did you mean Valmont?" in reply
    assert store.find_game(lp.ctx, "eu") is None
    lp.mail(GM, f"SIGNON GM@eu {GM_SECRET}\nGM CREATE eu RULES eu_tpop OPTION data=good.toml\n")
    lp.flush()
    assert store.find_game(lp.ctx, "eu").status == "forming"


def test_pbem_scenario_check_lists_every_problem_and_fails(capsys):
    from pbem.host.cli import main

    broken = BROKEN / "units_at_a_province.toml"
    assert main(["scenario", "check", str(broken), str(DATA / "sample.toml")]) == 1
    out = capsys.readouterr().out
    assert f"{broken}: 1 problem(s); no game can be made from it" in out
    assert f"{broken}:159: [not-an-area] realms.Valmont.units[0].at: 'Belcourt' is a province" in out
    assert f"{DATA / 'sample.toml'}: fits Europa Universalis: The Price of Power" in out
    assert main(["scenario", "check", "--rules", "eu_tpop", str(DATA / "sample.toml")]) == 0


def test_a_file_with_very_many_problems_gets_a_bounded_reply(lp, tmp_path):
    text = (DATA / "sample.toml").read_text(encoding="utf-8")
    text += "".join(f"[provinces.Extra{i}]\narea = \"Nowhere\"\n" for i in range(150))
    (tmp_path / "game-data" / "many.toml").write_text(text, encoding="utf-8")
    assert len(scenario_check.check(text)) == 150
    lp.mail(GM, f"SIGNON GM@eu {GM_SECRET}\nGM CREATE eu RULES eu_tpop OPTION data=many.toml\n")
    lp.flush()
    reply = lp.last_text(GM)
    assert "GM CREATE eu: the data file many.toml has 150 problem(s)" in reply
    assert "more problems are not listed one by one (data-unknown-name x" in reply
    assert "many.toml line 211: provinces.Extra0.area: there is no area 'Nowhere'" in reply
    assert store.find_game(lp.ctx, "eu") is None
    with pytest.raises(GMError) as refused:
        start(text)
    assert str(refused.value).count("\n") == 21 and str(refused.value).endswith("... and 130 more")
