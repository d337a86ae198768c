"""Play a sampled deal to its end under the strict rules, every seat by a simple model.

Used by the stronger levels for binokel card play (and the two-hand last
tricks when no search ends in time): after a candidate card, the rest of the
deal is played out in each sample (run()), and the candidate is scored by the
deal's result for this seat. The two-hand search of the last tricks scores the
positions beyond its horizon by two such playouts (points0(), engine/ai/leaf.py).

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
        self.masks = bytearray(24)  # points0(): a playout's rank masks and suit counts

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
                if sc[o + s]:                       # follow suit, beat the best card if he can
                    f = s * 8
                    if best >> 3 == s:
                        g = best + 1
                        while g < f + 8 and not h[g]:
                            g += 1
                        if g < f + 8:
                            f = g
                    while not h[f]:
                        f += 1
                elif trump >= 0 and sc[o + trump]:  # trump, overtrump if he can
                    f = trump * 8
                    if best >> 3 == trump:
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

    def points0(self, rm, sc, leader, trump, cards_left):
        """Points player 0 takes from a trick start, two hands, in two playouts together: by the
        model above, and with leaders who first cash a plain card the other can neither beat
        nor trump (cards_left: cards in each hand). The leaf of the endgame's search
        (engine/ai/leaf.py scores it) and most of its time, so written apart from run() on
        the solver's rank masks, a card as its rank's bit (lowest of a mask: m & -m);
        tests/test_endgame.py checks it against run()'s model.

            rm[p*4 + t]       ranks of suit t that p holds (bit r: rank r, one copy or two)
            rm[8 + p*4 + t]   ranks he holds twice
            sc[p*4 + t]       his cards of suit t
            m[0:16], m[16:24] a playout's working copy of rm and sc
        """
        m = self.masks
        total = 0
        for cash in (0, 1):
            for i in range(8):
                m[i] = rm[i]
                m[8 + i] = rm[8 + i]
                m[16 + i] = sc[i]
            ld = leader
            for left in range(cards_left, 0, -1):
                o = ld * 4                  # the leader's suits
                q = 4 - o                   # the follower's
                t = -1
                b = 0                       # the lead's bit
                if cash:                    # a plain card the other can neither beat nor trump
                    for u in range(4):
                        if u == trump or not m[16 + o + u] or (not m[16 + q + u] and m[16 + q + trump]):
                            continue
                        x = m[o + u]        # every rank up to his highest:
                        x |= x >> 1
                        x |= x >> 2
                        x |= x >> 4
                        if m[q + u] <= x:   # the other holds nothing above it
                            t = u
                            b = (x + 1) >> 1
                            break
                if t < 0:                   # a plain ace, else the longest plain suit's lowest
                    n = 0
                    for u in range(4):
                        if u == trump or not m[16 + o + u]:
                            continue
                        if m[o + u] & 128:
                            t = u
                            b = 128
                            break
                        if m[16 + o + u] > n:
                            n = m[16 + o + u]
                            t = u
                    if t < 0:
                        t = trump
                    if not b:
                        b = m[o + t] & -m[o + t]
                i = o + t                   # the lead leaves the leader's hand
                if m[8 + i] & b:
                    m[8 + i] ^= b
                else:
                    m[i] ^= b
                m[16 + i] -= 1
                w = ld                      # who wins the trick
                j = q + t
                if m[16 + j]:               # follow, the cheapest card that wins, else the lowest
                    a = m[j] & -(b << 1)
                    if a:
                        w = 1 - ld
                    else:
                        a = m[j]
                elif m[16 + q + trump]:     # trump in, lowest (t is not trumps here)
                    j = q + trump
                    a = m[j]
                    w = 1 - ld
                else:                       # anything: the lowest rank, first suit
                    x = 256
                    for u in range(4):
                        y = m[q + u]
                        if y and y & -y < x:
                            x = y & -y
                            j = q + u
                    a = m[j]
                c = a & -a                  # the follower's card
                if m[8 + j] & c:
                    m[8 + j] ^= c
                else:
                    m[j] ^= c
                m[16 + j] -= 1
                if w == 0:
                    total += _BIT_POINTS[b % 11] + _BIT_POINTS[c % 11] + (LAST_TRICK_POINTS if left == 1 else 0)
                ld = w
        return total


# A rank's bit modulo 11 tells the ranks apart (1 2 4 8 5 10 9 7): their card points by it.
_BIT_POINTS = b"\x00\x00\x00\x00\x00\x03\x00\x0b\x02\x0a\x04"
