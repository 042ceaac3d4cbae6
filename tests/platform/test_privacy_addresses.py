"""What one player's mail may show of the others: no addresses."""
from helpers_loop import GM_SECRET, Loop, subjects

GM = "gm@example.test"
PLAYERS = {"North": "north@example.test", "South": "south@example.test", "East": "east@example.test"}


def test_announcements_to_everyone_show_each_reader_only_their_own_address(tmp_path):
    loop = Loop(tmp_path)
    seats = "".join(f"GM ADD PLAYER {p} {a}\n" for p, a in PLAYERS.items())
    assert loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon\n{seats}GM START\n"
                         "GM EXTEND 1d\nGM ANNOUNCE\nHello all.\nENDANNOUNCE\n") == "done"
    loop.flush()
    # one mail per reader for the whole GM mail, saying all three things (with the
    # welcome or the GM's reply in the same mail: pbem.outbound.batch)
    subject = "the game has started; deadline changed; announcement from"
    notices = [(to, m) for to, m in loop.sender.sent if any(subject in s for s in subjects(m))]
    readers = sorted(a for to, m in notices for a in to)
    assert readers == sorted([*PLAYERS.values(), GM]), [m["Subject"] for _, m in loop.sender.sent]
    for to, m in notices:
        shown = " ".join(str(m[h] or "") for h in ("To", "Cc", "Bcc"))
        others = [a for a in [*PLAYERS.values(), GM] if a not in to]
        assert len(to) == 1 and not any(a in shown for a in others), (to, shown)
