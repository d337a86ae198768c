"""A menu over the table for the person's non-card decisions: melds and the nine,
knocking, bids, trump, Durch or surrender. What is asked is said by the table's prompt
line above the menu; a message goes to the foot of the screen while the menu is up."""

from engine import actions
from engine.state import PH_PLAY, PH_KNOCK
from binocle import buttons as B
from binocle import ui, words
from binocle.scenes.base import MenuScene

_PLAY_ON = -1          # "play on": close the knock menu and pick a card


class Choice(MenuScene):
    KEYS = (
        (B.UP, "up"), (B.LEFT, "up"), (B.DOWN, "down"), (B.RIGHT, "down"),
        (B.A, "choose"), (B.B, "peek"), (B.START, "pause"), (B.SELECT, "hint"),
    )

    def __init__(self, app, table, obs):
        self.app = app
        self.table = table
        self.obs = obs
        if obs.stock_left == 0:       # two-hand, the stock gone: only a knock may still be asked,
            self.UNLOAD = (__name__,)  # so the module is forgotten when this one closes
        session = table.session
        self.actions = order(session, obs)
        texts = [words.choice(session, obs, a) if a >= 0 else "Play on" for a in self.actions]
        for i in range(len(texts)):        # two lines alike: the one that reuses table cards says so
            a = self.actions[i]
            if texts.count(texts[i]) > 1 and actions.is_meld(a) and actions.meld_sources(a):
                texts[i] += " (table)"
        rows = min(5, len(texts))
        # Under the prompt line; the knock menu of a trick in play at the foot, off the trick.
        y = ui.H - ui.LINE * rows - 4 if obs.phase == PH_PLAY else 2 * ui.LINE + 2
        self.menu = ui.Menu(None, texts, y=y, rows=rows)
        self.group = self.menu.group

    def choose(self):
        if self.group.hidden:
            self.group.hidden = False
            return
        a = self.actions[self.menu.index]
        self.app.pop()
        if a >= 0:
            self.table.person_does(a)

    def peek(self):
        """B hides the menu to look at the cards; B or A brings it back."""
        if self.obs.phase == PH_PLAY:
            self.app.pop()                  # the knock menu: back to choosing a card
            return
        self.group.hidden = not self.group.hidden

    def pause(self):
        self.table.pause()

    def hint(self):
        self.app.ask_hint(self.show_hint)

    def show_hint(self, action, why):
        for i in range(len(self.actions)):
            if self.actions[i] == action:
                self.menu.select(i)
        self.table.say_hint(action, why)


def order(session, obs):
    """Melds by points (best first), then the nine, then the rest; cards are not offered here."""
    melds = []
    rest = []
    for a in obs.legal:
        if actions.is_meld(a):
            melds.append((-session.points_of(a), a))
        elif not actions.is_play(a):
            rest.append(a)
    melds.sort()
    out = [a for _, a in melds]
    if actions.EXCHANGE in rest:
        out.append(actions.EXCHANGE)
    for a in rest:
        if a != actions.EXCHANGE and a != actions.PASS:
            out.append(a)
    # A wrong knock loses the game at once: not knocking comes first, where A lands.
    if obs.phase == PH_PLAY:
        out.insert(0, _PLAY_ON)
    elif obs.phase == PH_KNOCK and actions.PASS in rest:
        out.insert(0, actions.PASS)
    elif actions.PASS in rest:
        out.append(actions.PASS)
    return out
