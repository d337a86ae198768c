"""A yes/no question, a whole screen of its own (No first), and the questions asked before
a move that costs the game or the deal: a knock short of the target (hoyle), Durch and
giving up (binokel). Loaded when a question is asked, forgotten when it closes."""

import displayio

from engine import actions
from binocle import forget, ui, words
from binocle.scenes.base import MenuScene


class Confirm(MenuScene):
    OVERLAY = False                   # drawn whole: the menu it came from is not cut in half
    UNLOAD = (__name__,)

    def __init__(self, app, question, on_yes, why=None, answers=("No", "Yes")):
        """why: what saying yes means, in words (up to 6 lines of 26 characters, above the
        question); answers: the two lines, No's first."""
        self.app = app
        self.on_yes = on_yes
        y = 40
        if why:
            lines = words.wrap(why, ui.CHARS)
            y = ui.LINE * len(lines) + 6
        self.menu = ui.Menu(question, list(answers), y=y, rows=2)
        self.group = self.menu.group
        if why:
            self.group = displayio.Group()
            self.group.append(ui.panel(0, 0, ui.W, ui.H, ui.DARK))
            text = ui.block(2, 2, ui.CHARS, len(lines))
            ui.set_lines(text, lines)
            self.group.append(text)
            self.group.append(self.menu.group)

    def choose(self):
        self.app.pop()
        if self.menu.index == 1:
            self.on_yes()


def knock(app, table):
    """The pause menu's knock line (pause.py): the knock at once when the person's count
    reaches the target, else the question first."""
    obs = table.obs

    def knocked():
        app.pop()                         # the pause menu (a question above it has gone already)
        if table.asleep:
            table.wake()
        table.person_does(actions.KNOCK)
    if table.session.person_count(obs) >= obs.target:
        forget(__name__)                  # no question on screen: this module is not kept
        knocked()
    else:
        ask(app, table.session, obs, actions.KNOCK, knocked)


def ask(app, session, obs, action, then):
    """Ask before the person's knock short of the target (which loses the game at once,
    rules.md hoyle 9), his Durch (binokel 4 and 7) or his giving up (binokel 4); yes does
    then()."""
    t = obs.target
    if action == actions.KNOCK:
        app.push(Confirm(app, "Knock anyway?", then,
                         "You have %d of %d:\nyour score and the card\npoints in your tricks.\n"
                         "A knock short of %d loses the game at once." %
                         (session.person_count(obs), t, t), ("No, play on", "Yes, knock and lose")))
        return
    names = session.names
    if action == actions.DURCH:
        from engine.binokel import DURCH_POINTS
        app.push(Confirm(app, "Durch, all 15 tricks?", then,
                         "No trump; you lead and\nmust take all 15 tricks.\nAll 15: +%d.\n"
                         "An opponent's first trick\nends the deal: -%d.\n%s and %s get 0." %
                         (DURCH_POINTS, DURCH_POINTS, names[1], names[2]), ("No, back", "Yes, Durch")))
        return
    from engine.binokel import SURRENDER_BONUS
    suit = words.SUIT_WORDS[action - actions.SURRENDER]
    app.push(Confirm(app, "Give up, %s trump?" % suit, then,
                     "You lose your bid: -%d.\n%s and %s score %d each plus their melds, "
                     "with %s as trump.\nPlay and fall short: -%d" %
                     (obs.bid, names[1], names[2], SURRENDER_BONUS, suit, 2 * obs.bid),
                     ("No, back", "Yes, give up")))
