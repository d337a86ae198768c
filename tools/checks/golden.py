"""Golden legal-action counts from fixed seeded positions (perft, as chess engines keep it).

    python -m tools golden [--check]

A position is a variant of a rule set (engine/variants.py), a seed, and a number of steps played
from the start with the engine's generator choosing among the legal actions
(never KNOCK). For each position the file holds perft(1..3): the number of
action sequences of that length from it. Any change in what is legal shows
up as a different count. tests/test_golden.py checks the file.
"""

import os
import sys

from engine import actions
from engine.rng import Rng
from engine.rules import new_game
from engine.variants import variants
from tools import ROOT, cli
from tools.selfplay import play

PATH = os.path.join(ROOT, "tests", "data", "golden_counts.txt")

# variant, seeds, steps played before counting
POSITIONS = (
    ("hoyle", (1, 2, 3), (0, 7, 21, 40, 60)),
    ("hoyle64", (4, 5), (0, 11, 35, 70)),
    ("french", (1, 2, 3), (0, 7, 21, 40, 60)),
    ("binokel", (1, 2, 3, 4), (0, 2, 6, 9, 20, 40)),
)
# Also, for these variants and seeds, the first announcement with at least
# RICH_OPTIONS choices (melds with cards from hand and table).
RICH = (("hoyle", range(10, 40)), ("french", range(10, 40)))
RICH_OPTIONS = 4
MAX_DEPTH = 3
MAX_NODES = 200000      # a deeper count is left out when it would pass this


def new_variant(variant, seed):
    """A new game of a variant of the registry's (KeyError for a name it has not)."""
    rules, options = dict((v[0], v[1:]) for v in variants())[variant]
    return new_game(rules, seed, options)


def generator_seat(seed):
    """A seat that draws among the legal actions with the engine's generator (never KNOCK)."""
    rng = Rng(seed)

    def choose(obs):
        legal = [a for a in obs.legal if a != actions.KNOCK] or obs.legal
        return legal[rng.below(len(legal))]
    return choose


def walk(variant, seed, steps):
    """The position `steps` generator-chosen actions into the seeded game."""
    state = new_variant(variant, seed)
    choose = generator_seat(seed)
    play(state, [choose] * state.PLAYERS, limit=steps)
    return state


def rich_or_past(state, obs):
    """An announcement decision with RICH_OPTIONS legal actions, melds among them; or deal 2."""
    legal = [a for a in obs.legal if a != actions.KNOCK] or obs.legal
    return state.deal_number != 1 or (any(actions.is_meld(a) for a in legal) and len(legal) >= RICH_OPTIONS)


def first_rich_announcement(variant, seed):
    """Steps to the first announcement decision of deal 1 with RICH_OPTIONS legal actions, or -1."""
    state = new_variant(variant, seed)
    steps = play(state, [generator_seat(seed)] * state.PLAYERS, rich_or_past)
    return steps if not state.is_game_over() and state.deal_number == 1 else -1


def positions():
    for variant, seeds, steps_list in POSITIONS:
        for seed in seeds:
            for steps in steps_list:
                yield variant, seed, steps
    for variant, seeds in RICH:
        for seed in seeds:
            steps = first_rich_announcement(variant, seed)
            if steps >= 0:
                yield variant, seed, steps


def perft(state, depth):
    if depth == 0 or state.is_game_over():
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for a in legal:
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def lines():
    out = []
    for variant, seed, steps in positions():
        state = walk(variant, seed, steps)
        counts = []
        for depth in range(1, MAX_DEPTH + 1):
            if counts and counts[-1] * max(1, counts[0]) > MAX_NODES:
                break
            counts.append(perft(state, depth))
        out.append("%s %d %d %s" % (variant, seed, steps,
                                       " ".join(str(c) for c in counts)))
    return out


HEADER = """# Legal-action counts from fixed seeded positions; regenerate with: python -m tools golden
# variant seed steps perft(1) perft(2) [perft(3)]
"""


def render():
    return HEADER + "\n".join(lines()) + "\n"


@cli.command("golden")
def main(argv):
    parser = cli.Parser("golden", __doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    opts = parser.parse_args(argv)
    text = render()
    if opts.check:
        with open(PATH) as fh:
            same = fh.read() == text
        print("golden counts: %s" % ("unchanged" if same else "DIFFERENT"))
        return 0 if same else 1
    os.makedirs(os.path.dirname(PATH), exist_ok=True)
    cli.write_whole(PATH, text)
    print("wrote %s (%d positions)" % (PATH, len(text.splitlines()) - 2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
