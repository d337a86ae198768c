"""The hint's reason: one short line from what the AI weighed for the decision it just made.

Only a seat that explains (Player.explain: the hint adviser) imports this
module, right after its decision, while what it computed is still in place:
the chooser's summed score per card (engine/ai/play.py), the hand and the
cards seen played, the solver's value, the bid's estimate. An AI seat never
loads it. Each function answers one kind of decision:

    reason(player, kind, obs, a, n) -> str    kind: the name of a function below

A reason fits one line of the screen (LINE characters) where it can, two at
most; cards are named as cards.name() does (the app shows "TH" as "10H").
"""

from engine import actions, cards, tricks
from engine.ai import levels, values
from engine.cards import RA, RT, RK, RQ, RJ

LINE = 26
_FOURS = ("jacks", "queens", "kings", "", "aces")     # rank code - RJ -> the four of a kind
_QS = 4
_JD = 19


def reason(player, kind, obs, a, n):
    return globals()[kind](player, obs, a, n)


def fit(first, then):
    """first, with then added when the two still fit one line."""
    both = first + then
    return both if len(both) <= LINE else first


# -- card play by the chooser -------------------------------------------------------------

def play(player, obs, a, n):
    """A card chosen by the chooser: n is its score (the trick's or the played-out deal's)."""
    ch = player.chooser
    f = actions.play_face(a)
    faces = ch.candidates(obs)
    if ch.rolled and len(obs.trick) < player.players - 1:
        return played_out(player, obs, f, faces)
    if obs.trick:
        return follow(player, obs, f, faces)
    return lead(player, obs, f, faces)


def score(ch, f):
    return ch.totals[f] // ch.runs


def trick_points(obs, f, last_trick):
    pts = cards.points(f) + (10 if last_trick else 0)
    for g in obs.trick:
        pts += cards.points(g)
    return pts


def follow(player, obs, f, faces):
    ctx = player.ctx
    trump = obs.trump
    best = obs.trick[tricks.winning_index(obs.trick, len(obs.trick), trump)]
    last = len(obs.trick) == player.players - 1
    pts = trick_points(obs, f, ctx.last_trick and last)
    if tricks.beats(f, best, trump):
        if not last:
            return "beats %s: %d points so far" % (cards.name(best), pts)
        if ctx.last_trick:
            return "wins the last trick: %d" % pts
        if ctx.melds_open and ctx.win_bonus >= 20:
            return "wins %d points, melds %d" % (pts, ctx.win_bonus)
        return "wins the trick: %d points" % pts
    winner = -1
    for g in faces:                 # the card that would have done best in this trick
        if tricks.beats(g, best, trump) and (winner < 0 or score(player.chooser, g) > score(player.chooser, winner)):
            winner = g
    if winner < 0:
        return "can't beat %s: gives %d" % (cards.name(best), cards.points(f))
    return fit(keeps(player, obs, winner), "; trick is %d" % pts)


def lead(player, obs, f, faces):
    ch = player.chooser
    ctx = player.ctx
    trump = obs.trump
    if f >> 3 == trump:
        out = 0
        for g in range(trump * 8, trump * 8 + 8):
            out += player.sampler.pack[g] - ch.mine[g] - ctx.played[g]
        if out:
            return "draws trumps: %d still out" % out
        return "no trump is out: it wins"
    if values.is_top(f, ch.mine, ctx.played):
        if ctx.melds_open and ctx.win_bonus >= 20:
            return "sure winner, then melds %d" % ctx.win_bonus
        return "nothing higher is out"
    if values.keep_value(f, ch.mine, ctx.played, trump, False) < 0:     # a ten, its ace unseen
        return "%s would fall to the ace" % cards.name(f)
    kept = -1
    best_keep = 0
    for g in faces:                 # what the lead spares: the card most worth keeping
        if g != f:
            k = values.keep_value(g, ch.mine, ctx.played, trump, ctx.melds_open)
            if k > best_keep:
                kept, best_keep = g, k
    risks = "risks %d" % cards.points(f) if cards.points(f) else "risks nothing"
    if kept < 0:
        return risks + ", least useful"
    return fit(keeps(player, obs, kept), "; " + risks)


