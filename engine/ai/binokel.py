"""The AI seat of binokel: bidding, burying, the contract, what a trick is worth to it, the
deal's result after a playout, and what the shown melds tell (BinokelMemory).

What every rule set shares is in engine/ai/player.py; the two-hand games never
load this module (nor engine/ai/bidding.py, engine/ai/rollout.py and engine/melds.py).
"""

from engine import actions, cards
from engine.ai import levels, bidding
from engine.ai.memory import Memory
from engine.ai.player import Player
from engine.ai.rollout import Rollout
from engine.binokel import CONTRACT_DURCH

_SOLOIST_FIRST_TRICK = 150
_DURCH_TRICK = 500


class BinokelMemory(Memory):
    """A binokel seat's memory (engine/ai/memory.py) with the shown melds, whose cards their
    players surely hold, and the Dabb's owner."""

    def reset(self, deal):
        Memory.reset(self, deal)
        self.dabb_owner = -1
        self.melds_seen = False

    def update_shown(self, obs):
        if obs.dabb is not None and obs.soloist >= 0:
            self.dabb_owner = obs.soloist
        if obs.melds is not None and not self.melds_seen:
            self.melds_seen = True       # shown once, before the first lead
            from engine.melds import KINDS     # (a meld is (name, points, faces, kind))
            for p in range(3):
                for kind in range(KINDS):
                    # A card serves once per meld type: count within a type, not across.
                    shown = bytearray(32)
                    for _name, _pts, faces, k in obs.melds[p]:
                        if k == kind:
                            for f in faces:
                                shown[f] += 1
                    for f in range(32):
                        if shown[f] > self.known[p][f]:
                            self.known[p][f] = min(2, shown[f])


class BinokelPlayer(Player):
    MEMORY = BinokelMemory

    def __init__(self, rules, seat, level, seed, options, scratch=None):
        Player.__init__(self, rules, seat, level, seed, options, scratch)
        self.rollout = None         # a level that plays its samples out: the Rollout (scratch's if it has one)
        if self.p[levels.ROLLOUTS]:
            self.rollout = scratch.rollout if scratch and scratch.rollout else Rollout(3)
            self.ctx.playout = self.playout

    # -- card play ------------------------------------------------------------------------

    def samples(self, obs):
        return levels.flag(self.p, levels.BSAMPLES) or self.p[levels.SAMPLES]

    def fill_context(self, obs, ctx):
        me = self.seat
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

    def playout(self, obs, ctx, sampler, memory, f):
        """This seat's deal result if it plays f and the sample is played out to the end
        (engine/ai/play.py's Chooser adds it up); a defender also gains by the soloist's loss."""
        rollout = self.rollout
        if not rollout.run(sampler.hands, obs.trick, obs.leader, obs.trump, f, obs.player, cards.count(obs.hand)):
            return 0
        me = obs.player
        gains_sol = deal_gain(obs, ctx, memory, sampler, rollout, ctx.soloist)
        if me == ctx.soloist:
            return gains_sol
        return deal_gain(obs, ctx, memory, sampler, rollout, me) - gains_sol // 2

    # -- before the first trick --------------------------------------------------------------

    def bid(self, obs):
        a, v = self.bid_action(obs)
        self.decision = a
        self.why = "hand worth about %d" % v if a == actions.BID else "worth %d, short of %d" % (v, obs.bid + 10)

    def bid_action(self, obs):
        """(BID or PASS, the hand's value); the desktop expert (engine/ai/expert.py) samples instead."""
        return bidding.bid(obs, self.p[levels.BID_MARGIN])

    def bury(self, obs):
        self.decision = bidding.bury(obs)
        pts = cards.points(self.decision - actions.BURY)
        self.why = "its %d points are yours" % pts if pts else "keeps your melds whole"

    def contract(self, obs):
        a, v = self.contract_action(obs)
        self.decision = a
        if a == actions.DURCH:
            self.why = "every card is a winner"
        elif a >= actions.SURRENDER:
            self.why = "can make only %d of %d" % (v, obs.bid)
        else:
            self.why = "can make about %d of %d" % (v, obs.bid)

    def contract_action(self, obs):
        """(action, the value it expects); the desktop expert plays sampled deals out instead."""
        return bidding.contract(obs)


def deal_gain(obs, ctx, memory, sampler, rollout, p):
    """Player p's result of the deal after a rollout: a made or lost game for the soloist, the
    points taken for a defender who took a trick; durch wins or loses 1000."""
    took = obs.tricks_won[p] + rollout.tricks[p]
    if ctx.durch:
        if p != ctx.soloist:
            return 0
        lost = 0
        for q in range(3):
            if q != p:
                lost += obs.tricks_won[q] + rollout.tricks[q]
        return -1000 if lost else 1000
    total = memory.cardpts[p] + rollout.pts[p]
    if took:
        total += ctx.meld_points[p]
    if p == ctx.soloist:
        total += cards.card_points(obs.buried if obs.buried is not None else sampler.buried)
        return total if took and total >= ctx.bid else -2 * ctx.bid
    return total if took else 0
