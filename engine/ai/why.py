"""The hint's reason: one short line from what the AI weighed for the decision it just made.

Only a seat that explains (Player.explain: the hint adviser) imports this
module, right after its decision, while what it computed is still in place:
the chooser's summed score per card (engine/ai/play.py), the hand and the
cards seen played, the solver's value, the bid's estimate. An AI seat never
loads it, and the app forgets it once the hint is worded.

    play(player, kind, obs, a, n) -> str

kind: the _WHY_* of engine/ai/player.py, twohand.py and binokel.py (card
play, the solved endgame, knocking, announcing, bidding, burying, the
contract); a: the action decided; n: the one number the decision weighed,
where one says it (the solver's points, the hand's estimate...).

A reason fits one line of the screen (_LINE characters) where it can, two
at most; cards are named as cards.name() does (the app shows "TH" as "10H").

Every name a module uses stays interned on the board once it is loaded (see
tools/names.py), so this module keeps to few functions and argument names,
named where it can after those the AI already has, and to strings of more
than 10 characters (shorter ones are interned too).
"""

from engine import actions, cards, tricks
from engine.ai import levels, values
from engine.cards import RA, RT, RK, RQ, RJ

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_LINE = const(26)


# -- card play by the chooser -------------------------------------------------------------

def play(p, kind, obs, a, n):
    """The reason for a decision of this kind (engine/ai/player.py's _WHY_*)."""
    return (choose, solve_endgame, final_knock, announce, bid, bury, contract)[kind](p, obs, a, n)


