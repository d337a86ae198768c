"""The rule-of-thumb opponents (desktop only): `random` and `greedy`.

The arena measures the AI against them, and the terminal game (python -m tools
play --level greedy) seats them. Both decide from the Observation alone
(engine/observation.py), expose `choose(obs)` like an engine.ai player, and are
deterministic given their seed. They never change, so an AI's results
against them can be compared over time.

random   a uniform choice among obs.legal, drawn by engine.rng.Rng(seed). In
         hoyle this includes KNOCK at every card, so it usually knocks wrongly
         and loses early: a floor, not an opponent.

greedy   a short rule of thumb, the same every game:
    cards       "lowest" means least card points, then lowest rank, then
                non-trump before trump (then a hand card before a table
                copy). Leading: the lowest card. Following: if the trick
                holds points (an A, T, K, Q or J), the lowest card that
                beats it; otherwise, or if none beats it, the lowest card.
    announce    the meld worth most (kind points from engine/melddata_hoyle.py, melddata_french.py);
                the dix exchange counts 10 and wins a tie (it also brings
                the turn-up); PASS only when nothing else is offered.
    knock       never (it does not count its points), so hoyle games end
                on the score after a deal.
    bid         while the next bid is at most its best meld total over the
                four trumps (engine.melds.best_total) + 60.
    trump       the suit with the highest best_total, ties to the longest
                suit, then the lowest suit number; counted on all 18 cards
                (hand + what it has buried), so burying cannot change it.
    bury        the lowest cards (as above) not used by any of its best
                melds for that trump; never surrender, never Durch.
"""

from engine import actions, cards, melds, tricks
from engine import melddata as T
from engine.ai import new_player
from engine.rules import state_class
from engine.rng import Rng
from engine.twohand import DIX_POINTS
from engine.state import PH_PLAY, PH_ANNOUNCE, PH_BID, PH_BURY, PH_CONTRACT

NAMES = ("random", "greedy")
BID_ALLOWANCE = 60      # what greedy hopes to take in tricks on top of its melds


def new_opponent(name, seed):
    """The opponent called name, its choices drawn from seed where it draws any."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer()
    raise ValueError("unknown opponent %r (choose from %s)" % (name, ", ".join(NAMES)))


def new_seat(name, rules, seat, seed, options=0):
    """A seat at a game of rules: the opponent called name, or else the engine's AI at the
    level called name (engine.ai.new_player), either drawing its choices from seed."""
    if name in NAMES:
        return new_opponent(name, seed)
    return new_player(rules, seat, name, seed, options)


class RandomPlayer:
    def __init__(self, seed):
        self.rng = Rng(seed & 0xFFFFFFFF)

    def choose(self, obs):
        return obs.legal[self.rng.below(len(obs.legal))]


# -- greedy ---------------------------------------------------------------------

def card_key(a, trump):
    """Sort key of a play action: lower is cheaper to give away."""
    f = actions.play_face(a)
    return (cards.points(f), cards.rank_of(f), cards.suit_of(f) == trump,
            actions.play_source(a), f)


def meld_points(a, rules, trump):
    kinds = state_class(rules).KINDS[trump]       # the rule set's meld table
    return kinds[actions.meld_kind(a) * T.KIND_STRIDE + 1] * 10


def suit_length(hand, suit):
    return sum(hand[suit * 8:suit * 8 + 8])


def best_trump(hand):
    """The suit with the best meld total, then the longest, then the lowest number."""
    return min(range(4), key=lambda s: (-melds.best_total(hand, s), -suit_length(hand, s), s))


class GreedyPlayer:
    def choose(self, obs):
        handler = {PH_PLAY: self.play, PH_ANNOUNCE: self.announce, PH_BID: self.bid,
                   PH_BURY: self.bury, PH_CONTRACT: self.contract}.get(obs.phase)
        if handler is None:      # DEAL between deals; PASS at hoyle's last knock
            return actions.PASS if actions.PASS in obs.legal else obs.legal[0]
        return handler(obs)

    def play(self, obs):
        plays = [a for a in obs.legal if actions.is_play(a)]    # never KNOCK
        trump = obs.trump
        trick = obs.trick
        if trick and any(cards.points(f) for f in trick):
            best = trick[tricks.winning_index(trick, len(trick), trump)]
            winners = [a for a in plays if tricks.beats(actions.play_face(a), best, trump)]
            if winners:
                return min(winners, key=lambda a: card_key(a, trump))
        return min(plays, key=lambda a: card_key(a, trump))

    def announce(self, obs):
        def value(a):    # points, then the exchange before an equal meld, then the lowest action
            if a == actions.EXCHANGE:
                return (-DIX_POINTS, 0, a)
            if actions.is_meld(a):
                return (-meld_points(a, obs.rules, obs.trump), 1, a)
            return (0, 2, a)
        return min(obs.legal, key=value)

    def bid(self, obs):
        best = max(melds.best_total(obs.hand, s) for s in range(4))
        if actions.BID in obs.legal and obs.bid + 10 <= best + BID_ALLOWANCE:
            return actions.BID
        return actions.PASS

    def all_cards(self, obs):
        """The soloist's 18 cards: hand plus what he has buried so far."""
        hand = bytearray(obs.hand)
        if obs.buried is not None:
            for f in range(32):
                hand[f] += obs.buried[f]
        return hand

    def bury(self, obs):
        full = self.all_cards(obs)
        trump = best_trump(full)
        kept = set()
        for _name, _pts, faces, _kind in melds.best_melds(full, trump):
            kept.update(faces)
        options = [a for a in obs.legal if a - actions.BURY not in kept] or list(obs.legal)
        return min(options, key=lambda a: card_key(a - actions.BURY, trump))

    def contract(self, obs):
        return actions.TRUMP + best_trump(self.all_cards(obs))
