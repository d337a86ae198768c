"""Where things go on the 160x128 table, what it asks of whom, and the person's cards in
display order.

    y   0 | status: scores, the game's target (binokel: the opponents' by their seats;
          |   after the bidding the contract instead of the target)
       12 | prompt: whose turn it is and what is asked      (messages: over these lines)
       24 | opponent's melded cards / opponents' backs, the bid or the target (binokel)
       44 | trick area (the Dabb when it is shown)          stock, turn-up, cards left
       72 | your melded cards (hoyle, french)
       99 | your hand, the cursor's card raised
"""

from engine import actions, cards
from engine.state import PH_PLAY, PH_KNOCK, PH_BID, PH_BURY, PH_CONTRACT
from binocle import ui, words


class Layout:
    """Positions for one seating: opponents' card backs and labels, trick places, where a
    won trick slides to, the hand's row."""

    def __init__(self, opponents, trick, taken, hand_y):
        self.opponents = opponents    # per opponent: back x, y, label x, y (label x < 0: none)
        self.trick = trick            # per seat: card x, y
        self.taken = taken            # per seat: where its tricks go
        self.hand_y = hand_y


TWO = Layout(
    opponents=((138, 24, -1, 0),),
    trick=((78, 46), (52, 44)),
    taken=((70, 130), (140, -30)),
    hand_y=99,
)
THREE = Layout(
    opponents=((140, 24, 130, 52), (0, 24, 0, 52)),     # East right, West left: name, score
    trick=((70, 50), (98, 44), (42, 44)),
    taken=((70, 130), (170, 12), (-24, 12)),
    hand_y=99,
)
ROW_X1 = 116          # melded cards end left of the turn-up and the stock (x 118..156)
TABLE_Y = 72          # the row of the person's melded cards


def for_players(n):
    return TWO if n == 2 else THREE


def step(n, width):
    """Distance between overlapping cards so n of them fit in width (at most a card and 2)."""
    if n <= 1:
        return 0
    return min(ui.CARD_W + 2, (width - ui.CARD_W) // (n - 1))


def my_cards(obs, low_first):
    """(face, action, source) of the person's cards: hand by suit, trump first, then table cards."""
    trump = obs.trump if obs.trump is not None else -1
    order = cards.suit_order(trump)
    burying = obs.phase == PH_BURY
    ranks = range(8) if low_first else range(7, -1, -1)
    out = []
    for s in order:
        for r in ranks:
            f = s * 8 + r
            for _ in range(obs.hand[f]):
                out.append((f, actions.BURY + f if burying else actions.PLAY + f, 0))
    if obs.tables is not None:
        seen = bytearray(32)
        table = []
        for rec in obs.tables[0]:
            f = rec & 31
            seen[f] += 1
            src = seen[f]
            table.append((f, (actions.PLAY_TABLE1 if src == 1 else actions.PLAY_TABLE2) + f, src))
        for s in order:
            for r in ranks:
                for item in table:
                    if item[0] == s * 8 + r:
                        out.append(item)
    return out


def first_legal(slots, legal, keep):
    """The cursor's place for a new decision: where it was if that card is legal, else the first legal."""
    if 0 <= keep < len(slots) and slots[keep][1] in legal:
        return keep
    for k in range(len(slots)):
        if slots[k][1] in legal:
            return k
    return 0


def why_not(obs, face):
    if obs.phase == PH_BURY:
        return "That card cannot be buried"
    if obs.trick:
        return "Follow %s and beat the trick if you can" % words.SUIT_WORDS[obs.trick[0] >> 3].lower()
    return words.card(face) + " cannot be played now"


# By phase (PH_PLAY .. PH_CONTRACT): what an AI seat is about, and what is asked of you.
_THEIRS = ("%s's turn", "%s may meld", "%s may knock", "%s to bid", "%s buries 3", "%s names trump")
_YOURS = ("Your lead", "You won: meld?", "Knock? Game to %d", "Your bid? Now %d", "Choose %d to bury",
          "Name trump or Durch")


def prompt(obs, names):
    """The table's prompt line: whose turn it is and what is asked ('' between deals)."""
    p = obs.turn
    ph = obs.phase
    if p is None or p < 0 or ph > PH_CONTRACT:
        return ""
    if p:
        return names[p] + " leads" if ph == PH_PLAY and not obs.trick else _THEIRS[ph] % names[p]
    if ph == PH_PLAY and obs.trick:
        return "Your turn: " + _asked(obs)
    s = _YOURS[ph]
    if ph == PH_KNOCK:
        return s % obs.target
    if ph == PH_BID:
        return s % obs.bid
    return s % (cards.count(obs.hand) - 15) if ph == PH_BURY else s


def _asked(obs):
    """What answering the trick asks: follow the suit led, trump, or any card. The rules
    allow one of these, so the first card allowed tells which."""
    if obs.turnup is None or obs.turnup < 0:          # not two-hand with a stock left
        for a in obs.legal:
            if a < actions.PASS:
                s = (a & 31) >> 3
                if s == obs.trick[0] >> 3:
                    return "follow " + words.SUIT_WORDS[s].lower()
                if s == obs.trump:
                    return "trump it"
                break
    return "any card"


# Short texts kept in a tuple: a literal of 10 characters or fewer is interned, a name kept
# for good on the board (docs/memory.md); a tuple's texts go with the module.
# 0 the target, 1 a contract with trump, 2 Durch, 3 given up.
_TEXTS = ("Game to %d", "%s %d %s", "%s %d Durch", "%s gave up")


def info_text(obs, names):
    """Binokel, between the opponents: the bidding, then the game's target (the contract
    is in the top bar)."""
    if obs.phase == PH_BID:
        h = obs.bid_holder
        return "Bid %d: %s" % (obs.bid, names[h]) if h is not None and h >= 0 else "Bid %d" % obs.bid
    return _TEXTS[0] % obs.target


def contract(obs, names):
    """Binokel: who plays alone, at what, with which trump: 'West 280 Spades', 'You 300
    Durch', 'East 160' before trump is named; '' while the bidding goes on."""
    s = obs.soloist
    if s is None or s < 0 or obs.phase == PH_BID:
        return ""
    c, gave_up = obs.contract
    if gave_up:
        return _TEXTS[3] % names[s]
    from engine.binokel import CONTRACT_DURCH         # loaded already: the game's own module
    if c == CONTRACT_DURCH:
        return _TEXTS[2] % (names[s], obs.bid)
    return (_TEXTS[1] % (names[s], obs.bid, words.SUIT_WORDS[c] if 0 <= c < 4 else "")).rstrip()


def top_line(obs, names):
    """The top bar: the scores (binokel: the person's, the others' are by their seats) and
    the target, or binokel's contract once the bidding is over."""
    sc = obs.scores
    if len(names) == 2:
        return "You %d  AI %d  to %d" % (sc[0], sc[1], obs.target)
    c = contract(obs, names)
    if not c:
        return "You %d  to %d" % (sc[0], obs.target)
    line = "You %d | %s" % (sc[0], c)                 # 'You 0 | You 280 Spades': two things
    if len(line) <= ui.CHARS:
        return line
    k = 4 + len(str(sc[0]))                           # the " | " after the score: a space
    return (line[:k] + line[k + 2:])[:ui.CHARS]
