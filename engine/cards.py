"""Cards as small ints, and the notation that names them.

A *face* is what a card shows; the two copies of a face in the double pack
look alike, so the engine never tells them apart. A face is one int:

    bit   4 3   2 1 0
         +---+ +-----+
         suit   rank          face = suit * 8 + rank   (0..31)

    suit: 0 S (spades)  1 H (hearts)  2 D (diamonds)  3 C (clubs)
    rank: 0 7   1 8   2 9   3 J   4 Q   5 K   6 T (ten)   7 A

A higher rank code beats a lower one in the same suit. The 48-card pack uses
ranks 2..7; the 64-card option of `hoyle` adds ranks 0 and 1.

A *set of cards* (a hand, a trick pile, the stock) is a bytearray of 32
counts, one per face, each 0, 1 or 2. Nothing in the engine builds an object
per card.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

SUIT_S = const(0)
SUIT_H = const(1)
SUIT_D = const(2)
SUIT_C = const(3)
NO_TRUMP = const(-1)

R7 = const(0)
R8 = const(1)
R9 = const(2)
RJ = const(3)
RQ = const(4)
RK = const(5)
RT = const(6)
RA = const(7)

NUM_FACES = const(32)

SUIT_CHARS = "SHDC"
RANK_CHARS = "789JQKTA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

# Card points by rank code (8 bytes): 7, 8, 9 = 0, J 2, Q 3, K 4, T 10, A 11.
RANK_POINTS = b"\x00\x00\x00\x02\x03\x04\x0a\x0b"
# The last trick of a deal scores this on top of its cards, in every rule set: with the
# 240 card points of the pack, a deal played out puts 250 points into the tricks.
LAST_TRICK_POINTS = 10


def face(suit, rank):
    return suit * 8 + rank


def suit_of(f):
    return f >> 3


def rank_of(f):
    return f & 7


def points(f):
    return RANK_POINTS[f & 7]


def lowest_rank(pack64):
    """Lowest rank code in the pack: 7 with 64 cards, 9 with 48."""
    return R7 if pack64 else R9


def new_pack(pack64):
    """A count vector holding the whole double pack."""
    counts = bytearray(NUM_FACES)
    low = lowest_rank(pack64)
    for f in range(NUM_FACES):
        if rank_of(f) >= low:
            counts[f] = 2
    return counts


def name(f):
    """Notation of one face, e.g. 'TS' for the ten of spades."""
    return RANK_CHARS[f & 7] + SUIT_CHARS[f >> 3]


def parse(text):
    """Face of one card in notation: 'AS', 'TS', '10S', 'qh' ... Raises ValueError."""
    t = text.strip().upper()
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise ValueError("not a card: %r (use rank A T K Q J 9 8 7 or 10, suit S H D C)" % text)
    return face(SUIT_CHARS.index(t[1]), RANK_CHARS.index(t[0]))


def parse_many(text):
    """List of faces from space- or comma-separated notation."""
    out = []
    for word in text.replace(",", " ").split():
        out.append(parse(word))
    return out


def counts_of(faces):
    """Count vector of a list of faces. Raises ValueError past two copies."""
    counts = bytearray(NUM_FACES)
    for f in faces:
        if counts[f] == 2:
            raise ValueError("more than two copies of %s" % name(f))
        counts[f] += 1
    return counts


def faces_of(counts, trump=NO_TRUMP):
    """Faces of a count vector sorted for display: by suit, trump first, high rank first."""
    out = []
    for s in suit_order(trump):
        for r in range(7, -1, -1):
            f = s * 8 + r
            for _ in range(counts[f]):
                out.append(f)
    return out


def suit_order(trump):
    if trump < 0:
        return (0, 1, 2, 3)
    rest = [s for s in (0, 1, 2, 3) if s != trump]
    return (trump, rest[0], rest[1], rest[2])


def format_faces(faces):
    return " ".join([name(f) for f in faces])


def format_counts(counts, trump=NO_TRUMP):
    return format_faces(faces_of(counts, trump))


def count(counts):
    n = 0
    for c in counts:
        n += c
    return n


def card_points(counts):
    total = 0
    for f in range(NUM_FACES):
        if counts[f]:
            total += counts[f] * RANK_POINTS[f & 7]
    return total
