"""Seeded fuzzing of the engine's action API: python -m tools fuzz [--games N] [--seed S] [--rules R] [--json]

    python -m tools fuzz --games 200 --seed 1 --rules hoyle,binokel

Every rule-set variant (hoyle, hoyle64, hoyle-nogrand, french, binokel) plays
N whole games, seeds S, S+1, ..., fed a stream of action ints: about one in
four is a legal action (uniform, but rare knocks so that deals run on), the
rest are near misses (cards not held, other sources, melds with the wrong
kind or sources, neighbours of legal codes) or any int at all (negative,
beyond 2**22, beyond 2**64). An int counts as legal exactly when it is in
legal_actions(); the engine must agree:

- an illegal int raises IllegalAction and changes nothing: the full state
  (every attribute, hidden cards and generator included), every player's
  observation key() and legal_actions() are compared before and after;
- a legal int is applied, and then every card of the pack is somewhere
  exactly once, the scores are the sum of the score sheet, every
  observation is well formed, a deal that ran to its last trick won 250
  points, a game over has a winner and no legal action, and a game not over
  has one;
- a clone at the end of each deal, and the replayed record of a finished
  game, equal the state.

The first failure stops the run (exit 1) with the command that replays that
one game. The stream of a game depends only on its seed and variant, and
comes from the engine's own generator (engine/rng.py), so counts are the
same on every Python.
"""

import json
import sys
import time
import traceback

from engine import actions, cards, record, rules
from engine.rng import Rng
from engine.rules import new_game
from engine.variants import variants
from engine.state import IllegalAction, append_varint
from engine.table import TableCards
from tools import cli
# The invariants are the ones the property tests check (tests/test_properties.py).
from tools.checks import invariants as H

# The registry's variants, name: (rule set, option bits, salt of the action stream: 0x1001 for
# the first, 0x2002 for the second ...).
VARIANTS = dict((v[0], (v[1], v[2], (i + 1) * 0x1001)) for i, v in enumerate(variants()))
ORDER = tuple(v[0] for v in variants())
DEFAULT_GAMES = 200
MAX_LEGAL = 50000       # random games end long before this; more means a game that never ends
AFTER_OVER = 6          # ints fed to a finished game
ACTION_LIMIT = 1 << 22  # actions.py: every action is below this

# Flaws that break no rule of play and are reported as warnings, not failures:
# counted once per position, with the first example. Name a kind in FATAL to
# make it a failure once the engine is clean of it.
WARNINGS = {
    "duplicate_legal": "legal_actions() names an action twice (skews perft counts and random players)",
    "unhashable_observation": "an observation's key() holds a list, so hash(observation) raises",
}
OBSERVATION_FIELDS = 36      # engine/observation.py: the fields of Observation.key()
# What the tricks of a deal played to its last trick hold: every card, and the last trick's bonus.
DEAL_TRICK_POINTS = cards.card_points(cards.new_pack(False)) + cards.LAST_TRICK_POINTS
FATAL = ("duplicate_legal", "unhashable_observation")


class FuzzFailure(Exception):
    """The engine broke a rule of the API or an invariant."""


def build_parser():
    p = cli.Parser("fuzz", "Random legal and illegal action ints against every rule set.")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help="games per rule-set variant (default %d)" % DEFAULT_GAMES)
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--rules", default="all",
                   help="all, or a comma-separated list of " + ", ".join(ORDER))
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return p


def check_args(args):
    """(variant names, games, seed); UsageError says what is wrong."""
    if args.games <= 0:
        raise cli.UsageError("--games must be positive, got %d" % args.games)
    if args.seed < 0 or args.seed + args.games - 1 > 0xFFFFFFFF:
        raise cli.UsageError("game seeds must lie in 0..4294967295")
    if args.rules == "all":
        names = list(ORDER)
    else:
        names = [n.strip() for n in args.rules.split(",")]
        for n in names:
            if n not in VARIANTS:
                raise cli.UsageError("unknown rule set %r (choose from all, %s)" % (n, ", ".join(ORDER)))
        names = [n for n in ORDER if n in names]   # fixed order, no repeats
    return names, args.games, args.seed


# -- fingerprints ------------------------------------------------------------------

