"""An AI seat: it remembers the deal from its observations and decides each phase.

    _BY_PHASE      phase of the observation -> the method that answers it
    thinking(obs)  a generator: yields between samples so the app can redraw,
                   then leaves the action in .decision and a reason in .why
    choose(obs)    runs thinking() to the end and returns the action
    hint(obs)      the same, as (action, one-line reason) for the player's hint button

A player sees only what its observations show; `open_state` (the real game
state) is set only by the desktop arena to measure what seeing every card
would be worth, and then the sampler deals the true cards.
"""

from engine import actions, cards
from engine.ai import levels, announce, bidding
from engine.ai.memory import Memory
from engine.ai.play import Chooser
from engine.ai.rollout import Rollout
from engine.ai.sampler import Sampler
from engine.rng import Rng
from engine.state import PH_BETWEEN
from engine import tables as T

_OPP_MELD_HOPE = 12       # what a won stock trick is worth to the opponent in melds, on average
_SOLOIST_FIRST_TRICK = 150
_DURCH_TRICK = 500
_PACK64 = 1
_ENDGAME_SLICE = 200      # solver nodes between two yields to the screen

# Phase (engine/state.py PH_*, 0..7) -> the method deciding it; "play" thinks in slices.
_BY_PHASE = ("play", "announce", "final_knock", "bid", "bury", "contract", "decide_only", "decide_only")


class Context:
    """What the card chooser needs to know about this decision."""

    def __init__(self):
        self.strict = True
        self.last_trick = False
        self.win_bonus = 0
        self.lose_bonus = 0
        self.soloist = -1
        self.played = None
        self.melds_open = False
        self.infers = True
        self.rollout = None         # a Rollout when the level plays deals out (binokel)
        self.durch = False
        self.bid = 0
        self.meld_points = [0, 0, 0]


