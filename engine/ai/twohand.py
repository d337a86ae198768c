"""The AI seat of the two-hand games (hoyle, french): announcements, knocking, the exact endgame,
and what the table shows (TwoHandMemory).

What every rule set shares is in engine/ai/player.py; a binokel game never
loads this module (nor engine/ai/announce.py, the meld data and engine/table.py),
and a two-hand game never loads engine/ai/rollout.py: hard's search of the last
tricks decides there.
"""

from engine import actions, cards, tricks
from engine import melddata as T
from engine.ai import levels, announce
from engine.ai.memory import Memory
from engine.ai.player import Player
from engine.ai.sampler import copies
from engine.rules import state_class, OPT_PACK64
from engine.table import TableCards
from engine.state import PH_PLAY

_OPP_MELD_HOPE = 12       # what a won stock trick is worth to the opponent in melds, on average
_ENDGAME_SLICE = 200      # solver nodes between two checks of the search's budget
_YIELD_NODES = 50         # solver nodes between two yields to the screen (a SAMD51's 50 ms or so)


class TwoHandMemory(Memory):
    """A two-hand seat's memory (engine/ai/memory.py) with what the table shows: the cards a
    player laid out in melds, the turn-up and who took it, the card shown for it."""

    def reset(self, deal):
        Memory.reset(self, deal)
        self.turnup = -1
        self.deal_points = None      # deal points at the last observation (who just scored)

    def update_shown(self, obs):
        for p in range(2):
            table = obs.tables[p]
            known = self.known[p]
            for r in table:
                n = copies(table, r & 31)
                if known[r & 31] < n:
                    known[r & 31] = n
        if obs.turnup >= 0:
            if self.turnup >= 0 and obs.turnup != self.turnup:
                self.exchanged(obs)
            self.turnup = obs.turnup
            self.deal_points = obs.deal_points
        elif self.turnup >= 0 and obs.turnup_taker is not None:
            taker, face = obs.turnup_taker
            self.add_known(taker, face)
            if obs.shown_card >= 0:
                self.add_known(1 - taker, obs.shown_card)
            self.turnup = -1

    def exchanged(self, obs):
        """The turn-up changed: whoever swapped the nine (and scored its 10) took the old turn-up."""
        other = 1 - obs.player
        before = self.deal_points
        if before is not None and obs.deal_points[other] > before[other]:
            self.add_known(other, self.turnup)

    def add_known(self, p, f):
        if self.known[p][f] < 2:
            self.known[p][f] += 1


