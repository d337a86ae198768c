"""Play a sampled deal to its end under the strict rules, every seat by a simple model.

Used by the stronger levels for binokel card play (and the two-hand last
tricks when no search ends in time): after a candidate card, the rest of the
deal is played out in each sample (run()), and the candidate is scored by the
deal's result for this seat. The two-hand search of the last tricks scores the
positions beyond its horizon by two such playouts, corrected by a few terms of the
hands fitted against exact play (points0(), leaf_terms()).

The model is engine/ai/play.py's (Chooser.model_lead, model_card with strict
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

# What the playouts get wrong, fitted against exact play by `python -m tools tune-leaf`: 16
# times the points of player 0's side a unit of each term is worth beyond the playouts' mean.
# Terms (player 0's less player 1's): trumps, plain aces, trump aces, card points, plain suits
# void beside trumps, tens; then +1 if player 0 leads (-1 if not): alone, and per card in hand.
# From 3 cards in hand (those fitted); with fewer the playouts are (nearly) forced.
LEAF_WEIGHTS = (8, -6, -58, 5, -9, -15, 41, -3)    # 8 terms


# The points of the ranks Q K 10 A (bits 4-7 of a mask), by those four bits: 16 entries.
_HIGH_POINTS = bytes((0, 3, 4, 7, 10, 13, 14, 17, 11, 14, 15, 18, 21, 24, 25, 28))


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

    def points0(self, rm, sc, leader, trump, cards_left, weights=LEAF_WEIGHTS):
        """Points player 0 takes from a trick start, two hands: the mean of two playouts by the
        model above, the second with leaders who first cash a plain card the other can neither
        beat nor trump (cards_left: cards in each hand), from 3 cards corrected by
        leaf_terms(weights) and kept at 0 or more. The leaf of the endgame's search and most of its time, so written
        apart from run() on the solver's rank masks, a card as its rank's bit (lowest of a
        mask: m & -m); tests/test_endgame.py checks it against run()'s model.

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
        if cards_left < 3:              # (nearly) forced: the playouts are right
            return total // 2
        total = (8 * total + leaf_terms(rm, sc, leader, trump, cards_left, weights)) >> 4
        return total if total > 0 else 0


def leaf_tables(w):
    """(plain suits, trumps): w's worth of the card points, tens and aces (terms 3, 5 and 1 or 2)
    of the ranks Q K 10 A held, by those bits of a mask (4-7): 16 entries each."""
    return tuple(tuple(w[3] * _HIGH_POINTS[i] + w[5] * (i >> 2 & 1) + ace * (i >> 3) for i in range(16))
                 for ace in (w[1], w[2]))


def leaf_terms(rm, sc, leader, trump, cards_left, w=LEAF_WEIGHTS):
    """The sum of w[i] times term i (LEAF_WEIGHTS' list) of the hands in rm/sc (points0's
    layout); w a unit vector gives term i itself."""
    plain, trumps = _TABLES if w is LEAF_WEIGHTS else leaf_tables(w)
    x = w[0] * (sc[trump] - sc[4 + trump])
    for t in range(4):
        a = rm[t]
        b = rm[8 + t]                   # player 0's ranks, held twice; then player 1's
        c = rm[4 + t]
        d = rm[12 + t]
        h = trumps if t == trump else plain
        x += (h[a >> 4] + h[b >> 4] - h[c >> 4] - h[d >> 4]
              + w[3] * (((a & 8) + (b & 8) - (c & 8) - (d & 8)) >> 2))    # a jack: 2 points
        if t != trump:                  # a void beside trumps
            if not sc[t] and sc[trump]:
                x += w[4]
            if not sc[4 + t] and sc[4 + trump]:
                x -= w[4]
    lead = w[6] + w[7] * cards_left
    return x + lead if leader == 0 else x - lead


_TABLES = leaf_tables(LEAF_WEIGHTS)


# A rank's bit modulo 11 tells the ranks apart (1 2 4 8 5 10 9 7): their card points by it.
_BIT_POINTS = b"\x00\x00\x00\x00\x00\x03\x00\x0b\x02\x0a\x04"


def beats(card, best, trump):
    """engine.tricks.beats: higher in the same suit, or a trump on a plain card."""
    if card >> 3 == best >> 3:
        return card > best
    return card >> 3 == trump
