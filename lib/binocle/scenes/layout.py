"""Where things go on the 160x128 table, and the person's cards in display order."""

from engine import actions, cards
from engine.rules import kind, THREE_HAND
from engine.state import PH_BID, PH_BURY, PH_CONTRACT
from binocle import ui, words


class Layout:
    """Positions for one seating: opponents' card backs and counts, trick places,
    where a won trick slides to, the hand's row."""

    def __init__(self, opponents, trick, taken, hand_y):
        self.opponents = opponents    # per opponent: back x, y, label x, y
        self.trick = trick            # per seat: card x, y
        self.taken = taken            # per seat: where its tricks go
        self.hand_y = hand_y


TWO = Layout(
    opponents=((138, 12, 126, 14),),
    trick=((78, 42), (52, 40)),
    taken=((70, 130), (140, -30)),
    hand_y=99,
)
THREE = Layout(
    opponents=((140, 12, 118, 42), (0, 12, 0, 42)),     # East right, West left
    trick=((70, 46), (98, 40), (42, 40)),
    taken=((70, 130), (170, 12), (-24, 12)),
    hand_y=99,
)


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
        lead = obs.trick[0] >> 3
        return "Follow %s and win if you can" % words.SUIT_WORDS[lead].lower()
    return words.card(face) + " cannot be played now"


def info_text(obs, names):
    """The line under the status: bidding, contract or trump."""
    if kind(obs.rules) != THREE_HAND:
        return ""
    if obs.phase == PH_BID:
        return "Bid %d %s" % (obs.bid, names[obs.bid_holder]) if obs.bid_holder is not None and obs.bid_holder >= 0 else "Bid %d" % obs.bid
    contract = obs.contract[0] if obs.contract is not None else -1
    if obs.soloist is not None and obs.soloist >= 0:
        if contract < 0 or obs.phase == PH_CONTRACT:
            return "%s %d" % (names[obs.soloist], obs.bid)
        return "%s %s %d" % (names[obs.soloist], words.CONTRACT_WORDS[contract], obs.bid)
    return ""
