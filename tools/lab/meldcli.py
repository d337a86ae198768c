"""Best meld total of a hand, as JSON: python -m tools melds --rules R --trump S [--pack64] CARD ...

    binokel         15 cards; the best total rules.md binokel 5 allows (engine/melds.py)
    hoyle, french   12 cards; the best total a sequence of announcements from just
                    those cards can reach (rules.md hoyle 6: one meld each, a fresh
                    card each, the same-class rule), however many tricks it takes

The two-hand answer is a depth-first search over engine.table.TableCards, so the
legality of each step is the engine's own. The dix exchange is no meld and
is left out. 7s and 8s are cards of hoyle's 64-card pack only: a hand holds them
with --pack64 (rules.md common), and a hand without the option holding one is a
mistake of the command line.
"""

import json
import sys

from engine import cards, melds, melddata as T, melddata_hoyle
from engine.rules import (RULE_SETS, OPTIONS, OPT_NO_GRAND, OPT_PACK64, THREE_HAND, TWO_HAND, find, kind,
                          state_class)
from engine.table import TableCards, group_shift
from tools import cli

HAND_SIZE = {TWO_HAND: 12, THREE_HAND: 15}      # by the kind of deal (engine/rules.py)


def build_parser():
    p = cli.Parser("melds", "Best meld total of a hand under a rule set, as JSON.")
    p.add_argument("--rules", required=True, help="hoyle, french or binokel")
    p.add_argument("--trump", help="trump suit: S, H, D or C")
    p.add_argument("--no-grand", action="store_true", help="hoyle: without grand binocle")
    p.add_argument("--pack64", action="store_true", help="hoyle: the 64-card pack (7s and 8s)")
    p.add_argument("cards", nargs="*", metavar="CARD", help="e.g. AS TS 10S qh")
    return p


# -- reading the command line ---------------------------------------------------

def parse_trump(text):
    if text is None:
        raise cli.UsageError("--trump is required (S, H, D or C)")
    t = text.strip().upper()
    if len(t) != 1 or t not in cards.SUIT_CHARS:
        raise cli.UsageError("bad --trump %r (use S, H, D or C)" % text)
    return cards.SUIT_CHARS.index(t)


def parse_hand(words, rules, pack64=False):
    """32 counts of the cards named; UsageError names what is wrong. 7s and 8s only with
    pack64 (the caller has checked that the rule set has a 64-card pack)."""
    low = cards.lowest_rank(pack64)
    faces = []
    for w in words:
        try:
            f = cards.parse(w)
        except ValueError:
            raise cli.UsageError("bad card %r (use rank A T K Q J 9 or 10, suit S H D C)" % w)
        if cards.rank_of(f) < low:
            if find(rules)[OPTIONS] & OPT_PACK64:
                raise cli.UsageError("bad card %r: 7s and 8s need --pack64 (the 64-card pack)" % w)
            raise cli.UsageError("bad card %r: no 7s or 8s in the %s pack" % (w, rules))
        faces.append(f)
    need = HAND_SIZE[kind(rules)]
    if len(faces) != need:
        raise cli.UsageError("%s needs exactly %d cards, got %d" % (rules, need, len(faces)))
    try:
        return cards.counts_of(faces)
    except ValueError as e:
        raise cli.UsageError(str(e))


# -- binokel: every meld type at its best -------------------------------------------

def binokel_result(hand, trump):
    out = [{"name": n, "points": p, "cards": [cards.name(f) for f in fs]}
           for n, p, fs, _k in melds.best_melds(hand, trump)]
    return {"total": melds.best_total(hand, trump), "melds": out}


# -- hoyle and french: the best sequence of announcements ---------------------------