def snapshot(v):
    """An immutable deep copy of a value of the state, for == after the fact."""
    t = type(v)
    if t is int or t is bytes or t is str or t is bool or v is None:
        return v
    if t is bytearray:
        return bytes(v)
    if t is tuple:
        try:
            hash(v)             # hashable: immutable all the way down (sheet rows), keep it
            return v
        except TypeError:
            return tuple([snapshot(x) for x in v])
    if t is list:
        return tuple([snapshot(x) for x in v])
    if t is Rng:
        return ("rng", v.get_state())
    if t is TableCards:
        return ("table",) + attrs(v)
    raise FuzzFailure("the state holds a %s, which the fuzzer cannot compare" % t.__name__)


def attrs(obj):
    # A leading underscore marks a cache or scratch buffer (legal-action
    # cache, meld picks): computing them is not a change of the state.
    return tuple([(k, snapshot(v)) for k, v in sorted(vars(obj).items()) if not k.startswith("_")])


def fingerprint(state):
    """Everything the state holds and shows: attributes, observations, legal actions."""
    return (attrs(state),
            tuple([state.observation(p).key() for p in range(state.PLAYERS)]),
            tuple(state.legal_actions()), tuple(state.scores()), state.current_player(),
            state.is_game_over(), state.winner())


def differences(before, after):
    """Names of what changed between two fingerprints (for the report)."""
    out = []
    a_attrs, b_attrs = dict(before[0]), dict(after[0])
    for k in sorted(set(a_attrs) | set(b_attrs)):
        if a_attrs.get(k, "<none>") != b_attrs.get(k, "<none>"):
            out.append(k)
    for i, what in ((1, "observations"), (2, "legal_actions()"), (3, "scores()"),
                    (4, "current_player()"), (5, "is_game_over()"), (6, "winner()")):
        if before[i] != after[i]:
            out.append(what)
    return ", ".join(out) or "nothing named"


# -- invariants --------------------------------------------------------------------

def require(ok, text, *args):
    if not ok:
        raise FuzzFailure(text % args if args else text)


def check_observation(state, p, warn):
    obs = state.observation(p)
    require(len(obs.key()) == OBSERVATION_FIELDS, "observation(%d) has %d fields", p, len(obs.key()))
    try:
        hash(obs.key())
    except TypeError as e:
        warn("unhashable_observation", "observation(%d): %s" % (p, e))
    require(obs.rules == state.RULES and obs.player == p, "observation(%d) names the wrong game or player", p)
    require(obs.phase == state.phase and obs.turn == state.current_player(),
            "observation(%d) has the wrong phase or turn", p)
    require(obs.scores == tuple(state.scores()) and obs.winner == state.winner(),
            "observation(%d) has the wrong scores or winner", p)
    require(obs.sheet == tuple(state.sheet), "observation(%d) has the wrong sheet", p)
    want = tuple(state.legal_actions()) if obs.turn == p else ()
    require(obs.legal == want, "observation(%d).legal %r, expected %r", p, obs.legal, want)
    hand = obs.hand
    require(isinstance(hand, bytes) and len(hand) == 32 and max(hand) <= 2,
            "observation(%d).hand is not 32 counts of 0..2", p)
    require(hand == bytes(state.hands[p]), "observation(%d).hand is not the player's hand", p)
    require(len(obs.hand_sizes) == state.PLAYERS, "observation(%d).hand_sizes has the wrong length", p)
    two_hand = rules.find(state.RULES)[rules.KIND] == rules.TWO_HAND
    own = cards.count(hand) + (state.tables[p].count() if two_hand else 0)   # melded cards too
    require(obs.hand_sizes[p] == own, "observation(%d).hand_sizes[%d] is %d, not %d",
            p, p, obs.hand_sizes[p], own)
    require(len(obs.trick) < state.PLAYERS and all(f < 32 for f in obs.trick),
            "observation(%d).trick is malformed", p)
    if not two_hand:
        require(obs.dabb is None or state.dabb_shown, "observation(%d) shows the Dabb too early", p)
        require(obs.buried is None or p == state.soloist, "observation(%d) shows another's buried cards", p)