def choose(p, obs, a, n):
    """A card the chooser picked: by one trick over sampled deals, or by playing them out."""
    ch = p.chooser
    f = actions.play_face(a)
    faces = ch.candidates(obs)
    samples = p.samples(obs)
    last = len(obs.trick) == p.players - 1
    rolled = p.ctx.rollout is not None and len(faces) > 1 and samples
    runs = 1 if (last and not rolled) or not samples else samples      # as Chooser.choosing
    if rolled and not last:
        mine = ch.totals[f] // runs
        other, margin = -1, 0
        for g in faces:
            if g != f and (other < 0 or mine - ch.totals[g] // runs < margin):
                other, margin = g, mine - ch.totals[g] // runs
        if p.ctx.soloist < 0:
            return "played out: nets %+d" % mine
        if margin > 0:
            return "played out: %d over %s" % (margin, cards.name(other))
        return "played out: as good as any"
    if obs.trick:
        return follow(p, obs, f, faces)
    return lead(p, obs, f, faces)


def follow(p, obs, f, faces):
    ctx = p.ctx
    last = len(obs.trick) == p.players - 1
    trump = obs.trump
    best = obs.trick[tricks.winning_index(obs.trick, len(obs.trick), trump)]
    pts = cards.points(f) + (10 if ctx.last_trick and last else 0)
    for g in obs.trick:
        pts += cards.points(g)
    if tricks.beats(f, best, trump):
        if not last:
            return "beats %s: %d points so far" % (cards.name(best), pts)
        if ctx.last_trick:
            return "wins the last trick: %d" % pts
        if ctx.melds_open and ctx.win_bonus >= 20:
            return "wins %d points, melds %d" % (pts, ctx.win_bonus)
        return "wins the trick: %d points" % pts
    totals = p.chooser.totals
    winner = -1
    for g in faces:                 # the card that would have done best in this trick
        if tricks.beats(g, best, trump) and (winner < 0 or totals[g] > totals[winner]):
            winner = g
    if winner < 0:
        return "can't beat %s: gives %d" % (cards.name(best), cards.points(f))
    text = keeps(p, obs, winner)
    more = "; trick is %d" % pts
    return text + more if len(text) + len(more) <= _LINE else text


def lead(p, obs, f, faces):
    mine = p.chooser.mine
    ctx = p.ctx
    trump = obs.trump
    if f >> 3 == trump:
        out = 0
        for g in range(trump * 8, trump * 8 + 8):
            out += p.sampler.pack[g] - mine[g] - ctx.played[g]
        if out:
            return "draws trumps: %d still out" % out
        return "no trump is out: it wins"
    if values.is_top(f, mine, ctx.played):
        if ctx.melds_open and ctx.win_bonus >= 20:
            return "sure winner, then melds %d" % ctx.win_bonus
        return "nothing higher is out"
    if values.keep_value(f, mine, ctx.played, trump, False) < 0:     # a ten, its ace unseen
        return "unguarded ten: likely lost"
    kept = -1
    best = 0
    for g in faces:                 # what the lead spares: the card most worth keeping
        if g != f:
            k = values.keep_value(g, mine, ctx.played, trump, ctx.melds_open)
            if k > best:
                kept, best = g, k
    if kept < 0:
        return "risks %d, least useful" % cards.points(f)
    text = keeps(p, obs, kept)
    more = "; risks only %d" % cards.points(f)
    return text + more if len(text) + len(more) <= _LINE else text


def keeps(p, obs, f):
    """Why card f is worth more in hand: a meld it belongs to (values.meld_potential's), its
    power, its points."""
    mine = p.chooser.mine
    trump = obs.trump
    s = f >> 3
    r = f & 7
    if p.ctx.melds_open:
        meld = ""
        if (r == RK or r == RQ) and mine[s * 8 + (RQ if r == RK else RK)]:
            meld = "a trump marriage" if s == trump else "its marriage"
        elif f == 4 and mine[19] or f == 19 and mine[4]:          # Q spades, J diamonds
            meld = "the binocle"
        elif RJ <= r <= RA and r != RT:
            suits = 0
            for ss in range(4):
                if mine[ss * 8 + r]:
                    suits += 1
            if suits >= 3:
                meld = ("four jacks", "four queens", "four kings", "", "four aces")[r - RJ]
        if meld:
            return "keeps %s for %s" % (cards.name(f), meld)
    if s == trump:
        return "saves the trump %s" % cards.name(f)
    if values.is_top(f, mine, p.ctx.played):
        return "saves %s, a sure winner" % cards.name(f)
    return "saves %s for later" % cards.name(f)


# -- two hands ----------------------------------------------------------------------------

def solve_endgame(p, obs, a, n):
    """The exact endgame: n = the points this seat takes with best play, of all still to win."""
    return "solved: takes %d of %d" % (n, p.remaining(obs))


def final_knock(p, obs, a, n):
    """n = the seat's count."""
    if a == actions.KNOCK:
        return "your %d reaches %d" % (n, obs.target)
    return "your %d is short of %d" % (n, obs.target)


def announce(p, obs, a, n):
    """n = the points the announcement scores now."""
    from engine.ai import announce
    if a == actions.PASS:
        return "no meld worth laying now"
    if a == actions.EXCHANGE:
        return "scores 10 and takes %s" % cards.name(obs.turnup)
    kinds = p.kinds_by_trump[obs.trump]
    mine = bytearray(obs.hand)
    for r in obs.tables[p.seat]:
        mine[r & 31] += 1
    later = announce.extension_bonus(kinds, p.kind_count, actions.meld_kind(a), mine)
    if later and p.p[levels.PLANS] and (obs.stock_left + 1) // 2 >= announce._MIN_TRICKS_LEFT:
        return "%d now, grows into %d" % (n, later)
    for b in obs.legal:
        if actions.is_meld(b) and announce.meld_points(kinds, b) < n:
            return "the biggest meld: %d" % n
    return "%d while the stock lasts" % n


# -- binokel ------------------------------------------------------------------------------

def bid(p, obs, a, n):
    """n = the hand's estimated value (with the expert, its bid limit)."""
    if a == actions.BID:
        return "hand worth about %d" % n
    return "worth %d, short of %d" % (n, obs.bid + 10)


def bury(p, obs, a, n):
    from engine.ai import bidding
    from engine import melds
    f = a - actions.BURY
    hand = bytearray(obs.hand)
    trump, _ = bidding.best_trump(hand)
    s = f >> 3
    pts = cards.points(f)
    hand[f] -= 1
    kept = melds.best_total(hand, trump)
    if f & 7 == RT and not hand[s * 8 + RA]:      # a ten without its ace
        return "banks 10 of a bare ten"
    if pts:
        return "banks %d; melds %d kept" % (pts, kept) if kept else "banks %d, no meld lost" % pts
    length = 0
    for r in range(8):
        length += hand[s * 8 + r]
    return "voids %s to trump" % cards.SUIT_NAMES[s] if length == 0 else "the least loss"


def contract(p, obs, a, n):
    """n = the estimate of the hand (with the expert, the mean deal result)."""
    if a == actions.DURCH:
        return "every card is a winner"
    if a >= actions.SURRENDER:
        return "only about %d of %d" % (n, obs.bid)
    return "about %d to make %d" % (n, obs.bid)

