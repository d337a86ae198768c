"""Golden legal-action counts (tests/data/golden_counts.txt, written by tools/checks/golden.py)."""

from engine import rules
from tools.checks import golden


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
    assert {r[0] for r in rows} == {"hoyle", "hoyle64", "french", "binokel"}     # engine/variants.py
    assert {rules.find(r[0]) for r in rows if r[0] in rules.RULE_SETS} == set(rules.ROWS)   # every rule set
    assert all(len(r) >= 5 for r in rows)                    # at least perft(1) and perft(2)
    assert golden.new_variant("hoyle64", 4).pack64 and not golden.new_variant("hoyle", 4).pack64
    state = golden.walk("french", 14, 2)
    assert sum(1 for a in state.legal_actions() if a >= 65536) >= 3   # a rich meld position
