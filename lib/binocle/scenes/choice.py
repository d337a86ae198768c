"""A menu over the table for the person's non-card decisions: melds and the nine,
knocking, bids, trump, Durch or surrender."""

from engine import actions
from engine.state import PH_PLAY, PH_ANNOUNCE, PH_KNOCK, PH_BID, PH_CONTRACT
from binocle import buttons as B
from binocle import ui, words
from binocle.scenes.base import MenuScene

_PLAY_ON = -1          # "play on": close the knock menu and pick a card

_TITLES = ((PH_ANNOUNCE, "Announce a meld?"), (PH_KNOCK, "Knock?"), (PH_BID, "Bid"),
           (PH_CONTRACT, "Your game"), (PH_PLAY, "Knock now?"))


class Choice(MenuScene):
    KEYS = (
        (B.UP, "up"), (B.LEFT, "up"), (B.DOWN, "down"), (B.RIGHT, "down"),
        (B.A, "choose"), (B.B, "peek"), (B.START, "pause"), (B.SELECT, "hint"),
    )

    def __init__(self, app, table, obs):
        self.app = app
        self.table = table
        self.obs = obs
        self.actions = order(table.session, obs)
        texts = [words.choice(table.session, obs, a) if a >= 0 else "Play on" for a in self.actions]
        self.menu = ui.Menu(title(obs), texts, y=14, rows=5)
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
        self.app.toast("Hint: %s. %s" % (self.table.hint_text(action), why.replace("T", "10")), 5000)   # TH: 10H


def title(obs):
    for phase, text in _TITLES:
        if phase == obs.phase:
            if phase == PH_BID:
                return "Bid? Now at %d" % obs.bid
            return text
    return "Choose"


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
