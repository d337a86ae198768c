"""What one seat remembers of the deal, built only from its own observations.

An observation shows only the trick in progress and the last trick taken
(RULES.md hoyle 10), so the memory records each trick as it appears there.
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
"""

from engine import cards, tricks

_NO_CAP = 8


class Memory:
    def __init__(self, players, three_hand, stock_tricks):
        """players: 2 or 3 (engine/rules.py PLAYERS); three_hand: the rule set's KIND is
        THREE_HAND (binokel: no stock or table cards, a Dabb)."""
        self.players = players
        self.three_hand = three_hand
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
        self.turnup = -1
        self.deal_points = None      # deal points at the last observation (who just scored)
        self.dabb_owner = -1
        self.melds_seen = False
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
        if self.three_hand:
            self.update_binokel(obs)
        else:
            self.update_two_hand(obs)
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

    def limit(self, p, suit, cap):
        if cap < self.cap[p * 4 + suit]:
            self.cap[p * 4 + suit] = cap

    def update_two_hand(self, obs):
        for p in range(self.players):
            table = obs.tables[p]
            for r in table:
                f = r & 31
                n = 0
                for r2 in table:
                    if r2 & 31 == f:
                        n += 1
                if self.known[p][f] < n:
                    self.known[p][f] = n
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

    def update_binokel(self, obs):
        if obs.dabb is not None and obs.soloist >= 0:
            self.dabb_owner = obs.soloist
        if obs.melds is not None and not self.melds_seen:
            self.melds_seen = True       # shown once, before the first lead
            from engine.melds import KINDS     # binokel only (a meld is (name, points, faces, kind))
            for p in range(self.players):
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

    # -- questions ------------------------------------------------------------

    def may_hold(self, p, f):
        return (f & 7) < self.cap[p * 4 + (f >> 3)]
