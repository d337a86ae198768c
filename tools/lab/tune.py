"""Fit the binokel soloist's trick table (engine/ai/bidding.py TRICK_WORTH) by self-play.

    python -m tools tune [--deals N] [--seed S] [--level L]

Plays N binokel deals with the AI in every seat. For each trump contract
played to its last trick it records the soloist's 15 cards after burying,
the trump, and the card points he then took (the last trick included). A
least-squares fit of those points on the count of each rank, in trumps and
in plain suits, and on the trumps beyond five gives the table the engine
ships; the command prints it with the fit's mean error. Desktop only.
"""

import sys
import time

from engine.ai import new_player
from engine.ai.bidding import LONG_TRUMPS, trick_estimate
from engine.rules import new_game
from engine.state import PH_PLAY
from tools import cli
from tools.selfplay import play_deal

RANKS = (2, 3, 4, 5, 6, 7)          # 9 J Q K T A
FEATURES = 2 * len(RANKS) + 1       # plain ranks, trump ranks, trumps beyond LONG_TRUMPS


def features(hand, trump):
    x = [0.0] * FEATURES
    ntrumps = 0
    for f in range(32):
        c = hand[f]
        if c and (f & 7) in RANKS:
            t = 1 if f >> 3 == trump else 0
            x[t * len(RANKS) + RANKS.index(f & 7)] += c
            ntrumps += c * t
    x[-1] = max(0, ntrumps - LONG_TRUMPS)
    return x


def collect(deals, seed, level, progress):
    rows = []
    game_seed = seed
    played = 0
    start = time.time()
    snapshot = []

    def soloist_hand(state, p, obs, action):     # at the first card of a trump contract
        if state.phase == PH_PLAY and not snapshot and 0 <= state.contract < 4:
            snapshot.append((bytearray(state.hands[state.soloist]), state.trump, state.soloist))
    while played < deals:
        state = new_game("binokel", game_seed)
        seats = [new_player("binokel", p, level, game_seed * 3 + p) for p in range(3)]
        game_seed += 1
        while not state.is_game_over() and played < deals:
            del snapshot[:]
            play_deal(state, seats, soloist_hand)
            if snapshot and not state.surrendered and state.trick_n == 0:
                hand, trump, soloist = snapshot[0]
                rows.append((features(hand, trump), state.cardpts[soloist], hand, trump))
            played += 1
            if progress and played % 50 == 0:
                sys.stderr.write("\r%d/%d deals  %.0f s" % (played, deals, time.time() - start))
    if progress and played >= 50:
        sys.stderr.write("\n")
    return rows


def least_squares(xs, ys):
    """Normal equations with a small ridge, solved by Gaussian elimination."""
    n = len(xs[0])
    a = [[0.0] * (n + 1) for _ in range(n)]
    for x, y in zip(xs, ys):
        for i in range(n):
            if x[i]:
                for j in range(n):
                    a[i][j] += x[i] * x[j]
                a[i][n] += x[i] * y
    for i in range(n):
        a[i][i] += 1e-3
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col]:
                k = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= k * a[col][c]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def main(argv):
    parser = cli.self_play_parser("tune", __doc__, "deals", 2000)
    opts = parser.parse_args(argv)
    rows = collect(opts.deals, opts.seed, opts.level, True)
    if len(rows) < FEATURES * 4:
        sys.stderr.write("tune: only %d contracts played to the end, the fit needs %d: ask for more "
                         "deals (--deals 100 or more)\n" % (len(rows), FEATURES * 4))
        return 1
    w = least_squares([r[0] for r in rows], [r[1] for r in rows])
    plain = [0, 0] + [round(v) for v in w[:len(RANKS)]]
    trump = [round(w[len(RANKS)])] * 2 + [round(v) for v in w[len(RANKS):2 * len(RANKS)]]
    err_fit = sum(abs(sum(wi * xi for wi, xi in zip(w, r[0])) - r[1]) for r in rows) / len(rows)
    err_now = sum(abs(trick_estimate(r[2], r[3]) - r[1]) for r in rows) / len(rows)
    bias_now = sum(trick_estimate(r[2], r[3]) - r[1] for r in rows) / len(rows)
    print("contracts %d; mean |error|: fitted %.1f, shipped table %.1f (bias %+.1f)"
          % (len(rows), err_fit, err_now, bias_now))
    print("TRICK_WORTH = (\n    %s,\n    %s,\n)" % (tuple(plain), tuple(trump)))
    print("LONG_TRUMP_BONUS = %d" % round(w[-1]))
    return 0
