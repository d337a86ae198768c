"""Play a sampled deal to its end under the strict rules, every seat by a simple model.

Used by the stronger levels for binokel card play (and the two-hand last
tricks beyond the exact solver's reach): after a candidate card, the rest of
the deal is played out in each sample by engine/ai/play.py's model of a
player, and the candidate is scored by the deal's result for this seat.

    hands[p]    32 counts, a working copy of the sample (bytearray, made once)
    pts[p]      card points taken in the rollout (last trick included)
    tricks[p]   tricks taken in the rollout
"""

from engine import cards, tricks

_LAST = 10


class Rollout:
    def __init__(self, players, chooser):
        self.players = players
        self.chooser = chooser          # its model_card() answers for every seat
        self.hands = [bytearray(32) for _ in range(players)]
        self.trick = bytearray(3)
        self.pts = [0] * players
        self.tricks = [0] * players

    def run(self, sample_hands, played_trick, leader, trump, my_card, me, cards_left):
        """Finish the trick in progress with my_card from `me`, then every trick; fills pts/tricks."""
        n = self.players
        for p in range(n):
            copy32(self.hands[p], sample_hands[p])
            self.pts[p] = 0
            self.tricks[p] = 0
        trick = self.trick
        k = len(played_trick)
        for i in range(k):
            trick[i] = played_trick[i]
        trick[k] = my_card
        self.hands[me][my_card] -= 1
        k += 1
        left = cards_left
        while True:
            while k < n:
                p = (leader + k) % n
                f = self.chooser.model_card(self.hands[p], trick, k, trump, True)
                if not self.hands[p][f]:
                    return False          # the sample ran out of cards: inconsistent
                self.hands[p][f] -= 1
                trick[k] = f
                k += 1
            w = (leader + tricks.winning_index(trick, n, trump)) % n
            for i in range(n):
                self.pts[w] += cards.points(trick[i])
            self.tricks[w] += 1
            left -= 1
            if left == 0:
                self.pts[w] += _LAST
                return True
            leader = w
            k = 1
            trick[0] = self.chooser.model_lead(self.hands[w], trump)
            self.hands[w][trick[0]] -= 1


def copy32(dst, src):
    """dst[:] = src without the slice object MicroPython would allocate."""
    for i in range(32):
        dst[i] = src[i]
