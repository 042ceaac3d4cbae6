"""Masking what a player writes (pbem/handlers/masking.py): the same secrets masked the same
way whether checked one text at a time or with keys folded once for a whole mail, and a mail
of many lines and many secrets masked without comparing every line with every secret."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pbem.handlers import masking

SECRETS = ["abc-defg", "Zq", "kätzchen", "ｆｕｌｌ９"]


def test_a_secret_is_masked_in_any_case_width_or_with_invisible_characters_inside():
    keys = masking.Keys(SECRETS)
    for written in ("ABC-DEFG", "abc\u200b-defg", "ＡＢＣ－ＤＥＦＧ", "KÄTZCHEN", "full9"):
        assert masking.mask(f"say {written} now", keys) == "say **** now", written
    assert masking.mask("zq zqx", keys) == "**** zqx"  # a short one only as a word of its own
    assert masking.mask("nothing here", keys) == "nothing here"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcdefgzqZQ- ÄäｆＡ\u200b9.kätzchen")), max_size=40),
       st.lists(st.sampled_from(SECRETS + ["ab", "defg", "q"]), max_size=4))
def test_keys_made_once_mask_as_the_secrets_do(text, secrets):
    assert masking.mask(text, masking.Keys(secrets)) == masking.mask(text, secrets)
    assert all(s.lower() not in masking.mask(text, secrets).lower() for s in secrets if len(s) >= 4
               and s.isascii())


def test_a_mail_of_many_lines_folds_each_secret_once(monkeypatch):
    folded = []
    real = masking._folded
    monkeypatch.setattr(masking, "_folded", lambda text: folded.append(text) or real(text))
    secrets = [f"tok{i:07d}" for i in range(300)]
    text = "\n".join(f"CONFIRM tok{i:07d}" for i in range(3000))
    keys = masking.Keys(secrets)
    masked = [masking.mask(line, keys) for line in text.splitlines()]
    assert masked[:300] == ["CONFIRM ****"] * 300 and masked[300] == "CONFIRM tok0000300"
    assert len(folded) == 300 + 3000  # each secret once, each line once
