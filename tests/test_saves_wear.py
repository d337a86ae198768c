"""Wear: whole AI games saved after every action on each board's model, erase cycles
counted per flash unit. At each unit's rated endurance (tests/savesim.py ENDURANCE, the
sources in docs/saves.md) the saves outlast 10,000 games of every rule set, on every board.
The figures in docs/saves.md: python -m tests.savesim 8 (eight games of each rule set)."""

from tests import savesim

GAMES = 3


def test_every_flash_unit_outlasts_ten_thousand_games_on_every_board():
    wear, saves = savesim.soak(GAMES)
    assert 200 < saves["hoyle"] < saves["binokel"] < 600
    for board, per in wear.items():
        for rules, units in per.items():
            kinds = set()
            for unit, cycles in units.items():
                kind = unit.rsplit(" ", 1)[0]
                kinds.add(kind)
                if cycles:
                    assert savesim.ENDURANCE[kind] / cycles >= 10000, (board, rules, unit, cycles)
            assert "drive sector" in kinds
        drive = [c for u, c in per["binokel"].items() if u.startswith("drive")]
        journal = sorted(drive)[-50:]              # the journal's sectors take the saves evenly
        assert journal[0] > 0 and journal[-1] <= journal[0] + 1
    lines = savesim.table(wear, saves)
    assert len(lines) == 3 * 4 and lines[0].startswith("PyBadge")