def keeps(player, obs, g):
    """Why card g is worth more in hand: a meld it belongs to, its power, its points."""
    ch = player.chooser
    mine = ch.mine
    trump = obs.trump
    name = cards.name(g)
    if player.ctx.melds_open:
        meld = meld_of(g, mine, trump)
        if meld:
            return "keeps %s for %s" % (name, meld)
    if g >> 3 == trump:
        return "saves the trump " + name
    if values.is_top(g, mine, player.ctx.played):
        return fit("saves " + name, ", a sure winner")
    return "saves " + name


def meld_of(g, mine, trump):
    """The meld in hand that card g is part of (values.meld_potential's), or ""."""
    s = g >> 3
    r = g & 7
    if (r == RK or r == RQ) and mine[s * 8 + (RQ if r == RK else RK)]:
        return "a trump marriage" if s == trump else "a marriage"
    if g == _QS and mine[_JD] or g == _JD and mine[_QS]:
        return "the binocle"
    if r >= RJ and r <= RA:
        suits = 0
        for ss in range(4):
            if mine[ss * 8 + r]:
                suits += 1
        if suits >= 3:
            return "four " + _FOURS[r - RJ]
    return ""


def played_out(player, obs, f, faces):
    """Rollouts: each card was played to the end of the deal in every sample."""
    ch = player.chooser
    mine = score(ch, f)
    other = -1
    for g in faces:
        if g != f and (other < 0 or score(ch, g) > score(ch, other)):
            other = g
    margin = mine - score(ch, other) if other >= 0 else 0
    if player.ctx.soloist < 0:
        first = "played out: nets %+d" % mine
        return fit(first, "; %d over %s" % (margin, cards.name(other))) if margin > 0 else first
    if margin > 0:
        return "played out: %d over %s" % (margin, cards.name(other))
    return "played out: as good as any"


# -- two hands ----------------------------------------------------------------------------

def solved(player, obs, a, n):
    """The exact endgame: n = the points this seat takes with best play, of all still to win."""
    return "solved: takes %d of %d" % (n, player.remaining(obs))


def knock(player, obs, a, n):
    if a == actions.KNOCK:
        return "your %d reaches %d" % (n, obs.target)
    return "your %d is short of %d" % (n, obs.target)


def announce(player, obs, a, n):
    """n = the points the announcement scores now."""
    from engine.ai import announce as A
    if a == actions.PASS:
        return "no meld worth laying now"
    if a == actions.EXCHANGE:
        return "scores 10 and takes " + cards.name(obs.turnup)
    kinds = player.kinds_by_trump[obs.trump]
    mine = bytearray(obs.hand)
    for r in obs.tables[player.seat]:
        mine[r & 31] += 1
    later = A.extension_bonus(kinds, player.kind_count, actions.meld_kind(a), mine)
    if later and player.p[levels.PLANS] and (obs.stock_left + 1) // 2 >= A._MIN_TRICKS_LEFT:
        return "%d now, grows into %d" % (n, later)
    for b in obs.legal:
        if actions.is_meld(b) and A.meld_points(kinds, b) < n:
            return "the biggest meld: %d" % n
    return "%d while the stock lasts" % n


# -- binokel ------------------------------------------------------------------------------

def bid(player, obs, a, n):
    """n = the hand's estimated value (with the expert, its bid limit)."""
    if a == actions.BID:
        return "hand worth about %d" % n
    return "worth %d, short of %d" % (n, obs.bid + 10)


def bury(player, obs, a, n):
    from engine.ai import bidding
    from engine import melds
    f = a - actions.BURY
    hand = bytearray(obs.hand)
    trump, _ = bidding.best_trump(hand)
    s = f >> 3
    pts = cards.points(f)
    if f & 7 == RT and not hand[s * 8 + RA]:      # a ten without its ace
        first = "banks 10 of a bare ten"
    elif pts:
        first = "banks %d" % pts
    else:
        length = 0
        for r in range(8):
            length += hand[s * 8 + r]
        first = "voids %s" % cards.SUIT_NAMES[s] if length == 1 else "the least loss"
    hand[f] -= 1
    kept = melds.best_total(hand, trump)
    return fit(first, "; melds %d kept" % kept) if kept else fit(first, "; no meld lost")


def contract(player, obs, a, n):
    if a == actions.DURCH:
        return "every card is a winner"
    if a >= actions.SURRENDER:
        return "only about %d of %d" % (n, obs.bid)
    return "about %d to make %d" % (n, obs.bid)
