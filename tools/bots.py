"""Simple legal opponents for the terminal game (tools/play.py).

A bot sees only its own Observation (engine/observation.py) and a
`points_of(action)` function that tells what an announcement would score.
Its rules of thumb:

    lead        a low card, not a trump if it can help it
    follow      take the trick as cheaply as possible if it holds points,
                else throw the lowest card (not a trump if it can help it)
    announce    the meld (or exchange) worth most; never knock (hoyle)
    bid         while the bid is below its best meld total + 100 (binokel)
    bury        cards outside its chosen trump that cost no meld, lowest first
    trump       the suit with the largest meld total + length; no surrender, no Durch

Ties are broken with the bot's own seeded engine.rng.Rng, so a game replays.
"""

from engine import actions, cards, melds, tricks
from engine.state import PH_PLAY, PH_ANNOUNCE, PH_BID, PH_BURY, PH_CONTRACT

BID_MARGIN = 100     # what a bot hopes to take in tricks on top of its melds


class Bot:
    def __init__(self, seat, rng):
        self.seat = seat
        self.rng = rng
        self.plan = None     # (deal number, trump suit) chosen while burying

    def choose(self, obs, points_of):
        """One of obs.legal."""
        handler = {PH_PLAY: self.play, PH_ANNOUNCE: self.announce, PH_BID: self.bid,
                   PH_BURY: self.bury, PH_CONTRACT: self.contract}.get(obs.phase)
        if handler is None:          # deal the next deal; pass the last knock
            return actions.PASS if actions.PASS in obs.legal else obs.legal[0]
        return handler(obs, points_of)

    def pick_min(self, options, key):
        """The option with the smallest key; the generator picks among equals."""
        best = min(key(a) for a in options)
        ties = [a for a in options if key(a) == best]
        return ties[self.rng.below(len(ties))]

    # -- tricks ---------------------------------------------------------------

    def play(self, obs, points_of):
        plays = [a for a in obs.legal if actions.is_play(a)]   # never KNOCK
        trump = obs.trump

        def cheap(a):   # non-trumps first, then by card points, then rank
            f = actions.play_face(a)
            return (cards.suit_of(f) == trump, cards.points(f), cards.rank_of(f))

        trick = obs.trick
        if trick and sum(cards.points(f) for f in trick) > 0:
            best = trick[tricks.winning_index(trick, len(trick), trump)]
            winners = [a for a in plays if tricks.beats(actions.play_face(a), best, trump)]
            if winners:
                return self.pick_min(winners, cheap)
        return self.pick_min(plays, cheap)

    def announce(self, obs, points_of):
        gains = {a: points_of(a) for a in obs.legal}
        return self.pick_min(list(obs.legal), lambda a: -gains[a])

    # -- binokel bidding, Dabb and contract -----------------------------------

    def bid(self, obs, points_of):
        best = max(melds.best_total(obs.hand, s) for s in range(4))
        if actions.BID in obs.legal and obs.bid < best + BID_MARGIN:
            return actions.BID
        return actions.PASS

    def trump_for(self, obs):
        """The suit to name, fixed at the first burial of the deal."""
        if self.plan is None or self.plan[0] != obs.deal_number:
            def weight(s):
                length = sum(obs.hand[s * 8 + r] for r in range(8))
                return -(melds.best_total(obs.hand, s) + length)
            self.plan = (obs.deal_number, self.pick_min([0, 1, 2, 3], weight))
        return self.plan[1]

    def bury(self, obs, points_of):
        trump = self.trump_for(obs)
        hand = bytearray(obs.hand)
        total = melds.best_total(hand, trump)
        options = [a for a in obs.legal if cards.suit_of(a - actions.BURY) != trump] or list(obs.legal)

        def cost(a):   # melds lost, then card points, then rank
            f = a - actions.BURY
            hand[f] -= 1
            lost = total - melds.best_total(hand, trump)
            hand[f] += 1
            return (lost, cards.points(f), cards.rank_of(f))
        return self.pick_min(options, cost)

    def contract(self, obs, points_of):
        return actions.TRUMP + self.trump_for(obs)
