"""tools/lab/tune_odds.py: the odds it prints are the shares it counted, in eighths."""

from tools.lab.tune_odds import BURIED, OTHER, SOLOIST, literal, odds_table


def test_odds_are_each_share_over_the_other_defenders_in_eighths_trumps_pooled():
    counts = [[0] * 16 for _ in range(3)]
    totals = [100, 200, 50]
    counts[OTHER][7] = 20           # plain aces: 10% of the other defender's cards
    counts[SOLOIST][7] = 15         # 15% of the soloist's: 1.5 -> 12 eighths
    counts[BURIED][7] = 1           # 2% of the buried: 0.2 -> 2 eighths
    counts[OTHER][5] = 40           # plain kings
    counts[BURIED][5] = 25          # 50% against 20%: 2.5 -> 20 eighths; none with the soloist
    counts[OTHER][8 + 7] = 10       # trump aces and tens, pooled: 10% of the other's
    counts[OTHER][8 + 6] = 10
    counts[SOLOIST][8 + 7] = 12     # 17% of the soloist's: 1.7 -> 13.6 -> 14 eighths
    counts[SOLOIST][8 + 6] = 5
    sol = odds_table(counts, totals, SOLOIST)
    bur = odds_table(counts, totals, BURIED)
    assert sol == [8, 8, 8, 8, 8, 1, 8, 12] + [14] * 8      # none seen: 8; never below 1
    assert bur == [8, 8, 8, 8, 8, 20, 8, 2] + [1] * 8
    assert literal([1, 20, 14]) == 'b"\\x01\\x14\\x0e"'
