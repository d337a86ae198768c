"""Every decision of every rule set as one small int.

    0 ..  31   PLAY face from the concealed hand
   32 ..  63   PLAY face from the table, first table copy   (hoyle/french)
   64 ..  95   PLAY face from the table, second table copy  (hoyle/french)
   96          PASS      no announcement / pass in the bidding / no knock
   97          KNOCK     (hoyle)
   98          DEAL      the next dealer deals the next deal
   99          EXCHANGE  the trump nine (seven) for the turn-up (dix)
  100          BID       raise the bid by exactly 10            (binokel)
  104 .. 107   TRUMP     name trump suit s and play             (binokel)
  108          DURCH     no trumps, win every trick             (binokel)
  112 .. 115   SURRENDER after naming trump suit s            (binokel)
  128 .. 159   BURY      face from the soloist's hand           (binokel)
  65536 ..     MELD      announce a meld (hoyle/french):

      bit  20..16   15..14 13..12 ... 1..0
          +-------+------+------+---+------+
          | kind+1| src7 | src6 |...| src0 |
          +-------+------+------+---+------+

  kind indexes the rule set's meld kinds (engine/melddata_hoyle.py or
  engine/melddata_french.py); srcN says where the card(s) of the kind's N-th
  face come from. For a face needed once: 0 concealed hand, 1 first table
  copy, 2 second table copy. For a face needed twice: 0 both from hand,
  1 hand + first table copy, 2 hand + second table copy, 3 both table
  copies. "First" and "second" follow the sorted order of the table records
  (engine/table.py), which both players see.

Every action is below 2**22, a small int on every board.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from engine import cards

PLAY = const(0)
PLAY_TABLE1 = const(32)
PLAY_TABLE2 = const(64)
PASS = const(96)
KNOCK = const(97)
DEAL = const(98)
EXCHANGE = const(99)
BID = const(100)
TRUMP = const(104)
DURCH = const(108)
SURRENDER = const(112)
BURY = const(128)
MELD = const(65536)


def is_play(a):
    return 0 <= a < PASS


def play_face(a):
    return a & 31


def play_source(a):
    """0 concealed hand, 1 first table copy, 2 second table copy."""
    return a >> 5


def is_meld(a):
    return a >= MELD


def meld_kind(a):
    return (a >> 16) - 1


def meld_sources(a):
    return a & 0xFFFF


def meld(kind, sources):
    return ((kind + 1) << 16) | sources


def describe(a, kind_names=None):
    """Short English text of an action, e.g. 'play QS from table'."""
    if is_play(a):
        text = "play " + cards.name(play_face(a))
        src = play_source(a)
        if src:
            text += " from table" if src == 1 else " from table (second copy)"
        return text
    if a == PASS:
        return "pass"
    if a == KNOCK:
        return "knock"
    if a == DEAL:
        return "deal"
    if a == EXCHANGE:
        return "exchange the trump nine for the turn-up"
    if a == BID:
        return "bid 10 more"
    if TRUMP <= a < TRUMP + 4:
        return "trump " + cards.SUIT_NAMES[a - TRUMP]
    if a == DURCH:
        return "durch"
    if SURRENDER <= a < SURRENDER + 4:
        return "surrender with " + cards.SUIT_NAMES[a - SURRENDER] + " trump"
    if BURY <= a < BURY + 32:
        return "bury " + cards.name(a - BURY)
    if is_meld(a):
        kind = meld_kind(a)
        if kind_names is not None and 0 <= kind < len(kind_names):
            return "meld " + kind_names[kind]
        return "meld kind %d" % kind
    return "unknown action %d" % a
