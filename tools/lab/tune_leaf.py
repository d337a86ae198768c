"""Fit the two-hand endgame leaf's correction (engine/ai/leaf.py LEAF_WEIGHTS) by self-play.

    python -m tools tune-leaf [--games N] [--seed S]

Plays N games of each two-hand rule set with hard in both seats. At every trick start of
the last tricks (the stock gone) with 3 to 12 cards in each hand it solves the position
exactly (engine/ai/endgame.py, no node limit) and scores it as the search's leaf does:
the mean of the two model playouts (leaf.py playouts()) and the terms of
leaf.py leaf_terms. A least-squares fit of 16 times what the playouts miss on those
terms gives the weights the engine ships; the command prints them with the leaf's error
against exact play, by cards in hand: the playouts alone, with the shipped weights and
with the fitted ones. Desktop only.
"""

import sys
import time

from tools import cli


def collect(rules, games, seed, progress):
    """[(cards in hand, exact points of player 0, playouts' mean, [term 0..7])]."""
    from engine import actions, cards
    from engine.ai import new_player
    from engine.ai.endgame import Solver
    from engine.ai.leaf import LEAF_WEIGHTS, leaf_terms, playouts
    from engine.rules import new_game
    from tools.selfplay import play
    exact = Solver(16, 12)
    masks = Solver(1, 12)                # only its start(): the rank masks and suit counts
    terms = len(LEAF_WEIGHTS)
    units = [tuple(1 if j == i else 0 for j in range(terms)) for i in range(terms)]
    rows = []
    solved_deal = None
    seen = None

    def capped(state, obs):
        return state.deal_number >= 30

    def score(state, p, obs, action):
        """At each trick start of the last tricks: the exact value and the leaf's terms."""
        nonlocal seen, solved_deal
        n = cards.count(state.hands[0])
        if (obs.turnup < 0 and state.trick_n == 0 and actions.is_play(obs.legal[0])
                and 3 <= n <= 12 and seen != (state.deal_number, n)):
            seen = (state.deal_number, n)
            if solved_deal != (g, seen[0]):
                exact.clear()        # entries stay true through a deal
                solved_deal = (g, seen[0])
            h0, h1 = bytearray(state.hands[0]), bytearray(state.hands[1])
            value = exact.solve(h0, h1, state.trump, state.leader, bytearray(2), 0, 1 << 30)[0]
            masks.start(h0, h1, state.trump, state.leader, bytearray(2), 0)
            mean = playouts(masks.rm, masks.sc, state.leader, state.trump, n) / 2.0
            rows.append((n, value, mean,
                         [leaf_terms(masks.rm, masks.sc, state.leader, state.trump, n, u) for u in units]))
    for g in range(games):
        state = new_game(rules, seed + g, 0)
        seats = [new_player(rules, p, "hard", seed + g, 0) for p in (0, 1)]
        seen = None
        play(state, seats, capped, score)
        if progress:
            progress(rules, g + 1, games, len(rows))
    return rows


def error_by_cards(rows, weights):
    """{cards: root mean square of exact - leaf} with the leaf corrected by weights."""
    sums = {}
    for n, value, mean, terms in rows:
        corr = sum(w * x for w, x in zip(weights, terms)) / 16.0
        s = sums.setdefault(n, [0, 0.0])
        s[0] += 1
        s[1] += (value - mean - corr) ** 2
    return {n: round((s[1] / s[0]) ** 0.5, 1) for n, s in sorted(sums.items())}


@cli.command("tune-leaf")
def main(argv):
    p = cli.Parser("tune-leaf", __doc__.split("\n\n")[0])
    p.add_argument("--games", type=cli.positive_int, default=60,
                   help="games of each two-hand rule set (default 60)")
    p.add_argument("--seed", type=cli.natural_int, default=101, help="first game seed (default 101)")
    args = p.parse_args(argv)
    from engine.ai.leaf import LEAF_WEIGHTS
    from engine.rules import RULE_SETS, kind, TWO_HAND
    from tools.lab.tune import least_squares
    start = time.time()

    def progress(rules, done, total, found):
        sys.stderr.write("\rtune-leaf: %s %d/%d games, %d positions  %.0f s"
                         % (rules, done, total, found, time.time() - start))
        if done == total:
            sys.stderr.write("\n")
    rows = []
    for rules in RULE_SETS:
        if kind(rules) == TWO_HAND:
            rows += collect(rules, args.games, args.seed, progress)
    terms = len(LEAF_WEIGHTS)
    if len(rows) < terms * 10:
        sys.stderr.write("tune-leaf: only %d positions, the fit needs %d: ask for more games\n"
                         % (len(rows), terms * 10))
        return 1
    fitted = least_squares([r[3] for r in rows], [16 * (r[1] - r[2]) for r in rows])
    fitted = tuple(int(round(w)) for w in fitted)
    print("positions %d; leaf error against exact play (root mean square, points) by cards in hand:"
          % len(rows))
    for name, w in (("playouts alone", (0,) * terms), ("shipped", LEAF_WEIGHTS), ("fitted", fitted)):
        print("  %-15s %s" % (name, " ".join("%d:%.1f" % kv for kv in error_by_cards(rows, w).items())))
    print("LEAF_WEIGHTS = %s" % (fitted,))
    return 0