def state_key(table, hand):
    """Memo key: the hand, and per class each table card's face with its group's
    value, dead flag and faces.

    A meld of one class reads and relabels only that class's groups, so the
    classes are independent, and table copies of one face with equal group
    descriptions are interchangeable. Keying on this rather than on the raw
    records (whose group ids depend on the order the melds were made) merges
    every order of the same melds: the hardest hands found drop from ~20 s to
    ~0.3 s.
    """
    recs = table.recs
    members = {}
    for r in recs:
        for g in ((r >> 5) & 31, (r >> 10) & 31, (r >> 15) & 31):
            if g:
                members.setdefault(g, []).append(r & 31)
    desc = {0: ()}
    for g, fs in members.items():
        fs.sort()
        desc[g] = (table.gval[g], table.gdead[g], tuple(fs))
    per_class = []
    for cls in (T.CLASS_A, T.CLASS_B, T.CLASS_C):
        shift = group_shift(cls)
        cards_of = [(r & 31, desc[(r >> shift) & 31]) for r in recs]
        cards_of.sort()
        per_class.append(tuple(cards_of))
    return bytes(hand), tuple(per_class)


class AnnounceSearch:
    """Depth-first search for the most points a run of announcements can score."""

    def __init__(self, kinds, kind_count, names, skip_kind, nine):
        self.kinds = kinds
        self.kind_count = kind_count
        self.names = names
        self.skip_kind = skip_kind
        self.nine = nine            # trump nine face (french lone nine), or -1
        self.memo = {}

    def best(self, table, hand):
        """(points, kinds of the melds in order) of the best sequence from here.

        Only kinds are kept: a memo entry may come from an equivalent position
        whose table copies are numbered differently."""
        key = state_key(table, hand)
        found = self.memo.get(key)
        if found is not None:
            return found
        nine_ok = self.nine >= 0 and hand[self.nine] > 0
        options = []
        table.legal_melds(self.kinds, self.kind_count, hand, self.skip_kind, nine_ok, options)
        result = (0, ())
        for kind, sources in options:
            pts = table.check(self.kinds, kind, sources, hand)
            t2, h2 = table.copy(), bytearray(hand)
            t2.apply(self.kinds, kind, sources, h2)
            sub, seq = self.best(t2, h2)
            if pts + sub > result[0]:
                result = (pts + sub, (kind,) + seq)
        self.memo[key] = result
        return result

    def meld_faces(self, kind):
        """All faces of a kind, both copies where it needs both."""
        o = kind * T.KIND_STRIDE
        out = []
        for i in range(self.kinds[o + 2]):
            slot = self.kinds[o + 3 + i]
            out.extend([slot & 31] * (2 if slot & 32 else 1))
        return out

    def describe(self, seq):
        return [{"name": self.names[k], "points": self.kinds[k * T.KIND_STRIDE + 1] * 10,
                 "cards": [cards.name(f) for f in self.meld_faces(k)]} for k in seq]


def two_hand_search(rules, trump, no_grand=False):
    """The search under a two-hand rule set's meld table; no_grand leaves out grand binocle
    (a rule set with OPT_NO_GRAND: hoyle's table). The trump nine counts alone only where the
    table has a kind for it (french)."""
    game = state_class(rules)
    skip = melddata_hoyle.HOYLE_GRAND_BINOCLE if no_grand else -1
    return AnnounceSearch(game.KINDS[trump], game.KIND_COUNT, game.KIND_NAMES[trump], skip,
                          cards.face(trump, cards.R9))


def two_hand_result(rules, hand, trump, no_grand=False):
    search = two_hand_search(rules, trump, no_grand)
    total, seq = search.best(TableCards(), bytearray(hand))
    return {"total": total, "melds": search.describe(seq)}


# -- the command ------------------------------------------------------------------

def run(argv):
    args = build_parser().parse_args(argv)
    rules = args.rules.strip().lower()
    if rules not in RULE_SETS:
        raise cli.UsageError("unknown rule set %r (choose from %s)" % (args.rules, ", ".join(RULE_SETS)))
    if args.no_grand and not find(rules)[OPTIONS] & OPT_NO_GRAND:
        raise cli.UsageError("--no-grand belongs to hoyle")
    if args.pack64 and not find(rules)[OPTIONS] & OPT_PACK64:
        raise cli.UsageError("--pack64 belongs to hoyle")
    trump = parse_trump(args.trump)
    hand = parse_hand(args.cards, rules, args.pack64)
    if kind(rules) == THREE_HAND:
        return binokel_result(hand, trump)
    return two_hand_result(rules, hand, trump, args.no_grand)


@cli.command("melds")
def main(argv):
    result = run(argv)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0
