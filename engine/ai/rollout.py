"""Play a sampled deal to its end under the strict rules, every seat by a simple model.

Used by binokel's hard card play (BinokelPlayer.playout) and, on the desktop
only, by the expert (engine/ai/expert.py): after a candidate card, the rest of
the deal is played out in each sample (run()), and the candidate is scored by
the deal's result for this seat. The two-hand games do not load it: their
search of the last tricks scores the positions beyond its horizon by two such
playouts written on its rank masks (engine/ai/leaf.py playouts()).

The followers' model is engine/ai/play.py's (Chooser.model_card with strict
rules), written out here on suit counts because a rollout is the AI's inner
loop. Under the strict rules the cards a player may play either all win the
trick or all lose it, so the model's "cheapest winner, else least useful card"
is the cheapest legal card: the lowest one of a suit it must play, or, free to
play anything (void in the suit led and in trumps), the card of fewest points,
then lowest rank, then first suit. A leader plays a plain ace (first suit
first), else the lowest card of his longest plain suit, else his lowest trump.

    hands[p]    32 counts, a working copy of the sample (bytearray, made once)
    sc[p*4+s]   cards of suit s in hands[p]
    pts[p]      card points taken in the rollout (last trick included)
    tricks[p]   tricks taken in the rollout
"""

from engine.cards import RANK_POINTS, LAST_TRICK_POINTS
from engine.tricks import beats

class Rollout:
    def __init__(self, players):
        self.players = players
        self.hands = [bytearray(32) for _ in range(players)]
        self.sc = bytearray(4 * players)
        self.pts = [0] * players
        self.tricks = [0] * players

    def run(self, sample_hands, played_trick, leader, trump, my_card, me, cards_left):
        """Finish the trick in progress with my_card from `me`, then every trick; fills pts/tricks.
        my_card -1: the trick starts, `leader` leads by the model (played_trick is empty).

        False if the sample runs out of cards (an inconsistent sample)."""
        n = self.players
        hands = self.hands
        sc = self.sc
        pts = self.pts
        won = self.tricks
        for p in range(n):
            h = hands[p]
            src = sample_hands[p]
            o = 4 * p
            sc[o] = sc[o + 1] = sc[o + 2] = sc[o + 3] = 0
            for f in range(32):
                c = src[f]
                h[f] = c
                if c:
                    sc[o + (f >> 3)] += c
            pts[p] = 0
            won[p] = 0
        k = len(played_trick)
        left = cards_left
        tp = 0
        if my_card >= 0:
            lead = played_trick[0] if k else my_card
            best = lead
            wi = 0
            for i in range(k):
                f = played_trick[i]
                tp += RANK_POINTS[f & 7]
                if i and beats(f, best, trump):
                    best = f
                    wi = i
            if k and beats(my_card, best, trump):
                best = my_card
                wi = k
            tp += RANK_POINTS[my_card & 7]
            hands[me][my_card] -= 1
            sc[4 * me + (my_card >> 3)] -= 1
            k += 1
        while True:
            if k == 0:                              # the leader's card (see the docstring)
                h = hands[leader]
                o = 4 * leader
                lead = -1
                longest = 0
                for t in range(4):                  # a plain ace, else the longest plain suit
                    if t == trump or not sc[o + t]:
                        continue
                    if h[t * 8 + 7]:
                        lead = t * 8 + 7
                        break
                    if sc[o + t] > longest:
                        longest = sc[o + t]
                        lead = t * 8
                if lead < 0:
                    if trump < 0 or not sc[o + trump]:
                        return False
                    lead = trump * 8
                if lead & 7 != 7:
                    while not h[lead]:
                        lead += 1
                h[lead] -= 1
                sc[o + (lead >> 3)] -= 1
                best = lead
                wi = 0
                tp = RANK_POINTS[lead & 7]
                k = 1
            s = lead >> 3
            while k < n:
                p = (leader + k) % n
                h = hands[p]
                o = 4 * p
                t = s if sc[o + s] else trump       # follow suit, else trump if he can,
                if t >= 0 and sc[o + t]:            # and beat the best card if he can
                    f = t * 8
                    if best >> 3 == t:
                        g = best + 1
                        while g < f + 8 and not h[g]:
                            g += 1
                        if g < f + 8:
                            f = g
                    while not h[f]:
                        f += 1
                else:                               # anything: fewest points, lowest rank
                    f = -1
                    for r in range(8):
                        for t in range(4):
                            if h[t * 8 + r]:
                                f = t * 8 + r
                                break
                        if f >= 0:
                            break
                    if f < 0:
                        return False                # the sample ran out of cards
                h[f] -= 1
                sc[o + (f >> 3)] -= 1
                tp += RANK_POINTS[f & 7]
                if (f >> 3 == best >> 3 and f > best) or (f >> 3 == trump and best >> 3 != trump):
                    best = f
                    wi = k
                k += 1
            w = (leader + wi) % n
            pts[w] += tp
            won[w] += 1
            left -= 1
            if left == 0:
                pts[w] += LAST_TRICK_POINTS
                return True
            leader = w
            k = 0