class Player:
    def __init__(self, rules, seat, level, seed, options):
        self.rules = rules
        self.seat = seat
        self.level = level
        self.p = levels.params(level)
        self.rng = Rng(seed & 0xFFFFFFFF)
        self.options = options
        self.players = 3 if rules == "binokel" else 2
        pack64 = rules == "hoyle" and options & _PACK64
        stock_tricks = 0 if rules == "binokel" else (20 if pack64 else 12)
        self.memory = Memory(self.players, stock_tricks)
        self.sampler = Sampler(self.players, bool(pack64))
        self.chooser = Chooser(self.players)
        self.rollout = Rollout(self.players, self.chooser) if self.p[levels.ROLLOUTS] else None
        self.ctx = Context()
        self.expert = None
        self.bid_estimate = None
        if rules == "binokel" and levels.flag(self.p, levels.CONTRACTS):
            from engine.ai.expert import Expert, BidEstimate    # desktop only: the device never loads it
            self.expert = Expert(self.chooser, seed & 0xFFFFFFFF, levels.flag(self.p, levels.CONTRACTS))
            self.bid_estimate = BidEstimate(self.chooser, seed & 0xFFFFFFFF)
        self.no_memory = bytearray(32)
        self.open_state = None
        self.solver = None
        self.solver_deal = -1
        self.decision = -1
        self.why = ""
        if rules != "binokel":
            from engine.table import Table
            self.table = Table()            # scratch: this seat's table, to look for melds
            self.hand = bytearray(32)
            self.found = []
        if rules == "hoyle":
            from engine import tables_hoyle as K
            self.kinds_by_trump = K.HOYLE_KINDS
            self.kind_count = K.HOYLE_KIND_COUNT
            self.kind_names = K.HOYLE_KIND_NAMES
        elif rules == "french":
            from engine import tables_french as K
            self.kinds_by_trump = K.FRENCH_KINDS
            self.kind_count = K.FRENCH_KIND_COUNT
            self.kind_names = K.FRENCH_KIND_NAMES

    # -- the interface ------------------------------------------------------------------

    def choose(self, obs):
        for _ in self.thinking(obs):
            pass
        return self.decision

    def hint(self, obs):
        action = self.choose(obs)
        return action, self.why

    def thinking(self, obs):
        if self.p[levels.MEMORY]:
            self.memory.update(obs)
        else:
            self.memory.reset(obs.deal_number)
        name = "decide_only" if len(obs.legal) == 1 else _BY_PHASE[obs.phase]
        if name == "play":
            for step in self.play(obs):
                yield step
        else:
            getattr(self, name)(obs)

    def decide_only(self, obs):
        self.decision = obs.legal[0]
        self.why = "the only choice" if obs.phase != PH_BETWEEN else "deal the next hand"

    # -- knocking (hoyle) ----------------------------------------------------------------

    def my_count(self, obs):
        return obs.scores[self.seat] + self.memory.cardpts[self.seat]

    def can_knock(self, obs):
        return (self.p[levels.COUNTS] and self.p[levels.MEMORY] and self.memory.complete
                and actions.KNOCK in obs.legal and self.my_count(obs) >= obs.target)

    def final_knock(self, obs):
        if self.can_knock(obs):
            self.decision = actions.KNOCK
            self.why = "knock: your count is %d, the game is %d" % (self.my_count(obs), obs.target)
        else:
            self.decision = actions.PASS
            self.why = "do not knock: %d is short of %d" % (self.my_count(obs), obs.target)

    # -- card play ------------------------------------------------------------------------

    def play(self, obs):
        if self.can_knock(obs):
            self.decision = actions.KNOCK
            self.why = "knock: your count is %d, the game is %d" % (self.my_count(obs), obs.target)
            return
        if self.endgame_reach(obs):
            for step in self.solve_endgame(obs):
                yield step
            if self.decision >= 0:
                return
        ctx = self.context(obs)
        samples = self.p[levels.SAMPLES]
        if self.rules == "binokel" and levels.flag(self.p, levels.BSAMPLES):
            samples = levels.flag(self.p, levels.BSAMPLES)
        if self.rules != "binokel" and obs.turnup < 0 and self.memory.complete:
            samples = min(samples, 1)          # the stock is gone: one deal fits what was seen
        if self.open_state is not None:
            self.sampler.sample = self.true_sample
        for step in self.chooser.choosing(obs, self.memory, self.sampler, self.rng, samples, ctx):
            yield step
        self.decision = self.chooser.chosen
        self.why = self.play_reason(obs, self.decision)

    # -- the two-hand last tricks, solved exactly --------------------------------------------

    def endgame_reach(self, obs):
        """Stock gone, every card known, few enough tricks left for this level's budget."""
        if self.rules == "binokel" or obs.turnup >= 0 or not self.memory.complete:
            return False
        return 0 < cards.count(obs.hand) <= self.p[levels.ENDGAME]

    def solve_endgame(self, obs):
        """Exact search in slices; leaves .decision -1 if the budget runs out first."""
        from engine.ai.endgame import Solver
        if self.solver is None:
            self.solver = Solver(self.p[levels.TABLE_BITS])
        if self.solver_deal != obs.deal_number:
            self.solver.clear()             # entries of past deals only fill the table
            self.solver_deal = obs.deal_number
        self.decision = -1
        if self.open_state is not None:
            self.true_sample(obs, self.memory, self.rng)
        elif not self.sampler.sample(obs, self.memory, self.rng):
            return
        hands = self.sampler.hands          # the stock is gone: the only consistent deal
        solver = self.solver
        solver.start(hands[0], hands[1], obs.trump, obs.leader, bytearray(obs.trick), len(obs.trick))
        budget = self.p[levels.NODES]
        done = False
        while not done and solver.nodes < budget:
            done = solver.step(_ENDGAME_SLICE)
            yield 1
        if done and solver.move >= 0:
            self.decision = self.chooser.action_for(obs, solver.move)
            mine = solver.value if self.seat == 0 else self.remaining(obs) - solver.value
            self.why = "%s: best play takes %d of the %d points left" % (
                cards.name(solver.move), mine, self.remaining(obs))

    def remaining(self, obs):
        """Card points still to win, the trick in progress and the last trick's 10 included."""
        total = 10
        for f in range(32):
            total += cards.points(f) * (2 - self.memory.played[f])
        for f in obs.trick:
            total += cards.points(f)
        return total

    def context(self, obs):
        ctx = self.ctx
        ctx.played = self.memory.played if self.p[levels.MEMORY] else self.no_memory
        ctx.infers = bool(self.p[levels.INFERS])
        if self.rules == "binokel":
            self.binokel_context(obs, ctx)
        else:
            self.two_hand_context(obs, ctx)
        return ctx

    def two_hand_context(self, obs, ctx):
        stock = obs.turnup >= 0
        ctx.strict = not stock
        ctx.melds_open = stock and bool(self.p[levels.KEEPS])
        ctx.rollout = None if stock else self.rollout      # the last tricks: every card is known
        ctx.soloist = -1
        held = cards.count(obs.hand) + len(obs.tables[self.seat])
        ctx.last_trick = not stock and held == 1
        ctx.win_bonus = self.meld_hope(obs) if stock else 0
        ctx.lose_bonus = _OPP_MELD_HOPE if stock else 0

    def meld_hope(self, obs):
        """Points of the best announcement this seat could make after winning this trick."""
        table = self.table
        del table.recs[:]
        for r in obs.tables[self.seat]:
            table.recs.append(r)
        groups = obs.groups[self.seat]
        for i in range(32):
            table.gval[i] = groups[i]
            table.gdead[i] = groups[32 + i]
        for f in range(32):
            self.hand[f] = obs.hand[f]
        kinds = self.kinds_by_trump[obs.trump]
        found = self.found
        del found[:]
        table.legal_melds(kinds, self.kind_count, self.hand, -1, True, found)
        best = 0
        for kind, _ in found:
            pts = kinds[kind * T.KIND_STRIDE + 1] * 10
            if pts > best:
                best = pts
        if best < 10 and obs.turnup >= 0 and obs.hand[obs.trump * 8 + (0 if self.options & _PACK64 else 2)]:
            best = 10
        return best

    def binokel_context(self, obs, ctx):
        me = self.seat
        ctx.rollout = self.rollout
        ctx.durch = obs.contract[0] == 4
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
        if obs.contract[0] == 4:                       # Durch: one lost trick ends it
            bonus = _DURCH_TRICK
        elif obs.tricks_won[me] == 0:
            if obs.melds is not None:
                for _name, pts, _faces in obs.melds[me]:
                    bonus += pts
            if me == obs.soloist:
                bonus += _SOLOIST_FIRST_TRICK
        ctx.win_bonus = bonus

    def true_sample(self, obs, memory, rng, use_caps=True):
        """Open cards (desktop measurement): the sample is the real deal."""
        state = self.open_state
        for p in range(self.players):
            hand = self.sampler.hands[p]
            hand[:] = state.hands[p]
        if self.rules == "binokel":
            self.sampler.buried[:] = state.buried if state.dabb_shown else cards.counts_of(state.dabb)
        return True

    def play_reason(self, obs, a):
        f = actions.play_face(a)
        name = cards.name(f)
        if obs.trick:
            best = obs.trick[0]
            from engine import tricks
            best = obs.trick[tricks.winning_index(obs.trick, len(obs.trick), obs.trump)]
            if tricks.beats(f, best, obs.trump):
                return "%s takes the trick" % name
            return "%s: let this trick go cheaply" % name
        return "lead %s" % name

    # -- announcements (two-hand) ------------------------------------------------------------

    def announce(self, obs):
        mine = bytearray(obs.hand)
        for r in obs.tables[self.seat]:
            mine[r & 31] += 1
        left = (obs.stock_left + 1) // 2 if self.p[levels.PLANS] else 0
        played = self.memory.played if self.p[levels.MEMORY] else self.no_memory
        a, pts = announce.choose(obs, self.kinds_by_trump[obs.trump], self.kind_count, mine, left, played)
        self.decision = a
        if a == actions.PASS:
            self.why = "nothing worth announcing"
        else:
            self.why = "%s: %d points" % (self.describe_announcement(obs, a), pts)

    def describe_announcement(self, obs, a):
        if a == actions.EXCHANGE:
            return "exchange the trump nine"
        return "meld " + self.kind_names[obs.trump][actions.meld_kind(a)]

    # -- binokel before the first trick --------------------------------------------------------

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
