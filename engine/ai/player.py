"""An AI seat: it remembers the deal from its observations and decides each phase.

    _BY_PHASE      phase of the observation -> the method that answers it
    thinking(obs)  a generator: yields between samples, playouts and search steps so the
                   app can redraw, then leaves the action in .decision and a reason in .why
    choose(obs)    runs thinking() to the end and returns the action
    hint(obs)      the same, as (action, one-line reason) for the player's hint button

Player holds what every rule set shares (the memory, the sampler, card play);
what only one kind of game decides or remembers is in a subclass, so a game
loads only its own: TwoHandPlayer (engine/ai/twohand.py: announcements,
knocking, the exact endgame; its MEMORY, TwoHandMemory, reads the table and
the turn-up) and BinokelPlayer (engine/ai/binokel.py: bidding, burying, the
contract, the playouts; BinokelMemory reads the shown melds). new_player
(engine/ai/__init__.py) picks one.

A player sees only what its observations show (the desktop arena's --open-a
replaces its sampler's sample() with the real deal, to measure what seeing
every card would be worth).
"""

from engine import actions, cards
from engine.ai import levels, values
from engine.ai.play import Chooser
from engine.ai.sampler import Sampler
from engine.rng import Rng
from engine.rules import find, PLAYERS, KIND, THREE_HAND, OPTIONS, OPT_PACK64
from engine.state import PH_BETWEEN

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
        self.melds_open = False
        self.playout = None         # binokel's hard: (obs, ctx, sampler, memory, f) -> a card's deal result
        self.durch = False
        self.bid = 0
        self.meld_points = [0, 0, 0]


class Player:
    def __init__(self, rules, seat, level, seed, options, scratch=None):
        self.seat = seat
        self.p = levels.params(level)
        self.seed = seed & 0xFFFFFFFF
        self.rng = Rng(self.seed)
        self.rng_deal = 1               # the deal whose stream self.rng draws from (new_deal)
        self.options = options
        game = find(rules)
        players = self.players = game[PLAYERS]
        three_hand = game[KIND] == THREE_HAND
        pack64 = options & game[OPTIONS] & OPT_PACK64
        stock_tricks = 0 if three_hand else (20 if pack64 else 12)   # binokel has no stock
        self.memory = self.MEMORY(players, stock_tricks)     # the subclass's kind of Memory
        # Working buffers, rewritten by every decision that uses them, so two seats that never
        # think at the same time may share them (scratch: the app's hint adviser and a seat).
        self.sampler = scratch.sampler if scratch else Sampler(players, three_hand, bool(pack64))
        self.chooser = scratch.chooser if scratch else Chooser(players)
        ctx = self.ctx = Context()
        ctx.played = self.memory.played     # all 0 at a level without memory (observe())
        ctx.infers = bool(self.p[levels.INFERS])
        self.solver = None
        self.solver_deal = -1
        self.decision = -1
        self.why = ""

    # -- the interface ------------------------------------------------------------------

    def choose(self, obs):
        for _ in self.thinking(obs):
            pass
        return self.decision

    def hint(self, obs):
        action = self.choose(obs)
        return action, self.why

    def observe(self, obs):
        """Remember what obs shows (a level without memory forgets the deal instead).

        thinking() does it first; the app does it for a seat shown an observation it does
        not decide on (the hint adviser at the person's decisions, a resumed game's replay)."""
        if self.p[levels.MEMORY]:
            self.memory.update(obs)
        else:
            self.memory.reset(obs.deal_number)

    def thinking(self, obs):
        if obs.deal_number != self.rng_deal:
            self.new_deal(obs.deal_number)
        self.observe(obs)
        name = "decide_only" if len(obs.legal) == 1 else _BY_PHASE[obs.phase]
        if name == "play":
            for step in self.play(obs):
                yield step
        else:
            getattr(self, name)(obs)

    def new_deal(self, deal):
        """Draw this deal's random numbers from its own stream of the seat's seed (the first
        deal's is the seed's own). So two versions of the AI that part at one card play alike
        again from the next deal, and comparing them measures them, not two games gone apart."""
        self.rng_deal = deal
        self.rng.seed_deal(self.seed, deal)

    def decide_only(self, obs):
        self.decision = obs.legal[0]
        self.why = "the only choice" if obs.phase != PH_BETWEEN else "deal the next hand"

    def can_knock(self, obs):
        """The app asks it in every game, for its hint; only hoyle knocks (TwoHandPlayer)."""
        return False

    # -- card play ------------------------------------------------------------------------

    def play(self, obs):
        """Sampled deals decide the card (the subclasses may answer first)."""
        ctx = self.context(obs)
        samples = self.samples(obs)
        for step in self.chooser.choosing(obs, self.memory, self.sampler, self.rng, samples, ctx):
            yield step
        self.decision = self.chooser.chosen
        self.why = self.play_reason(obs, self.decision)

    def samples(self, obs):
        """Sampled deals for this card decision."""
        return self.p[levels.SAMPLES]

    def context(self, obs):
        self.fill_context(obs, self.ctx)
        return self.ctx

    def fill_context(self, obs, ctx):
        """Hook: the rule set's part of the Context."""
        raise NotImplementedError

    def play_reason(self, obs, a):
        """What the chooser weighed for card a, in a line of the screen (the hint's reason)."""
        from engine import tricks
        ch = self.chooser
        f = actions.play_face(a)
        pts = cards.points(f)
        if ch.rolled:                       # every sample played out to the deal's end (binokel)
            other = -1
            for g in ch.candidates(obs):
                if g != f and (other < 0 or ch.totals[g] > ch.totals[other]):
                    other = g
            margin = (ch.totals[f] - ch.totals[other]) // ch.runs
            if margin > 0:
                return "does %d better than %s" % (margin, cards.name(other))
            return "%s would do as well" % cards.name(other)
        if obs.trick:
            trump = obs.trump
            best = obs.trick[tricks.winning_index(obs.trick, len(obs.trick), trump)]
            if tricks.beats(f, best, trump):
                if len(obs.trick) < self.players - 1:
                    return "beats %s, best so far" % cards.name(best)
                for g in obs.trick:                 # f's points and the trick's
                    pts += cards.points(g)
                return "wins the trick: %d points" % pts
            for g in ch.candidates(obs):
                if tricks.beats(g, best, trump):
                    return "gives %d, keeps big cards" % pts
            return "can't beat %s: gives %d" % (cards.name(best), pts)
        if f >> 3 == obs.trump:
            return "a trump, to use up theirs"
        if values.is_top(f, ch.mine, self.ctx.played):
            return "the higher cards are gone"
        return "a low card: can lose %d" % pts if pts else "a low card: loses nothing"
