"""A game that teaches itself: when the person is to move, which lessons of assets/teach.txt
fit the moment, and reading one. Imported at each of the person's turns while
Settings.teaching() says a game is taught (Table.person_turn), and forgotten at once: its code
would be RAM through the whole game. The lesson on screen is scenes/lesson.py, which reads the
lessons due before it shows and is forgotten when it closes. The lessons shown this game: a
bitmask kept on the table (its `taught`), so a game continued after a restart may show one of
them again."""

from engine.actions import EXCHANGE
from engine.state import PH_PLAY, PH_ANNOUNCE, PH_KNOCK, PH_BID, PH_BURY, PH_CONTRACT

# Bit i of a mask is the lesson KEYS[i] ("= key" in assets/teach.txt); a moment's lessons
# show in this order.
# (Made from one string: eleven short literals would be eleven names kept for good on the
# board, and "trump" or "dabb" spelt in a string keeps the game's own names so spelt from
# being given the firmware's, tools/users/names.py.)
KEYS = "deal meld dix last knock bid dabb trump giveup solo play".split()


def due(obs):
    """The lessons that fit the person's turn (obs: the person's), a mask of KEYS bits."""
    ph = obs.phase
    if obs.stock_left is not None:                     # hoyle, french
        if ph == PH_PLAY:
            return 1 if obs.stock_left else 8          # the stock; the last tricks
        if ph == PH_ANNOUNCE:
            return 6 if EXCHANGE in obs.legal else 2  # a meld offer (and the trump 9)
        return 16 if ph == PH_KNOCK else 0             # knock after the deal's last trick
    if ph == PH_BID:
        return 32
    if ph == PH_BURY:
        return 96                                      # the Dabb taken (the bidding, if the person had no say)
    if ph == PH_CONTRACT:
        return 384                                     # trump or Durch; giving up
    if ph == PH_PLAY:
        return 1536 if obs.soloist else 1024           # (another seat is the soloist) playing
    return 0


def take(table):
    """The person's turn has come at the table: the lessons due and not yet shown this game
    (a mask of KEYS bits, 0 if none), marked shown. The table shows them (scenes/lesson.py,
    which reads them with read(): this module imports no scene)."""
    shown = getattr(table, "taught", 0)
    m = due(table.obs) & ~shown
    table.taught = shown | m
    return m


def read(path, rules, key):
    """(title, text) of a rule set's lesson from the file; None if the file has none. Its
    page's title is "key Title" (helptext.py reads the file, whose format is the help's)."""
    from binocle.helptext import find

    def named(title):
        return title.startswith(key + " ")
    page = find(path, rules, named)
    return None if page is None else (page[0][len(key) + 1:], page[1])
