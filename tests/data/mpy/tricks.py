"""Who wins a trick, and which cards a player may play to it.

A trick is a bytearray of faces in the order played. `trump` is a suit, or
cards.NO_TRUMP (Durch). Between two identical cards the earlier one wins, so
a card beats the trick's best card only if it is strictly higher in the same
suit, or a trump on a non-trump.
"""

from engine.cards import NO_TRUMP


def beats(card, best, trump):
    if card >> 3 == best >> 3:
        return (card & 7) > (best & 7)
    return trump != NO_TRUMP and card >> 3 == trump


def winning_index(trick, n, trump):
    """Position (0..n-1) of the card that wins the first n cards of the trick."""
    best = 0
    for i in range(1, n):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def _suit_count(hand, suit):
    n = 0
    base = suit * 8
    for r in range(8):
        n += hand[base + r]
    return n


def follow_into(hand, trick, n, trump, buf):
    """legal_follow's faces written into buf (a bytearray of 32); returns their number.

    Search loops use this form: it allocates nothing."""
    led = trick[0] >> 3
    best = trick[winning_index(trick, n, trump)]
    if _suit_count(hand, led):
        suit = led
    elif trump != NO_TRUMP and _suit_count(hand, trump):
        suit = trump
    else:
        k = 0
        for f in range(32):
            if hand[f]:
                buf[k] = f
                k += 1
        return k
    base = suit * 8
    k = 0
    if best >> 3 == suit:
        for r in range((best & 7) + 1, 8):
            if hand[base + r]:
                buf[k] = base + r
                k += 1
    if k == 0:
        for r in range(8):
            if hand[base + r]:
                buf[k] = base + r
                k += 1
    return k


def legal_follow(hand, trick, n, trump, out):
    """Faces the player may play to a trick of n > 0 cards under the strict rules.

    Follow suit and beat the trick's best card if you can; if void, trump and
    overtrump a trump in the trick if you can, else still trump; only without
    the suit led and without trumps play anything. (rules.md hoyle 7 for two
    players, binokel 6 for three.) Appends faces to out, ascending.
    """
    buf = bytearray(32)
    for i in range(follow_into(hand, trick, n, trump, buf)):
        out.append(buf[i])
