"""A menu over the table for the person's non-card decisions: melds and the nine,
knocking after the deal's last trick, bids, trump, Durch or surrender. What is asked is said
by the table's prompt line above the menu; a message goes to the foot of the screen while
the menu is up. B shows the last trick (the menu hides meanwhile: the cards show too).
A knock short of the target, Durch and giving up are asked again (confirm.ask)."""

from engine import actions
from engine.state import PH_KNOCK
from binocle import buttons as B
from binocle import ui, words
from binocle.scenes.base import MenuScene


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
        texts = [words.choice(session, obs, a) for a in self.actions]
        for i in range(len(texts)):        # two lines alike: the one that reuses table cards says so
            a = self.actions[i]
            if texts.count(texts[i]) > 1 and actions.is_meld(a) and actions.meld_sources(a):
                texts[i] += " (table)"
        rows = min(5, len(texts))
        self.menu = ui.Menu(None, texts, y=2 * ui.LINE + 2, rows=rows)     # under the prompt line
        self.group = self.menu.group

    def choose(self):
        a = self.actions[self.menu.index]
        if (a == actions.KNOCK and self.table.session.person_count(self.obs) < self.obs.target) or \
                actions.SURRENDER <= a < actions.SURRENDER + 4 or a == actions.DURCH:
            from binocle.scenes.confirm import ask
            ask(self.app, self.table.session, self.obs, a, self.chosen)
            return
        self.chosen()

    def chosen(self):
        self.app.pop()
        self.table.person_does(self.actions[self.menu.index])

    def peek(self):
        """B: the last trick, the menu hidden meanwhile to show the cards; any button closes
        it and the menu is back (App.pop: the scenes below show again)."""
        self.table.show_last_trick()
        self.group.hidden = True

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
    if obs.phase == PH_KNOCK and actions.PASS in rest:
        out.insert(0, actions.PASS)
    elif actions.PASS in rest:
        out.append(actions.PASS)
    return out
