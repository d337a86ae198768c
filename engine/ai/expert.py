"""Expert only (desktop): binokel's soloist weighs his contract by playing sampled deals out;
in the two-hand games, the last tricks its search does not finish are played out.

Loaded by new_player (engine/ai/__init__.py) only for a level a board does not
offer (the expert), so the device never imports it.

Two hands (TwoHandExpert): the expert searches the last tricks exactly, with no
horizon; where that search runs out of nodes, each card is scored by the one
deal that fits what was seen, played out by rollout.py's model (the points
both still take).

After burying, the soloist takes bidding.py's trump (or its sure Durch) and
asks what it is worth: the two other hands are sampled from what he has seen
(engine/ai/sampler.py) and each deal is played to its end with every seat
following engine/ai/play.py's simple model, by engine/ai/rollout.py. His total
in a sample (card points, last trick, buried points, his melds if he took a
trick) is calibrated to what the hard level's play makes of such a deal (CAL_SLOPE,
CAL_OFFSET: fitted on 3,600 contracts, 1,200 deals with each seat made
soloist in turn and played out by hard: mean error 0, spread 23 points). The
contract scores his total where it reaches the bid, else minus twice the bid;
when that averages below minus the bid, surrendering (minus the bid) loses
less.

Bidding: the limit mixes bidding.py's hand value with the soloist's mean total
over sampled Dabbs and hands (BidEstimate), each deal played out by the same
model after bidding.py's burial and trump; the weights were chosen on 1,200
deals where each seat in turn was made soloist and the deal played out by
hard, the auctions replayed with this limit against hard's (+2.8 points a deal
there, with the surrender rule above).

Its own generators, seeded from the player's seed, leave the card-play
generator's sequence untouched. A bid decision plays out `contracts` deals
once per deal (about 15 ms), a contract decision as many (tools/lab/arena.py).
"""

from engine import actions, cards, melds
from engine.ai import bidding, levels
from engine.ai.binokel import BinokelPlayer
from engine.ai.rollout import Rollout
from engine.ai.sampler import Sampler
from engine.ai.twohand import TwoHandPlayer
from engine.rng import Rng

CAL_SLOPE = 98          # percent: calibrated total = CAL_SLOPE% of the model's total + CAL_OFFSET
CAL_OFFSET = 7
# The bid limit: BID_BASE + BID_VALUE% of bidding.py's hand value + BID_SAMPLED% of the mean
# total over sampled Dabbs (BidEstimate); hard's limit is the value + 5.
BID_BASE = 23
BID_VALUE = 70
BID_SAMPLED = 20


class ExpertPlayer(BinokelPlayer):
    """The binokel seat of a level with a `contracts` column: its bid limit from BidEstimate,
    its contract weighed by Expert; everything else as BinokelPlayer."""

    def __init__(self, rules, seat, level, seed, options, scratch=None):
        BinokelPlayer.__init__(self, rules, seat, level, seed, options, scratch)
        self.expert = Expert(seed & 0xFFFFFFFF, levels.flag(self.p, levels.CONTRACTS))
        self.bid_estimate = BidEstimate(seed & 0xFFFFFFFF)

    def new_deal(self, deal):
        BinokelPlayer.new_deal(self, deal)
        self.expert.new_deal(deal)
        self.bid_estimate.new_deal(deal)

    def bid_action(self, obs):
        return self.bid_estimate.bid(obs, levels.flag(self.p, levels.CONTRACTS))

    def contract_action(self, obs):
        return self.expert.contract(obs, self.memory)


class TwoHandExpert(TwoHandPlayer):
    """The two-hand seat of a level a board does not offer: TwoHandPlayer, with every card
    played out where its search of the last tricks runs out (playout())."""

    def __init__(self, rules, seat, level, seed, options, scratch=None):
        TwoHandPlayer.__init__(self, rules, seat, level, seed, options, scratch)
        self.rollout = Rollout(2)

    def fill_context(self, obs, ctx):
        TwoHandPlayer.fill_context(self, obs, ctx)
        ctx.playout = None if obs.turnup >= 0 else self.playout     # the last tricks: every card is known

    def playout(self, obs, ctx, sampler, memory, f):
        """The points this seat takes less the other's if it plays f and the deal is played out."""
        r = self.rollout
        if not r.run(sampler.hands, obs.trick, obs.leader, obs.trump, f, obs.player, cards.count(obs.hand)):
            return 0
        return r.pts[obs.player] - r.pts[1 - obs.player]

    def play_reason(self, obs, a):
        ch = self.chooser
        if ch.rolled:
            n = ch.totals[actions.play_face(a)] // ch.runs
            return "%s %d on average" % ("loses" if n < 0 else "gains", abs(n))
        return TwoHandPlayer.play_reason(self, obs, a)