def check_invariants(state, warn):
    """After every legal action: the state is whole. warn(kind, text) takes the WARNINGS."""
    census = H.card_census(state)
    if census != H.pack_of(state):
        raise FuzzFailure("card census %s is not the pack" % cards.format_counts(census))
    totals = H.sheet_totals(state)
    require(state.scores() == totals, "scores %r but the sheet adds up to %r", state.scores(), totals)
    legal = state.legal_actions()
    require(legal == sorted(legal), "legal_actions() is not sorted")
    for i in range(1, len(legal)):
        if legal[i] == legal[i - 1]:
            warn("duplicate_legal", "%d (%s)" % (legal[i], state.describe(legal[i])))
    require(all(0 <= a < ACTION_LIMIT for a in legal), "a legal action is outside 0..2**22")
    if state.is_game_over():
        require(0 <= state.winner() < state.PLAYERS, "game over without a winner")
        require(not legal and state.current_player() == -1, "game over but a player may still act")
    else:
        require(state.winner() == -1, "a winner %d before the game is over", state.winner())
        require(len(legal) > 0, "no legal action and the game is not over")
        require(0 <= state.current_player() < state.PLAYERS, "no player to act")
    for p in range(state.PLAYERS):
        check_observation(state, p, warn)


def check_deal_end(state):
    """Once a deal is scored: one sheet row for it, 250 trick points if it ran its course."""
    sheet = state.sheet
    require(len(sheet) == state.deal_number and sheet[-1][state.ROW_NUMBER] == state.deal_number,
            "deal %d over with %d sheet rows", state.deal_number, len(sheet))
    last = sheet[-1][state.ROW_SCORES]
    require(list(last) == state.scores(), "the sheet's last scores %r are not the scores %r",
            last, state.scores())
    if H.deal_finished_fully(state):
        pts = H.trick_points_of_deal(state)
        require(pts == DEAL_TRICK_POINTS, "the deal's tricks hold %d points, not %d", pts, DEAL_TRICK_POINTS)


# -- the action stream ----------------------------------------------------------------

def wide_int(rng):
    """Any int: small negatives, powers of two and their neighbours, big random ones."""
    k = rng.below(6)
    if k == 0:
        return -1 - rng.below(1000)
    if k == 1:
        return (1 << rng.below(80)) + rng.below(3) - 1
    if k == 2:
        return -(1 << rng.below(80)) + rng.below(3) - 1
    if k == 3:
        return rng.below(32768) << 16 | rng.next16()            # 0..2**31
    if k == 4:
        return actions.MELD + rng.below(32768) * 128 + rng.below(128)   # meld-shaped, mostly nonsense
    n = rng.next16() << 48 | rng.next16() << 32 | rng.next16() << 16 | rng.next16()
    return -n if rng.below(2) else n


def near_int(rng, state, legal):
    """An int close to a legal one: a card not held, another source, a meld gone wrong."""
    k = rng.below(6)
    if k == 0:                                   # any card from any source
        return rng.below(3) * 32 + rng.below(32)
    if k == 1:                                   # the specials and binokel codes, 96..159
        return actions.PASS + rng.below(64)
    if k == 2:                                   # a neighbour of a legal code
        a = legal[rng.below(len(legal))] if legal else actions.DEAL
        return a + (-65536, -64, -32, -4, -1, 1, 4, 32, 64, 65536)[rng.below(10)]
    melds = [a for a in legal if actions.is_meld(a)]
    if melds and k != 5:                         # a legal meld with its kind or one source changed
        a = melds[rng.below(len(melds))]
        if k == 3:
            return actions.meld(rng.below(26) - 1, actions.meld_sources(a))
        return a ^ (1 << rng.below(16)) if rng.below(2) else a | (3 << 2 * rng.below(8))
    return actions.meld(rng.below(24), rng.below(32768) * 2 + rng.below(2))


def pick_legal(rng, legal):
    """A legal action, uniform but knocking 1 time in 200 so that deals run to the end."""
    if actions.KNOCK in legal and len(legal) > 1 and rng.below(200):
        legal = [a for a in legal if a != actions.KNOCK]
    return legal[rng.below(len(legal))]


def next_int(rng, state, legal):
    """One int of the stream: 1 in 4 legal, the rest near misses or anything.

    legal is without duplicates, so the stream does not depend on them."""
    k = rng.below(8)
    if k < 2 and legal:
        return pick_legal(rng, legal)
    if k < 5:
        return near_int(rng, state, legal)
    return wide_int(rng)


# -- one game -------------------------------------------------------------------------

