"""The AI seat of binokel: bidding, burying, the contract, and what a trick is worth to it.

What every rule set shares is in engine/ai/player.py; the two-hand games never
load this module (nor engine/ai/bidding.py and engine/melds.py).
"""

from engine import actions, cards
from engine.ai import levels, bidding
from engine.ai.player import Player
from engine.binokel import CONTRACT_DURCH

_SOLOIST_FIRST_TRICK = 150
_DURCH_TRICK = 500


class BinokelPlayer(Player):
    def __init__(self, rules, seat, level, seed, options, scratch=None):
        Player.__init__(self, rules, seat, level, seed, options, scratch)
        if levels.flag(self.p, levels.CONTRACTS):
            from engine.ai.expert import Expert, BidEstimate    # desktop only: the device never loads it
            self.expert = Expert(seed & 0xFFFFFFFF, levels.flag(self.p, levels.CONTRACTS))
            self.bid_estimate = BidEstimate(seed & 0xFFFFFFFF)

    def new_deal(self, deal):
        Player.new_deal(self, deal)
        if self.expert:
            self.expert.new_deal(deal)
            self.bid_estimate.new_deal(deal)

    # -- card play ------------------------------------------------------------------------

    def samples(self, obs):
        return levels.flag(self.p, levels.BSAMPLES) or self.p[levels.SAMPLES]

    def true_sample(self, obs, memory, rng, use_caps=True):
        Player.true_sample(self, obs, memory, rng, use_caps)
        state = self.open_state
        self.sampler.buried[:] = state.buried if state.dabb_shown else cards.counts_of(state.dabb)
        return True

    def fill_context(self, obs, ctx):
        me = self.seat
        ctx.rollout = self.rollout
        ctx.durch = obs.contract[0] == CONTRACT_DURCH
        ctx.bid = obs.bid
        for p in range(3):
            ctx.meld_points[p] = 0
            if obs.melds is not None:
                for _name, pts, _faces, _kind in obs.melds[p]:
                    ctx.meld_points[p] += pts
        ctx.strict = True
        ctx.melds_open = False
        ctx.soloist = obs.soloist
        ctx.last_trick = cards.count(obs.hand) == 1
        ctx.lose_bonus = 0
        bonus = 0
        if ctx.durch:                                   # one lost trick ends it
            bonus = _DURCH_TRICK
        elif obs.tricks_won[me] == 0:                   # a first trick makes his melds count
            bonus = ctx.meld_points[me]
            if me == obs.soloist:
                bonus += _SOLOIST_FIRST_TRICK
        ctx.win_bonus = bonus

    # -- before the first trick --------------------------------------------------------------

    def bid(self, obs):
        if self.bid_estimate is not None:
            a, v = self.bid_estimate.bid(obs, levels.flag(self.p, levels.CONTRACTS))
        else:
            a, v = bidding.bid(obs, self.p[levels.BID_MARGIN])
        self.decision = a
        self.why = "hand worth about %d" % v if a == actions.BID else "worth %d, short of %d" % (v, obs.bid + 10)

    def bury(self, obs):
        self.decision = bidding.bury(obs)
        pts = cards.points(self.decision - actions.BURY)
        self.why = "banks %d points" % pts if pts else "keeps the melds whole"

    def contract(self, obs):
        if self.expert is not None:
            a, v = self.expert.contract(obs, self.memory)
        else:
            a, v = bidding.contract(obs)
        self.decision = a
        if a == actions.DURCH:
            self.why = "every card is a winner"
        elif a >= actions.SURRENDER:
            self.why = "only about %d of %d" % (v, obs.bid)
        else:
            self.why = "about %d to make %d" % (v, obs.bid)