class TwoHandPlayer(Player):
    MEMORY = TwoHandMemory

    def __init__(self, rules, seat, level, seed, options, scratch=None):
        Player.__init__(self, rules, seat, level, seed, options, scratch)
        self.table = scratch.table if scratch else TableCards()      # scratch: a table, to look for melds
        self.hand = scratch.hand if scratch else bytearray(32)
        self.found = scratch.found if scratch else []
        game = state_class(rules)       # the rule set's meld data (engine/melddata_*.py)
        self.kinds_by_trump = game.KINDS
        self.kind_count = game.KIND_COUNT
        self.kind_names = game.KIND_NAMES
        self.ponder_search = None       # pondering(): the search of the position it expects
        self.ponder_key = -1            # ... and that position (ponder_key_of())
        self.endgame_limit = self.endgame_nodes = 0     # search_endgame()'s budget and spending

    # -- knocking (hoyle) ----------------------------------------------------------------

    def my_count(self, obs):
        return obs.scores[self.seat] + self.memory.cardpts[self.seat]

    def can_knock(self, obs):
        return (self.p[levels.COUNTS] and self.p[levels.MEMORY] and self.memory.complete
                and actions.KNOCK in obs.legal and self.my_count(obs) >= obs.target)

    def final_knock(self, obs):
        if self.can_knock(obs):
            self.decision = actions.KNOCK
            self.why = "your %d reaches %d" % (self.my_count(obs), obs.target)
        else:
            self.decision = actions.PASS
            self.why = "your %d is short of %d" % (self.my_count(obs), obs.target)

    # -- card play ------------------------------------------------------------------------

    def play(self, obs):
        if self.can_knock(obs):
            self.final_knock(obs)               # knocks, with its reason
            return
        if self.endgame_reach(obs):
            for step in self.solve_endgame(obs):
                yield step
            if self.decision >= 0:
                return
        for step in Player.play(self, obs):
            yield step

    def samples(self, obs):
        samples = self.p[levels.SAMPLES]
        if obs.turnup < 0 and self.memory.complete:
            samples = min(samples, 1)          # the stock is gone: one deal fits what was seen
        return samples

    def fill_context(self, obs, ctx):
        stock = obs.turnup >= 0
        ctx.strict = not stock
        ctx.melds_open = stock and bool(self.p[levels.KEEPS])
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
        if best < 10 and obs.turnup >= 0 and obs.hand[obs.trump * 8 + (0 if self.options & OPT_PACK64 else 2)]:
            best = 10
        return best

    # -- the last tricks, searched --------------------------------------------------

    def endgame_reach(self, obs):
        """Stock gone, every card known, few enough tricks left for this level's search."""
        if obs.turnup >= 0 or not self.memory.complete:
            return False
        n = cards.count(obs.hand)
        return 0 < n and (n <= self.p[levels.ENDGAME] or levels.flag(self.p, levels.HORIZON) > 0)

    def solve_endgame(self, obs):
        """The last tricks searched (search_endgame) on the only deal that fits what was seen,
        or the search pondered for this position (pondering()) taken over. Leaves .decision -1
        if not even one search ends."""
        self.decision = -1
        if not self.sampler.sample(obs, self.memory, self.rng):
            self.ponder_search = None
            return
        search = self.ponder_search
        self.ponder_search = None
        if search is not None:              # his last card: the trick's, or his in the last trick
            f = obs.trick[0] if obs.trick else obs.last_trick[1 if obs.last_leader == self.seat else 0]
            if self.ponder_key != self.ponder_key_of(obs.deal_number, cards.count(obs.hand), obs.leader, len(obs.trick), f):
                search = None
        if search is not None:
            # What is left of the pondered search, within a decision's own budget
            self.endgame_limit = min(self.endgame_limit, self.endgame_nodes + self.endgame_budget(cards.count(obs.hand)))
        else:
            search = self.search_endgame(self.sampler.hands, obs.trump, obs.leader, obs.trick, obs.deal_number)
        for step in search:
            yield step
        move, ahead = self.endgame_move, self.endgame_ahead
        if move < 0:
            return
        self.decision = self.chooser.action_for(obs, move)
        m = cards.count(obs.hand)
        if self.solver.done and ahead >= m - 1:     # (the last trick, one card each, is forced)
            left = self.remaining(obs)
            mine = self.solver.value if self.seat == 0 else left - self.solver.value
            self.why = "gets you %d of %d left" % (mine, left)
        else:
            self.why = "looked %d trick%s ahead" % (ahead, "s" if ahead > 1 else "")

    def search_endgame(self, hands, trump, leader, trick, deal, extra=0):
        """Search in slices: exactly within reach of `endgame` (`nodes`), else a trick ahead,
        then two, ... within `horizon` nodes (a quarter of that when the exact search ran out),
        `extra` nodes more. hands: both hands (32 counts each), the leader's trick[0] already
        out of his (kept unchanged until the search ends); deal: the deal's number (the table
        is kept through a deal). Leaves .endgame_move (a face, -1 if not even one search ends)
        and .endgame_ahead (the tricks the search looked ahead). While it runs, .endgame_nodes
        is what it has spent and .endgame_limit what it may spend, which may be lowered."""
        from engine.ai.endgame import Solver
        p = self.p
        if self.solver is None:
            self.solver = Solver(p[levels.TT_BITS], p[levels.ENDGAME])
        if self.solver_deal != deal:
            self.solver.clear()             # entries of past deals only fill the table
            self.solver_deal = deal
        solver = self.solver
        m = cards.count(hands[leader]) + len(trick)     # cards in each hand at this trick's start
        exact = m <= p[levels.ENDGAME]
        ahead = m if exact else 1
        spent = self.endgame_nodes = 0      # nodes of the searches finished; all so far
        self.endgame_limit = extra + self.endgame_budget(m)
        move = -1
        while True:
            solver.start(hands[0], hands[1], trump, leader, bytearray(trick), len(trick),
                         m - ahead, move)
            done = False
            while not done and spent + solver.nodes < self.endgame_limit:
                # A slice in steps, yielding between them: the search resumes where it
                # stopped, so it ends where one step of the whole slice would.
                stop = solver.nodes + _ENDGAME_SLICE
                while not done and solver.nodes < stop:
                    done = solver.step(min(_YIELD_NODES, stop - solver.nodes))
                    self.endgame_nodes = spent + solver.nodes
                    yield 1
            spent += solver.nodes
            if not done and exact and m > 1 and levels.flag(p, levels.HORIZON):
                exact = False               # the exact search ran out: a trick ahead, two, ...
                ahead = 1                   # within a quarter of the horizon's nodes (a SAMD51's 2 s)
                self.endgame_limit = spent + (levels.flag(p, levels.HORIZON) >> 2)
                continue
            if not done:                    # a search cut short: its best is as good as the first
                if move >= 0 and solver.bmove[1] < 32:
                    move = solver.bmove[1]
                ahead -= 1
                break
            move = solver.move
            if ahead >= m - 1 or ahead == solver.tricks:    # exact (the last trick is forced),
                break                                       # or as deep as the stacks go
            ahead += 1
        self.endgame_move = move
        self.endgame_ahead = ahead

    def endgame_budget(self, m):
        """The nodes a decision searches with m cards in each hand: `nodes` where the exact
        search reaches, else `horizon`."""
        p = self.p
        return p[levels.NODES] if m <= p[levels.ENDGAME] else levels.flag(p, levels.HORIZON)

    # -- pondering: the last tricks searched on the opponent's time ------------------------

    def pondering(self, obs):
        """While the opponent decides (obs: this seat's observation), in the last tricks: guess
        his card by searching his position as this seat would its own, then search the position
        that card leads to with `ponder` nodes more than a decision has (.ponder_search). A
        generator, run on the opponent's time as far as it gets (the app: while the person
        chooses); if he plays the guessed card, solve_endgame() takes the search over, within a
        decision's budget. Anything else that searches on the shared solver (a hint) ends it."""
        self.ponder_search = None
        extra = levels.flag(self.p, levels.PONDER)
        if not extra:
            return
        if obs.deal_number != self.rng_deal:
            self.new_deal(obs.deal_number)
        self.observe(obs)
        if not self.endgame_reach(obs) or not self.sampler.sample(obs, self.memory, self.rng):
            return
        # The sampler's hands: every card is known, so solve_endgame() samples them again as
        # they are here, once his card is out, and the search may go on with them.
        hands = self.sampler.hands
        trump, leader, trick, deal = obs.trump, obs.leader, obs.trick, obs.deal_number
        mine = cards.count(obs.hand)
        obs = None                          # not kept while the person chooses
        for step in self.search_endgame(hands, trump, leader, trick, deal):
            yield step
        f = self.endgame_move
        if f < 0:
            return
        hands[1 - self.seat][f] -= 1
        if trick:                           # he completes the trick: its winner leads next
            leader = (leader + tricks.winning_index([trick[0], f], 2, trump)) % 2
            trick = []
        else:
            trick = [f]
        self.ponder_key = self.ponder_key_of(deal, mine, leader, len(trick), f)
        self.ponder_search = self.search_endgame(hands, trump, leader, trick, deal, extra)
        for step in self.ponder_search:
            yield step

    def ponder_key_of(self, deal, mine, leader, trick_n, card):
        """The position after the opponent's card as one int: the deal, this seat's cards in
        hand (the same until it plays), who leads and the trick's length (this seat's turn or
        not) and his card."""
        return (((deal * 16 + mine) * 2 + leader) * 2 + trick_n) * 32 + card

    def remaining(self, obs):
        """Card points still to win, the trick in progress and the last trick's 10 included."""
        total = cards.LAST_TRICK_POINTS
        for f in range(32):
            total += cards.points(f) * (2 - self.memory.played[f])
        for f in obs.trick:
            total += cards.points(f)
        return total

    # -- announcements ----------------------------------------------------------------------

    def announce(self, obs):
        self.chooser.fill_mine(obs)         # the hand and this seat's melded cards
        mine = self.chooser.mine
        left = (obs.stock_left + 1) // 2 if self.p[levels.PLANS] else 0
        a, pts = announce.choose(obs, self.kinds_by_trump[obs.trump], self.kind_count, mine, left,
                                 self.memory.played)
        self.decision = a
        if a == actions.PASS:
            self.why = "nothing worth melding"
        elif a == actions.EXCHANGE:
            self.why = "scores 10 and gets you %s" % cards.name(obs.turnup)
        else:
            self.why = "the biggest meld: %d" % pts
            for b in obs.legal:
                if actions.is_meld(b) and announce.meld_points(self.kinds_by_trump[obs.trump], b) > pts:
                    self.why = "%d now, it can grow later" % pts       # a meld that grows later
                    break
