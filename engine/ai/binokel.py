"""The AI seat of binokel: bidding, burying, the contract, and what a trick is worth to it.

What every rule set shares is in engine/ai/player.py; the two-hand games never
load this module (nor engine/ai/bidding.py and engine/melds.py).
"""

from engine import actions, cards, melds
from engine.ai import levels, bidding
from engine.ai.player import Player
from engine.binokel import CONTRACT_DURCH
from engine.cards import RA, RT, RK, RQ, RJ, R9
from engine.tables_binokel import FAMILY_PAIRS

_SOLOIST_FIRST_TRICK = 150
_DURCH_TRICK = 500
_BID_SLACK = 30           # a bid or a pass is read as the hand's value within this many points
_REFITS = 3               # deals dealt again when one does not fit the melds and the auction
_SIG = 10                 # meld signature: 4 family codes, 4 fours (A K Q J), binokel, trump nines
_FOURS = (RA, RK, RQ, RJ)
_QS = 4
_JD = 19


class BinokelPlayer(Player):
    def __init__(self, rules, seat, level, seed, options):
        Player.__init__(self, rules, seat, level, seed, options)
        if levels.flag(self.p, levels.CONTRACTS):
            from engine.ai.expert import Expert, BidEstimate    # desktop only: the device never loads it
            self.expert = Expert(self.chooser, seed & 0xFFFFFFFF, levels.flag(self.p, levels.CONTRACTS))
            self.bid_estimate = BidEstimate(self.chooser, seed & 0xFFFFFFFF)
        if levels.flag(self.p, levels.READS):
            self.sampler.fits = self.fits
            self.sampler.refits = _REFITS
        self.sig = bytearray(3 * _SIG)  # the meld signature each player's shown melds imply
        self.sig_deal = -1
        self.nine = -1
        self.work = bytearray(32)

    # -- card play ------------------------------------------------------------------------

    def samples(self, obs):
        return levels.flag(self.p, levels.BSAMPLES) or self.p[levels.SAMPLES]

    def true_sample(self, obs, memory, rng, use_caps=True, again=False):
        Player.true_sample(self, obs, memory, rng, use_caps)
        state = self.open_state
        self.sampler.buried[:] = state.buried if state.dabb_shown else cards.counts_of(state.dabb)
        return True

    def fill_context(self, obs, ctx):
        me = self.seat
        if self.sampler.fits is not None:
            shown = obs.melds is not None and obs.trump >= 0
            if shown and self.sig_deal != obs.deal_number:
                self.read_melds(obs)
            self.sampler.allow = self.allow if shown else None
        ctx.rollout = self.rollout
        ctx.durch = obs.contract[0] == CONTRACT_DURCH
        ctx.bid = obs.bid
        for p in range(3):
            ctx.meld_points[p] = 0
            if obs.melds is not None:
                for _name, pts, _faces in obs.melds[p]:
                    ctx.meld_points[p] += pts
        ctx.strict = True
        ctx.melds_open = False
        ctx.soloist = obs.soloist
        ctx.last_trick = cards.count(obs.hand) == 1
        ctx.lose_bonus = 0
        bonus = 0
        if obs.contract[0] == CONTRACT_DURCH:          # one lost trick ends it
            bonus = _DURCH_TRICK
        elif obs.tricks_won[me] == 0:
            if obs.melds is not None:
                for _name, pts, _faces in obs.melds[me]:
                    bonus += pts
            if me == obs.soloist:
                bonus += _SOLOIST_FIRST_TRICK
        ctx.win_bonus = bonus

    # -- what the melds and the auction say about the hidden hands ----------------------------

    def fits(self, obs):
        """Does the sampled deal give every other player his shown melds exactly (and, reading
        the auction too, the soloist a hand worth about his bid, and no one who passed more
        than the bid he passed at)? A hand's worth is bidding.py's with the named trump: no
        more than with his best suit, so a pass caps it; a defender's own bids say nothing
        sure about it (he bid for his best suit), and are not read."""
        memory = self.memory
        shown = obs.melds is not None and obs.trump >= 0
        auction = levels.flag(self.p, levels.READS) > 1 and obs.trump >= 0
        hands = self.sampler.hands
        h = self.work
        for p in range(3):
            if p == self.seat:
                continue
            hand = hands[p]
            o = p * 32
            for f in range(32):
                h[f] = hand[f] + memory.by[o + f]      # his hand when the melds were shown
            if shown and not same_melds(h, obs.trump, self.sig, p * _SIG):
                return False
            if not auction:
                continue
            lo = 0                          # the soloist bid this much (for his best suit then)
            if p == obs.soloist:
                lo = obs.bid
                if obs.buried is None and obs.dabb is not None:
                    for f in range(32):                  # and before he took the Dabb
                        h[f] += self.sampler.buried[f]
                    for f in obs.dabb:
                        if h[f]:
                            h[f] -= 1
            hi = memory.passed_at[p]
            if lo or hi:
                v = bidding.trick_estimate(h, obs.trump) + self.ctx.meld_points[p]
                if (lo and v < lo - _BID_SLACK) or (hi and v > hi + _BID_SLACK):
                    return False
        return True

    def allow(self, p, f):
        """Would one more f leave player p's melds within those he showed? (Melds only grow
        with cards, so a deal that goes beyond them cannot come back.)"""
        r = f & 7
        if r < RJ and f != self.nine:
            return True
        h = self.sampler.hands[p]
        by = self.memory.by
        o = p * 32
        sig = self.sig
        q = p * _SIG
        s = f & 24
        if r >= RJ:
            code = 0
            for rr in (RA, RT, RK, RQ, RJ):
                code = code * 3 + h[s + rr] + by[o + s + rr] + (rr == r)
            code = FAMILY_PAIRS[code]
            trump = s == self.nine & 24
            if code != sig[q + (s >> 3)] and melds.family_points(code, trump) > melds.family_points(
                    sig[q + (s >> 3)], trump):
                return False
        if r != RT and r >= RJ:
            low = 2
            for t in range(0, 32, 8):
                c = h[t + r] + by[o + t + r] + (t == s)
                if c < low:
                    low = c
            if low > sig[q + 4 + _FOURS.index(r)]:
                return False
        if f == _QS or f == _JD:
            a = h[_QS] + by[o + _QS] + (f == _QS)
            b = h[_JD] + by[o + _JD] + (f == _JD)
            if (2 if a >= 2 and b >= 2 else (1 if a and b else 0)) > sig[q + 8]:
                return False
        if f == self.nine:
            return h[f] + by[o + f] < sig[q + 9]
        return True

    def read_melds(self, obs):
        """self.sig from the melds each player showed (engine/melds.py best_melds names them)."""
        sig = self.sig
        for i in range(3 * _SIG):
            sig[i] = 0
        for p in range(3):
            o = p * _SIG
            for name, _pts, faces in obs.melds[p]:
                f = faces[0]
                if "pair" in name:
                    sig[o + (f >> 3)] += 4
                elif "family" in name:
                    sig[o + (f >> 3)] += 2 if "double" in name else 1
                elif "binokel" in name:
                    sig[o + 8] = 2 if "double" in name else 1
                elif "nine" in name:
                    sig[o + 9] += 1
                else:
                    sig[o + 4 + _FOURS.index(f & 7)] = 2 if "eight" in name else 1
        self.sig_deal = obs.deal_number
        self.nine = obs.trump * 8 + R9

    # -- before the first trick --------------------------------------------------------------

    def bid(self, obs):
        if self.bid_estimate is not None:
            a, v = self.bid_estimate.bid(obs, levels.flag(self.p, levels.CONTRACTS))
        else:
            a, v = bidding.bid(obs, self.p[levels.BID_MARGIN])
        self.decision = a
        self.why = "%s: the hand is worth about %d" % ("bid %d" % (obs.bid + 10) if a == actions.BID else "pass", v)

    def bury(self, obs):
        self.decision = bidding.bury(obs)
        self.why = "bury %s" % cards.name(self.decision - actions.BURY)

    def contract(self, obs):
        if self.expert is not None:
            a, v = self.expert.contract(obs, self.memory)
        else:
            a, v = bidding.contract(obs)
        self.decision = a
        if a == actions.DURCH:
            self.why = "durch: every card is a winner"
        elif a >= actions.SURRENDER:
            self.why = "surrender: about %d against a bid of %d" % (v, obs.bid)
        else:
            self.why = "%s trump: about %d for a bid of %d" % (cards.SUIT_NAMES[a - actions.TRUMP], v, obs.bid)


def same_melds(h, trump, sig, o):
    """The hand h (32 counts) has exactly the melds of signature sig[o:o + _SIG]."""
    for s in range(4):
        if melds.family_code(h, s) != sig[o + s]:
            return False
    for i in range(4):
        r = _FOURS[i]
        low = 2
        for s in range(4):
            if h[s * 8 + r] < low:
                low = h[s * 8 + r]
        if low != sig[o + 4 + i]:
            return False
    q = h[_QS]
    j = h[_JD]
    if (2 if q == 2 and j == 2 else (1 if q and j else 0)) != sig[o + 8]:
        return False
    return h[trump * 8 + R9] == sig[o + 9]

