"""Count the odds a binokel defender deals the soloist's unseen cards by (engine/ai/sampler.py
_SOLOIST_ODDS, _BURIED_ODDS), by self-play.

    python -m tools tune-odds [--games N] [--seed S] [--level L]

Plays N binokel games of up to 4 deals with the AI in every seat. At each
defender's first card of a trump contract it counts the cards his memory does
not place (beyond the shown melds) in the soloist's hand, in the other
defender's and among the buried cards, by rank code in plain suits and in
trumps. A card's odds is its share of the soloist's (or the buried) cards
over its share of the other defender's, in eighths; the trumps are pooled
over their ranks, and no odds is below one eighth (a person may do what the
AI never does). The command prints the counts, the ratios and both tables
as they would be shipped. Desktop only.
"""

import sys
import time

from engine.ai import new_player
from engine.rules import new_game
from engine.state import PH_PLAY
from tools import cli
from tools.selfplay import play

DEALS = 4
RANK_NAMES = "789JQKTA"
SOLOIST, OTHER, BURIED = 0, 1, 2


def count(games, seed, level, progress):
    """counts[where][c] for c = rank code (plain) or 8 + rank code (trump); totals[where]."""
    counts = [[0] * 16 for _ in range(3)]
    totals = [0, 0, 0]
    start = time.time()
    counted = set()                     # (deal, defender) already counted

    def capped(state, obs):             # DEALS deals, and the next one dealt
        return state.deal_number > DEALS

    def first_card(state, p, obs, action):
        if (state.phase == PH_PLAY and obs.trump >= 0 and p != obs.soloist
                and (state.deal_number, p) not in counted):
            counted.add((state.deal_number, p))
            add_defender_view(state, obs, seats[p].memory, counts, totals)
    for g in range(games):
        game_seed = seed + g
        state = new_game("binokel", game_seed)
        seats = [new_player("binokel", p, level, game_seed * 7 + p) for p in range(3)]
        counted.clear()
        play(state, seats, capped, first_card)
        if progress and (g + 1) % 20 == 0:
            sys.stderr.write("\r%d/%d games  %.0f s" % (g + 1, games, time.time() - start))
    if progress and games >= 20:
        sys.stderr.write("\n")
    return counts, totals


def add_defender_view(state, obs, memory, counts, totals):
    trump = obs.trump
    soloist = obs.soloist
    other = 3 - soloist - obs.player
    for where, q in ((SOLOIST, soloist), (OTHER, other)):
        hand = state.hands[q]
        for f in range(32):
            n = max(0, hand[f] - memory.known[q][f])
            counts[where][category(f, trump)] += n
            totals[where] += n
    for f in range(32):
        n = state.buried[f]
        counts[BURIED][category(f, trump)] += n
        totals[BURIED] += n


def category(f, trump):
    return (8 if f >> 3 == trump else 0) | (f & 7)


def ratio(counts, totals, where, cats):
    mine = sum(counts[where][c] for c in cats) / max(1, totals[where])
    theirs = sum(counts[OTHER][c] for c in cats) / max(1, totals[OTHER])
    return mine / theirs if theirs else None


def eighths(r):
    return 8 if r is None else max(1, round(8 * r))


def odds_table(counts, totals, where):
    """16 odds in eighths: plain rank codes 0-7, then the trumps, pooled."""
    trump = eighths(ratio(counts, totals, where, range(8, 16)))
    return [eighths(ratio(counts, totals, where, (c,))) for c in range(8)] + [trump] * 8


def literal(values):
    return 'b"' + "".join("\\x%02x" % v for v in values) + '"'


def main(argv):
    parser = cli.self_play_parser("tune-odds", __doc__, "games", 400)
    opts = parser.parse_args(argv)
    counts, totals = count(opts.games, opts.seed, opts.level, True)
    if not totals[OTHER]:
        sys.stderr.write("tune-odds: no trump contract was played: ask for more games\n")
        return 1
    print("cards unseen by a defender at his first card: soloist %d, other defender %d, buried %d"
          % tuple(totals))
    for c in list(range(2, 8)) + list(range(10, 16)):
        if counts[SOLOIST][c] + counts[OTHER][c] == 0:
            continue
        r_sol = ratio(counts, totals, SOLOIST, (c,))
        r_bur = ratio(counts, totals, BURIED, (c,))
        print("%-6s %s  soloist %5d  other %5d  buried %4d  odds: soloist %.2f, buried %.2f"
              % ("trump" if c >= 8 else "plain", RANK_NAMES[c & 7], counts[SOLOIST][c],
                 counts[OTHER][c], counts[BURIED][c], r_sol or 0, r_bur or 0))
    print("_SOLOIST_ODDS = %s" % literal(odds_table(counts, totals, SOLOIST)))
    print("_BURIED_ODDS = %s" % literal(odds_table(counts, totals, BURIED)))
    return 0
