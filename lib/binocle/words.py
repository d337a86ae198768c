"""Short texts for the 160x128 screen: 26 characters of terminalio's 6x12 font per line."""

from engine import actions, cards
from engine.rules import find, TITLE
from engine.state import PH_ANNOUNCE, PH_KNOCK, PH_BID

SUIT_WORDS = ("Spades", "Hearts", "Diamonds", "Clubs")
RANK_WORDS = ("7", "8", "9", "J", "Q", "K", "10", "A")


def rule_title(name):
    """What the screen calls a rule set (engine/rules.py TITLE)."""
    return find(name)[TITLE]


def card(f):
    """A card as its corner shows it, the suit by its letter: '10H', 'QS'."""
    return RANK_WORDS[f & 7] + cards.SUIT_CHARS[f >> 3]


def short_kind(name):
    """A meld's name as the screens write it, the suit as a card shows it and the first
    letter capital: 'marriage in hearts' -> 'Marriage H', 'trump nine' -> 'Nine of trump'."""
    if name == "trump nine":
        return "Nine of trump"
    i = name.find(" in ")
    if i > 0:
        name = name[:i + 1] + name[i + 4].upper()
    return name[0].upper() + name[1:]


def swap_rank(session):
    """The rank the trump 9 swap swaps: 9, or 7 with the 64-card pack."""
    return RANK_WORDS[0 if getattr(session.state, "pack64", False) else 2]


def choice(session, obs, action, points=None):
    """A menu line for one of the person's non-card choices. points: what the action
    scores, when known (else the session works it out)."""
    if points is None and (actions.is_meld(action) or action == actions.EXCHANGE):
        points = session.points_of(action)
    if actions.is_meld(action):
        kind = actions.meld_kind(action)
        names = session.kind_names()
        return "%s +%d" % (short_kind(names[kind]) if names is not None and kind < len(names) else "Meld", points)
    if action == actions.EXCHANGE:
        return "Swap trump %s: +%d" % (swap_rank(session), points)
    if action == actions.PASS:
        return ("No meld", "Play on", "No knock", "Pass")[_pass_kind(obs)]
    if action == actions.KNOCK:
        return "Knock: %d of %d" % (session.person_count(obs), obs.target)
    if action == actions.BID:
        return "Bid %d" % (obs.bid + 10)
    if actions.TRUMP <= action < actions.TRUMP + 4:
        s = action - actions.TRUMP
        if points is not None or obs.turn != 0:       # narrated: the AI's melds are shown next
            return "Trump: " + SUIT_WORDS[s]
        from engine.melds import best_total           # loaded already: binokel's own module
        return "%-15s melds %d" % ("Trump: " + SUIT_WORDS[s], best_total(obs.hand, s))
    if action == actions.DURCH:
        return "Durch (all tricks)"
    if actions.SURRENDER <= action < actions.SURRENDER + 4:
        return "Give up, %s trump" % SUIT_WORDS[action - actions.SURRENDER]
    return session.describe(action)


def _pass_kind(obs):
    if obs.phase == PH_ANNOUNCE:
        return 0
    if obs.phase == PH_KNOCK:
        return 2
    if obs.phase == PH_BID:
        return 3
    return 1


def narrate(names, seat, action, session, obs, points):
    """One line on what an AI player did, for the message band ('AI: four kings +80'); obs
    is the observation before the action, points what the action scored. The person's own
    choices and every card played (it is seen moving) are not narrated."""
    who = names[seat]
    if seat == 0 or actions.is_play(action) or action == actions.DEAL or \
            actions.BURY <= action < actions.BURY + 32:
        return None
    if action == actions.PASS:
        return who + " passes" if obs.phase == PH_BID else None
    if action == actions.BID:
        return "%s bids %d" % (who, obs.bid + 10)
    if action == actions.KNOCK:
        return who + " knocks"
    if actions.SURRENDER <= action < actions.SURRENDER + 4:
        return "%s gives up: %s" % (who, SUIT_WORDS[action - actions.SURRENDER])   # 26 at most
    return who + ": " + choice(session, obs, action, points)


def wrap(text, width=26):
    """Lines of at most width characters, broken at spaces."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = word if not line else line + " " + word
        out.append(line)
    return out
