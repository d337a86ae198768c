"""Golden legal-action counts (tests/data/golden_counts.txt, written by tools/golden.py)."""

from tools import golden


def read_file():
    with open(golden.PATH) as fh:
        return [line.split() for line in fh if line.strip() and not line.startswith("#")]


def test_golden_counts_unchanged():
    rows = read_file()
    fresh = [line.split() for line in golden.lines()]
    assert len(rows) == len(fresh)
    for want, got in zip(rows, fresh):
        assert got == want, "position %s: counts %s, expected %s" % (" ".join(want[:4]), got[4:], want[4:])


def test_golden_counts_cover_every_rule_set_and_meld_positions():
    rows = read_file()
    assert {(r[0], r[1]) for r in rows} == {("hoyle", "-"), ("hoyle", "pack64=True"), ("french", "-"),
                                            ("binokel", "-")}
    assert all(len(r) >= 6 for r in rows)                    # at least perft(1) and perft(2)
    state = golden.walk("french", {}, 14, 2)
    assert sum(1 for a in state.legal_actions() if a >= 65536) >= 3   # a rich meld position
