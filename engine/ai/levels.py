"""What each AI level may spend and remember. Levels differ in knowledge and budget, never in sight.

    memory      remembers the cards played and infers voids (easy forgets)
    samples     sampled deals per card decision (engine/ai/play.py); hard's 30 instead of 20
                measured no closer to the expert in french (800 games: +6.44 points a deal,
                95% 3.65 to 9.23, against +6.40) and took a SAMD51 876 ms at p95 (571 with 20)
    endgame     tricks left at which the two-hand endgame is solved exactly (also the deepest
                search to a horizon). Hard's 6: at 7 cards its 1,500 nodes ran out in 49 of 191
                french positions (20 hard v hard games), where a search to a horizon within 900
                gives away 0.42 points a deal to exact play instead of 0.78 (hoyle: 0.43 and
                0.60), in at most 1,099 nodes instead of 2,246
    nodes       node budget of the exact endgame search
    tt_bits     the endgame's transposition table holds 2**tt_bits entries (8 bytes each + 3.3-3.8 KB);
                hard's 2**7 solves about as many endgames as 2**8 and 2**9 within its 1500
                nodes (hard v hard, seeds 1-20: hoyle 910 of 928 decisions, 928 of 944 with
                2**8, 930 of 944 with 2**9; french 1,120 of 1,139, 1,139 of 1,155 with 2**8) in
                4,176 bytes instead of 5,200 and 7,248, which a PyBadge's heap needs
    bid_margin  points of safety kept below the hand's value when bidding
    counts      counts its own card points, so it knocks as soon as it can (hoyle)
    infers      reads voids and short suits from the play (else samples ignore them), and a
                binokel defender reads the contract (engine/ai/sampler.py _SOLOIST_ODDS)
    plans       lays a small meld first when a bigger one can grow out of it later
    rollouts    plays each sample to the end of the deal instead of one trick (binokel; in the
                two-hand games only the expert, where its search of the last tricks runs out)
    keeps       values cards for the melds they may still make (two-hand stock phase)

Columns past these are optional (a shorter row reads 0, see flag()).

    horizon     two-hand last tricks beyond `endgame`'s reach, or where that exact search runs
                out of `nodes`: node budget of a search a trick ahead, then two, ...
                (engine/ai/endgame.py; a quarter of it after an exact search ran out), the rest of
                the deal played out by rollout.py's models, their mean corrected by terms of
                the hands fitted against exact play (`python -m tools tune-leaf`; 0: rollouts
                alone). Hard's 900, a leaf charged 1 + half its cards, keeps a SAMD51 within
                1 s at p95 and 2 s at most (`python -m tools bench`). Against the expert
                (`python -m tools endgame-loss --rules R --games 40 --cards 7-12 --against
                expert`, seed 1) hard's seat gives away about 2.2 points a deal to exact play
                in hoyle and 2.2-2.4 in french; the playouts' mean alone gave 0.07-0.50 a deal
                more on four fixed sets of 1,345-2,349 such positions. Paired arenas (expert v
                hard, french, seeds 1-80 with the seats both ways; the per-deal streams keep
                two versions' games alike): the expert's exact 12 tricks in hard's row bring the
                expert's lead down by 5.65 points a deal (standard error 0.57), a horizon of
                1,800 by 1.25 (0.52), a table of 2**10 entries by -0.10 (0.32). After an exact
                search ran out, a quarter of the horizon instead of half cut hard's longest
                decision from 2,184 to 1,853 nodes (6 french games, hard in both seats) for
                -0.09 (0.07) over seeds 1-240, 462 of the 480 games the same. Not kept
                (seeds 1-240): a trick deeper only while the nodes left are 3 times those of
                the search just finished, -0.20 (0.13), though it spent a third fewer nodes
                and gave away no more to exact play on 4,549 fixed positions; a third
                playout that draws trumps first, with its leaf refitted, -0.03 (0.24); one
                playout instead of two (the cashing one, refitted; half the leaf's time)
                gave away 2,458-2,517 points on those positions against 2,213
    contracts   binokel: sampled deals played out to set the bid limit and to decide to
                surrender (engine/ai/expert.py, desktop only; a device level keeps 0):
                0: bidding.py's heuristics alone
    bsamples    binokel: sampled deals per card decision, instead of `samples` (0: samples).
                Binokel plays every sample out: 20 samples there took about 3 times the time
                of 6 (max 1.45 s on a SAMD51 by the bench), and the expert's
                40 measured no better than 6 there (180 games: -0.3 points a deal, 95% -7.6
                to 7.0)
    ponder      two-hand last tricks, on the opponent's time: nodes more than a decision's
                for the search of the position the seat expects after the opponent's card
                (TwoHandPlayer.pondering; 0: none). Hard's 1,300: the guess is right 64% of
                the time; 0.93 a deal (standard error 0.22) nearer the expert, french, seeds
                1-240 paired, and over 4,000 games from seed 1 the expert's lead +4.65 (95%
                3.43 to 5.86) against +5.4 without
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

MEMORY = const(0)
SAMPLES = const(1)
ENDGAME = const(2)
NODES = const(3)
BID_MARGIN = const(4)
COUNTS = const(5)
INFERS = const(6)
PLANS = const(7)
ROLLOUTS = const(8)
KEEPS = const(9)
TT_BITS = const(10)
HORIZON = const(11)
CONTRACTS = const(12)
BSAMPLES = const(13)
PONDER = const(14)

#          memory samples endgame nodes   bid_margin counts infers plans rollouts keeps tt_bits [horizon contracts bsamples ponder]
LEVELS = (
    ("easy",   (0,     0,     0,     0,      40,        0,     0,     0,    0,       0,    0)),
    ("normal", (1,     3,     4,     150,    20,        1,     0,     0,    0,       0,    8)),
    ("hard",   (1,     20,    6,     1500,   10,        1,     1,     1,    1,       1,    7,      900,    0,        6,        1300)),
    ("expert", (1,     40,    12,    200000, 10,        1,     1,     1,    1,       1,    14,     0,      40,       6)),
)


def params(level):
    for name, p in LEVELS:
        if name == level:
            return p
    raise ValueError("unknown level %r" % level)


def flag(p, column):
    """p[column], or 0 for a row that stops short of an optional column."""
    return p[column] if len(p) > column else 0