class Expert:
    def __init__(self, seed, samples):
        self.samples = samples
        self.seed = (seed * 2654435761 + 12345) & 0xFFFFFFFF
        self.rng = Rng(self.seed)
        self.sampler = Sampler(3, True)            # binokel: three players, three hands
        self.work = [bytearray(32) for _ in range(3)]
        self.rollout = Rollout(3)
        self.pts = self.rollout.pts         # after play_out: card points taken, last trick included
        self.won = self.rollout.tricks      # and tricks taken

    def new_deal(self, deal):
        """A stream of its own for each deal, as the player's (engine/ai/player.py)."""
        self.rng.seed_deal(self.seed, deal)

    def contract(self, obs, memory):
        """(action, value): bidding.py's contract, or surrender when the samples say it fails."""
        a, v = bidding.contract(obs)
        if a == actions.DURCH:
            return a, v
        trump = a - actions.SURRENDER if a >= actions.SURRENDER else a - actions.TRUMP
        worth = self.expected(obs, memory, trump)
        if worth is None:
            return a, v
        if worth < -obs.bid:
            return actions.SURRENDER + trump, worth
        return actions.TRUMP + trump, worth

    def expected(self, obs, memory, trump):
        """The soloist's mean deal result with this trump over sampled deals (None: no sample)."""
        me = obs.player
        hand = obs.hand
        extra = melds.best_total(hand, trump) + cards.card_points(obs.buried)
        total = 0
        runs = 0
        for _ in range(self.samples):
            if not self.sampler.sample(obs, memory, self.rng):
                continue
            self.play_out(self.sampler.hands, obs.leader, trump)
            runs += 1
            if not self.won[me]:
                total -= 2 * obs.bid
                continue
            t = (self.pts[me] + extra) * CAL_SLOPE // 100 + CAL_OFFSET
            total += t if t >= obs.bid else -2 * obs.bid
        if not runs:
            return None
        return total // runs

    def play_out(self, hands, leader, trump):
        """The whole deal of these 15-card hands (left as they are) from its first lead, every
        seat by the rollout's model (fills pts, won; without cards nothing is taken)."""
        self.rollout.run(hands, b"", leader, trump, -1, leader, 15)


class BidEstimate:
    """The soloist's totals with a 15-card hand over sampled deals (the Dabb, the other hands)."""

    def __init__(self, seed):
        self.play = Expert(seed ^ 0x5A5A5A5A, 0)
        self.rng = self.play.rng
        self.unseen = bytearray(48)
        self.deal = -1
        self.limit = 0

    def new_deal(self, deal):
        """Its playouts draw from the deal's own stream (Expert.new_deal)."""
        self.play.new_deal(deal)

    def bid(self, obs, samples):
        """(action, limit): BID while the next bid stays within the limit, computed once a deal."""
        if self.deal != obs.deal_number:
            self.deal = obs.deal_number
            totals = self.run(obs.hand, obs.player, (obs.dealer + 1) % 3, samples)
            mean = sum(totals) // len(totals)
            _, v = bidding.best_trump(obs.hand)
            self.limit = BID_BASE + (BID_VALUE * v + BID_SAMPLED * mean) // 100
        if obs.bid + 10 <= self.limit and actions.BID in obs.legal:
            return actions.BID, self.limit
        return actions.PASS, self.limit

    def run(self, hand, me, forehand, samples):
        pack = cards.new_pack(False)
        n = 0
        for f in range(32):
            for _ in range(pack[f] - hand[f]):
                self.unseen[n] = f
                n += 1
        rng = self.rng
        work = self.play.work
        mine = bytearray(32)
        totals = []
        for _ in range(samples):
            for i in range(n - 1, 0, -1):
                j = rng.below(i + 1)
                self.unseen[i], self.unseen[j] = self.unseen[j], self.unseen[i]
            copy32(mine, hand)
            for i in range(3):
                mine[self.unseen[i]] += 1
            buried = 0
            for _k in range(3):
                f = bidding.cheapest_to_bury(mine)
                mine[f] -= 1
                buried += cards.points(f)
            trump, _v = bidding.best_trump(mine)
            meld = melds.best_total(mine, trump)
            copy32(work[me], mine)
            k = 3
            for q in (1, 2):
                h = work[(me + q) % 3]
                for f in range(32):
                    h[f] = 0
                for _k in range(15):
                    h[self.unseen[k]] += 1
                    k += 1
            self.play.play_out(work, forehand, trump)
            totals.append(self.play.pts[me] + buried + meld if self.play.won[me] else -1)
        return totals


def copy32(dst, src):
    """dst[:] = src without the slice object MicroPython would allocate."""
    for i in range(32):
        dst[i] = src[i]
