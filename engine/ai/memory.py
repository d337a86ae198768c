"""What one seat remembers of the deal, built only from its own observations.

An observation shows only the trick in progress and the last trick taken
(rules.md hoyle 10), so the memory records each trick as it appears there.
A seat plays a card to every trick, so it sees every trick, one decision
later. From the tricks it also infers what other players cannot hold: under
the strict rules (two-hand last tricks, every binokel trick) a player who
does not follow suit is void in it, one who does not beat the best card has
nothing higher in that suit, and so on.

    played[f]        copies of face f seen played this deal (by anyone)
    known[p][f]      copies of f that player p surely holds (table cards, the
                     turn-up he took, the card he showed, melds he showed)
    cap[p*4+s]       p holds no card of suit s with a rank code >= cap
                     (8: no limit, 0: void in s)
    cardpts[p]       card points of the tricks p took, as remembered
    complete         False if a trick was missed (then the count is unsure)

What only one kind of game shows (the two-hand table cards and turn-up, binokel's
melds and Dabb) is read by a subclass's update_shown(): TwoHandMemory in
engine/ai/twohand.py, BinokelMemory in engine/ai/binokel.py.
"""

from engine import cards, tricks

_NO_CAP = 8


class Memory:
    def __init__(self, players, stock_tricks):
        """players: 2 or 3 (engine/rules.py PLAYERS)."""
        self.players = players
        self.stock_tricks = stock_tricks     # tricks played under free rules (two-hand stock phase)
        self.played = bytearray(32)
        self.known = [bytearray(32) for _ in range(players)]
        self.cap = bytearray(players * 4)
        self.cardpts = [0] * players
        self.reset(-1)

    def reset(self, deal):
        self.deal = deal
        self.tricks = 0
        self.pending = 0             # cards of the trick in progress already seen
        self.complete = True
        for i in range(32):
            self.played[i] = 0
        for p in range(self.players):
            known = self.known[p]
            for i in range(32):
                known[i] = 0
            self.cardpts[p] = 0
        for i in range(self.players * 4):
            self.cap[i] = _NO_CAP

    # -- reading an observation -------------------------------------------------

    def update(self, obs):
        if obs.deal_number != self.deal:
            self.reset(obs.deal_number)
        # What was shown (melds, an exchange) happened before the cards now on view were played.
        self.update_shown(obs)
        done = sum(obs.tricks_won)
        if done > self.tricks:
            if done == self.tricks + 1 and obs.last_trick:
                self.record_trick(obs.last_trick, obs.last_leader, obs.trump)
            else:
                self.complete = False
            self.tricks = done
            self.pending = 0
        trick = obs.trick
        for i in range(self.pending, len(trick)):    # the trick in progress, as far as seen
            self.see_card(trick, obs.leader, i, obs.trump)
        self.pending = len(trick)

    def record_trick(self, trick, leader, trump):
        n = len(trick)
        winner = (leader + tricks.winning_index(trick, n, trump)) % n
        for i in range(n):
            self.cardpts[winner] += cards.points(trick[i])
            if i >= self.pending:
                self.see_card(trick, leader, i, trump)

    def see_card(self, trick, leader, i, trump):
        p = (leader + i) % self.players
        f = trick[i]
        self.played[f] += 1
        if self.known[p][f]:            # it has left the hand he was known to hold it in
            self.known[p][f] -= 1
        if i and self.tricks >= self.stock_tricks:
            self.infer(p, trick, i, trump)

    def infer(self, p, trick, i, trump):
        """Caps from player p's card trick[i] under the follow/beat/trump rules."""
        led = trick[0] >> 3
        f = trick[i]
        best = trick[tricks.winning_index(trick, i, trump)]
        if f >> 3 != led:
            self.limit(p, led, 0)                          # void in the suit led
            if trump >= 0 and f >> 3 != trump:
                self.limit(p, trump, 0)                    # and no trump either
            elif trump >= 0 and best >> 3 == trump and not tricks.beats(f, best, trump):
                self.limit(p, trump, (best & 7) + 1)       # could not overtrump
        elif best >> 3 == led and not tricks.beats(f, best, trump):
            self.limit(p, led, (best & 7) + 1)             # could not beat in the suit led

    def update_shown(self, obs):
        """Hook: what the kind of game shows besides the tricks."""
        raise NotImplementedError

    def limit(self, p, suit, cap):
        if cap < self.cap[p * 4 + suit]:
            self.cap[p * 4 + suit] = cap

    # -- questions ------------------------------------------------------------

    def may_hold(self, p, f):
        return (f & 7) < self.cap[p * 4 + (f >> 3)]