class Counts:
    def __init__(self):
        self.games = 0
        self.legal = 0
        self.illegal = 0
        self.deals = 0
        self.full_deals = 0   # deals that ran to the last trick (the 250-point check)
        self.warnings = {}    # kind: positions

    def as_dict(self):
        return {"games": self.games, "legal": self.legal, "illegal": self.illegal,
                "deals": self.deals, "full_deals": self.full_deals,
                "warnings": dict(sorted(self.warnings.items()))}

    def add(self, other):
        for k in ("games", "legal", "illegal", "deals", "full_deals"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for k, n in other.warnings.items():
            self.warnings[k] = self.warnings.get(k, 0) + n


class Game:
    """One fuzzed game; `step` and `last` locate a failure."""

    def __init__(self, variant, seed):
        self.variant = variant
        self.seed = seed
        rules, options, salt = VARIANTS[variant]
        self.state = new_game(rules, seed, options)
        self.rng = Rng((seed ^ (salt << 16)) & 0xFFFFFFFF)
        self.step = 0
        self.last = None
        self.counts = Counts()
        self.first = {}             # warning kind: where it was first seen

    def check_position(self):
        """Invariants of a position just reached; each kind of warning counts once here."""
        seen = {}

        def warn(kind, text):
            if kind in FATAL:
                raise FuzzFailure(WARNINGS[kind] + ": " + text)
            seen.setdefault(kind, text)

        check_invariants(self.state, warn)
        for kind, text in seen.items():
            self.counts.warnings[kind] = self.counts.warnings.get(kind, 0) + 1
            if kind not in self.first:
                self.first[kind] = {"rules": self.variant, "seed": self.seed, "step": self.step,
                                    "actions_applied": self.state.nactions, "text": text}

    def try_illegal(self, a, before):
        """Feed an illegal int: IllegalAction and no change, or a failure."""
        state = self.state
        try:
            state.apply(a)
        except IllegalAction:
            pass
        except Exception as e:
            raise FuzzFailure("illegal action %d raised %s: %s, not IllegalAction"
                              % (a, type(e).__name__, e))
        else:
            raise FuzzFailure("illegal action %d was accepted" % a)
        # Every attribute and the legal list after each int; the observations,
        # which are computed from those, once per run of illegal ints (check_unchanged).
        if attrs(state) != before[0] or tuple(state.legal_actions()) != before[2]:
            after = fingerprint(state)
            raise FuzzFailure("illegal action %d changed the state: %s" % (a, differences(before, after)))
        self.counts.illegal += 1

    def check_unchanged(self, before, ints):
        after = fingerprint(self.state)
        if after != before:
            raise FuzzFailure("the illegal actions %r changed the state: %s"
                              % (ints, differences(before, after)))

    def apply_legal(self, a):
        state = self.state
        history = bytearray(state.history)
        append_varint(history, a)
        n = state.nactions
        in_deal = not state.is_deal_over()
        try:
            state.apply(a)
        except Exception as e:
            raise FuzzFailure("legal action %d (%s) raised %s: %s"
                              % (a, state.describe(a), type(e).__name__, e))
        require(state.nactions == n + 1 and state.history == history,
                "the history does not record action %d", a)
        self.counts.legal += 1
        self.check_position()
        if in_deal and state.is_deal_over():
            check_deal_end(state)
            require(attrs(state.clone()) == attrs(state), "clone() differs from the state")
            self.counts.deals += 1
            self.counts.full_deals += H.deal_finished_fully(state)

    def run(self):
        state = self.state
        self.check_position()
        before = None               # fingerprint of the current position, taken once
        tried = []                  # the illegal ints fed to it
        while not state.is_game_over():
            require(self.counts.legal < MAX_LEGAL, "no end after %d legal actions", MAX_LEGAL)
            legal = sorted(set(state.legal_actions()))
            a = next_int(self.rng, state, legal)
            self.step += 1
            self.last = a
            if a in legal:
                if tried:
                    self.check_unchanged(before, tried)
                    before, tried = None, []
                self.apply_legal(a)
            else:
                if before is None:
                    before = fingerprint(state)
                self.try_illegal(a, before)
                tried.append(a)
        if tried:
            self.check_unchanged(before, tried)
        self.last = None
        again = record.replay(record.encode(state))
        require(attrs(again) == attrs(state), "the game's record does not replay to the same state")
        before = fingerprint(state)
        tried = []
        for _ in range(AFTER_OVER):    # nothing is legal any more, not even the usual codes
            self.step += 1
            usual = [actions.DEAL, actions.PASS, 0]
            a = near_int(self.rng, state, usual) if self.rng.below(2) else wide_int(self.rng)
            self.last = a
            self.try_illegal(a, before)
            tried.append(a)
        self.check_unchanged(before, tried)
        self.counts.games = 1
        return self.counts


# -- the run --------------------------------------------------------------------------

class Progress:
    """games done / total on stderr, rewritten in place a few times a second."""

    def __init__(self, total, out):
        self.total = total
        self.done = 0
        self.out = out
        self.shown = 0.0
        self.t0 = time.perf_counter()

    def step(self, variant):
        self.done += 1
        now = time.perf_counter()
        if self.done == self.total or now - self.shown >= 0.25:
            self.shown = now
            self.out.write("\rfuzz: %d/%d games (%s) %.0f s "
                           % (self.done, self.total, variant, now - self.t0))
            if self.done == self.total:
                self.out.write("\n")
            self.out.flush()

    def stop(self):
        if self.done < self.total:
            self.out.write("\n")
            self.out.flush()


def run(names, games, seed, progress=None):
    """{"rules": {variant: counts}, "total": counts, "failure": None or a dict,
    "warnings": {kind: where first seen}}."""
    per = {}
    total = Counts()
    failure = None
    first = {}
    for name in names:
        counts = Counts()
        per[name] = counts
        for i in range(games):
            game = Game(name, seed + i)
            try:
                counts.add(game.run())
            except Exception as e:   # FuzzFailure, or an engine crash outside apply()
                if isinstance(e, FuzzFailure):
                    text = str(e)
                else:
                    where = traceback.extract_tb(e.__traceback__)[-1]
                    text = "%s: %s (%s:%d)" % (type(e).__name__, e, where.filename, where.lineno)
                failure = {"rules": name, "game": i, "seed": seed + i, "step": game.step,
                           "actions_applied": game.state.nactions, "int": game.last,
                           "error": text,
                           "reproduce": "python -m tools fuzz --rules %s --seed %d --games 1"
                                        % (name, seed + i)}
                break
            finally:
                for kind, where in game.first.items():
                    first.setdefault(kind, where)
            if progress is not None:
                progress.step(name)
        total.add(counts)
        if failure:
            break
    return {"rules": {n: c.as_dict() for n, c in per.items()}, "total": total.as_dict(),
            "failure": failure, "warnings": first}


def text_report(result, games, seed, seconds):
    lines = ["fuzz: %d games per rule set from seed %d, %.1f s" % (games, seed, seconds),
             "%-14s %6s %9s %9s %7s %10s %8s" % ("rules", "games", "legal", "illegal", "deals",
                                                 "full deals", "warnings")]
    rows = list(result["rules"].items()) + [("total", result["total"])]
    for name, c in rows:
        lines.append("%-14s %6d %9d %9d %7d %10d %8d"
                     % (name, c["games"], c["legal"], c["illegal"], c["deals"], c["full_deals"],
                        sum(c["warnings"].values())))
    for kind, w in sorted(result["warnings"].items()):
        lines.append("warning: %s, in %d positions; first: %s seed %d after %d actions: %s"
                     % (WARNINGS[kind], result["total"]["warnings"][kind], w["rules"], w["seed"],
                        w["actions_applied"], w["text"]))
    f = result["failure"]
    if f is None:
        lines.append("no failures")
    else:
        lines.append("FAILURE in %s game %d (seed %d), step %d, after %d applied actions, int %r: %s"
                     % (f["rules"], f["game"], f["seed"], f["step"], f["actions_applied"], f["int"],
                        f["error"]))
        lines.append("reproduce: " + f["reproduce"])
    return "\n".join(lines) + "\n"


@cli.command("fuzz")
def main(argv):
    args = build_parser().parse_args(argv)
    names, games, seed = check_args(args)
    t0 = time.perf_counter()
    progress = Progress(games * len(names), sys.stderr)
    try:
        result = run(names, games, seed, progress)
    finally:
        progress.stop()
    seconds = time.perf_counter() - t0
    if args.json:
        out = {"seed": seed, "games": games, "seconds": round(seconds, 2)}
        out.update(result)
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        sys.stdout.write(text_report(result, games, seed, seconds))
    return 1 if result["failure"] else 0
