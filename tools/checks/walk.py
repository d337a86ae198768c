"""The walk of every screen: each scene of the game opened, and each of its buttons pressed
once, on one board. The device suite walks each board of PROFILES on the firmware stand-ins
(tests/device/test_screens.py, under MicroPython too), tests/test_scenes.py the simulator, and
python -m tools pystack models a board's Python stack on this walk.

A Walk drives an App built on some board profile. It reaches each screen the way the game does
(a saved game continued from a chosen moment, the methods behind the menu lines), then presses
each button of the screen's key table once, by the board's own buttons, runs a few frames after
each, and notes what went wrong; the screen is opened again whenever a press left it. The app's
net for a failing screen (App.recover) is switched off, so a failure is seen here rather than
turned into a message.

On a board of stand-ins (walk_board: tools/checks/standins.py, the firmware's modules as
CircuitPython documents them, refusing what the firmware lacks) the app picks its board profile
itself from board.board_id, and a press is made by the board's own buttons: the PyBadge's eight
keys, the PyGamer's four keys and stick, the Feather's three buttons (START and SELECT are B and
A held; it has no LEFT, UP or DOWN).

The walk is a generator (Walk.steps): it yields once for each frame the app is to run, and
drive() runs that frame, App.tick, from its own shallow frame. A board keeps every running
function's state on a small Python stack (2 KB on a SAMD51; tools/checks/pystack.py), and a
generator's state lives in the heap: so the walk's own functions are not under the app's when
it runs a frame, and the app has nearly as much of that stack as on a board, where only code.py,
main() and App.run() are under App.tick. Under the app's frames in the device suite lie only the
runner's, the test's, walk_board()'s and drive()'s.

The moments come from the first deal of a fixed seed, played with the engine alone: the
person takes the first legal action (never a knock), the AI seats are "easy".
"""


import sys

from engine.rules import RULE_SETS, THREE_HAND, kind, state_class
from tools.checks import standins

# Every scene class of lib/binocle/scenes that has a key table (tests/test_scenes.py checks it).
SCENES = ("Title", "Table", "Choice", "LastTrick", "Melds", "Pause", "SettingsScreen", "Confirm",
          "Summary", "Sheet", "GameOver", "Help", "StatsScreen", "Lesson")
RULES = RULE_SETS                # the registry's (engine/rules.py), in its order
# Seeds whose first deal brings the person each kind of decision (binokel 13: the person
# wins the bidding, buries and names trump; 1: bids). Every rule set has its line (the device
# suite's test_screens.py checks it): without one, moments() tries seeds 100 on.
SEEDS = (("hoyle", (1,)), ("french", (1,)), ("binokel", (13, 1)))
LEVEL = "easy"
STEP_MS = 40            # time per frame
AFTER = 8               # frames run after each press


def three_hands(rules):
    """A rule set of three hands (binokel): bidding, the Dabb, its melds shown on their own
    screen (engine/rules.py)."""
    return kind(rules) == THREE_HAND


def knocking(rules):
    """A rule set whose player may knock (hoyle): the pause menu's knock line."""
    return not three_hands(rules) and state_class(rules).KNOCKING


def can_update():
    """As settingsview.can_update (not imported here: that screen is forgotten when closed)."""
    try:
        import microcontroller
        return hasattr(microcontroller, "on_next_reset") and hasattr(microcontroller.RunMode, "UF2")
    except (ImportError, AttributeError):
        return False


class StepClock:
    """ticks_ms that advances 1 ms per reading: an AI's slices end after a fixed amount of work."""

    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 1
        return self.t


def moments(rules):
    """(name, record) of the moments the screens need, from the engine alone: "fresh",
    "pick" (a card to play, a trick led, a trick taken before), "bury", "choice N" (a
    decision of phase N: "choice 5", binokel's trump, Durch or giving up), "knock" (a card
    to play with the knock open: the pause menu's last line), "before end" (one action
    before the deal is over), "between" (the deal is over). The seeds of SEEDS first, then
    others until each kind the rule set has is there (should the AI play otherwise)."""
    seeds = ()
    for name, s in SEEDS:
        if name == rules:
            seeds = s
    out = []
    for seed in seeds + tuple(range(100, 140)):
        if _complete(out, rules) and seed not in seeds:
            break
        _first_deal(out, rules, seed)
    return out


def _complete(out, rules):
    names = [n for n, _ in out]
    want = ["pick", "between", "before end"] + (["knock"] if knocking(rules) else []) + \
        (["bury"] if three_hands(rules) else [])
    return [n for n in want if n not in names] == [] and [n for n in names if n.startswith("choice ")] != []


def _first_deal(out, rules, seed):
    from engine import actions, record
    from engine.state import PH_BETWEEN, PH_PLAY, PH_BURY
    from binocle.session import Session
    from binocle.settings import Settings
    st = Settings()
    st.rules_id = RULE_SETS.index(rules)
    s = Session(rules, seed, st.options(), LEVEL)
    clock = StepClock()
    _note(out, "fresh", s)
    ended = False
    while s.state.phase != PH_BETWEEN:
        if s.person_to_move():
            obs = s.observation()
            if obs.phase == PH_PLAY:
                if obs.trick and obs.last_trick and (not three_hands(rules) or obs.melds):
                    _note(out, "pick", s)
                if actions.KNOCK in obs.legal:
                    _note(out, "knock", s)
            elif obs.phase == PH_BURY:
                _note(out, "bury", s)
            else:
                _note(out, "choice %d" % obs.phase, s)
            legal = [a for a in obs.legal if a != actions.KNOCK]
            action = legal[0]
        else:
            action = s.think(clock, 1000)
            if action < 0:
                continue
        before = record.encode(s.state)
        s.apply(action)
        ended = s.state.phase == PH_BETWEEN
    for name, _ in out:
        if name == "between":
            return                       # "before end" and "between" come from one deal
    if ended:
        out.append(("before end", before))
        _note(out, "between", s)


def _note(out, name, session):
    from engine import record
    for n, _ in out:
        if n == name:
            return
    out.append((name, record.encode(session.state)))


DONE = "done"           # what Walk.steps yields last


def drive(steps, app, clock=None):
    """Run the frames a walk asks for (Walk.steps) until it yields DONE: app.tick() each
    time it yields, clock.now moved on by STEP_MS first if a clock is given; an exception of
    app.tick() is thrown back into the walk, where the screen it was opening or pressing
    fails. The app's frames then lie on this one (kept small: one try, few names)."""
    error = None
    while (next(steps) if error is None else steps.throw(error)) is not DONE:
        error = None
        if clock is not None:
            clock.now += STEP_MS
        try:
            app.tick()
        except Exception as e:
            error = e


class Walk:
    """press(button): a generator that makes the board press one of the app's buttons,
    yielding once for each frame it takes; tick(): one frame (for run()); buttons: the app's
    buttons the board can make (none: each screen is only opened, and press is not used).
    failures: what went wrong, one line each."""

    def __init__(self, app, press, tick, buttons, label):
        self.app = app
        self.press_on_board = press
        self.tick = tick
        self.buttons = buttons
        self.label = label
        self.failures = []
        self.opened = []                 # (rules, scene, variant, button or "opened") of each step
        self.got = []
        self.records = []
        self.over = None
        self.base = None                 # ("pick" table, actions then) of the last game opened
        poll = app.input.poll

        def spy(now, out):               # the presses the app takes in this frame
            n = len(out)
            poll(now, out)
            for i in range(n, len(out)):
                self.got.append(out[i])
        app.input.poll = spy

        def recover(e):                  # no net: a failing screen is a failure here
            raise e
        app.recover = recover

    # -- the whole walk ---------------------------------------------------------------------

    def run(self, rules):
        """The walk in one rule set, each frame run by tick(); its failures."""
        first = len(self.failures)
        drive(self.steps(rules), self)
        return self.failures[first:]

    def steps(self, rules):
        """The walk in one rule set: yields None for each frame to run, DONE at the end
        (drive()); its failures go to self.failures."""
        st = self.app.settings
        st.rules_id = RULE_SETS.index(rules)
        st.anim, st.pace, st.hints, st.sound, st.level = 0, 0, 1, 1, 0
        st.teach = 0                     # lessons only where the walk opens them (lessons())
        self.settings0 = st.to_bytes()
        self.assets0 = self.app.assets
        self.rules = rules
        self.records = moments(rules)
        self.over = None
        self.fill_stats()
        variants = yield from self.variants()
        for label, scene, opener, keys in variants:
            if keys is None or self.buttons:     # a variant for one button: only if pressing
                yield from self.variant(label, scene, opener, keys)
        yield DONE

    def variant(self, label, scene, opener, keys):
        """Open the scene and press each button of its table the board has (or of `keys`).
        Buttons go on the same screen while it stays on top with the game unchanged (menu
        moves, page turns); it is opened again after one that left it."""
        top = None
        table = yield from self.table_of(label, scene, opener)
        for button, method in table:
            if button not in self.buttons or (keys is not None and button not in keys):
                continue
            what = "%s (%s)" % (self.name_of(button), method)
            try:
                if top is None or self.app.top() is not top or self.actions() != done:
                    top = yield from self.open(label, scene, opener)
                    done = self.actions()
                del self.got[:]
                mark = self.refusals()
                yield from self.press_on_board(button)
                if self.got[:1] != [button]:
                    raise AssertionError("the board's %s reached the app as %s" % (
                        self.name_of(button), [self.name_of(b) for b in self.got]))
                for _ in range(AFTER):
                    yield
                if self.refusals() != mark:
                    raise AssertionError("refused by the firmware: %s" % self.refused()[mark:])
                if self.app.top() is None:
                    raise AssertionError("no screen left")
            except Exception as e:
                self.fail(label, what, e)
                top = None
            self.opened.append((self.rules, scene, label, what))

    def table_of(self, label, scene, opener):
        """The key table of the scene, or none (and a failure) if it does not open."""
        try:
            keys = type((yield from self.open(label, scene, opener))).KEYS
        except Exception as e:
            self.fail(label, "open", e)
            return ()
        self.opened.append((self.rules, scene, label, "opened"))
        return keys

    def open(self, label, scene, opener):
        yield from opener()
        if self.top_name() != scene:
            raise AssertionError("opened %s, found %s" % (scene, self.top_name()))
        return self.app.top()

    def actions(self):
        s = self.app.session
        return -1 if s is None else s.state.nactions

    def fail(self, label, what, e):
        self.failures.append("%s, %s, %s, %s: %s: %s" % (self.label, self.rules, label, what,
                                                        type(e).__name__, e))
        show = getattr(sys, "print_exception", None)
        if show is not None:
            show(e)

    def refusals(self):
        return len(self.refused())

    def refused(self):
        hw = sys.modules.get("_hw")
        return hw.refused if hw is not None else []

    @staticmethod
    def name_of(button):
        from binocle.buttons import NAMES
        return NAMES[button] if 0 <= button < len(NAMES) else str(button)

    def top_name(self):
        top = self.app.top()
        return type(top).__name__ if top is not None else ""

    def scenes_opened(self, rules):
        out = []
        for r, scene, _, _ in self.opened:
            if r == rules and scene not in out:
                out.append(scene)
        return out

    # -- the screens and how each is reached ----------------------------------------------------

    def variants(self):
        """(label, scene, opener, buttons to press or None for the scene's whole table)."""
        from binocle import buttons as B
        A = (B.A,)
        out = [("title", "Title", self.title, None),
               ("title with a saved game", "Title", self.title_saved, None)]
        title_keys = yield from self.title_keys()
        for i in range(len(title_keys)):
            out.append(("title line %d" % i, "Title", self.title_line(i), A))
        out.append(("table", "Table", self.table, None))
        for name, _ in self.records:
            if name == "pick" or name == "bury" or name.startswith("choice "):
                out.append(("lessons at " + name, "Lesson", self.lessons(name), None))
        out.append(("lessons without their file", "Table", self.lessons_missing, (B.A,)))
        # (not last: the next screen's fresh() takes the lessons' folder back)
        for name, _ in self.records:
            if name.startswith("choice "):
                out.append((name, "Choice", self.choice(name), None))
        if self.has("bury"):
            out.append(("table, burying", "Table", self.table_at("bury"), None))
        if self.has("knock"):
            out += [("pause menu with the knock", "Pause", self.pause_at("knock"), None),
                    ("pause menu, a knock with enough", "Pause", self.knock_enough, A),
                    ("knock short of the target?", "Confirm", self.confirm_knock, None),
                    ("knock short of the target? yes", "Confirm", self.yes(self.confirm_knock), A)]
        if self.has("choice 5"):
            out += [("give up?", "Confirm", self.confirm_give_up, None),
                    ("give up? yes", "Confirm", self.yes(self.confirm_give_up), A),
                    ("melds after giving up", "Melds", self.melds_given_up, None),
                    ("summary after giving up", "Summary", self.summary_given_up, None),
                    ("score sheet after giving up", "Sheet", self.sheet_given_up, None)]
        out += [("last trick", "LastTrick", self.last_trick, None),
                ("last trick, none yet", "LastTrick", self.no_trick_yet, None)]
        if three_hands(self.rules):
            out.append(("melds", "Melds", self.melds, None))
        out.append(("pause", "Pause", self.pause, None))
        pause_lines = yield from self.pause_lines()
        for i in range(pause_lines):
            out.append(("pause line %d" % i, "Pause", self.pause_line(i), A))
        out += [("settings from the pause menu", "SettingsScreen", self.settings, None),
                ("settings from the title", "SettingsScreen", self.title_to("settings"), None)]
        settings_lines = yield from self.settings_lines()
        for i in range(settings_lines):
            out.append(("settings line %d" % i, "SettingsScreen", self.settings_line(i), A))
        if can_update():
            out += [("restart for update?", "Confirm", self.confirm_update, None),
                    ("restart for update? yes", "Confirm", self.yes(self.confirm_update), A)]
        else:           # the simulator: says so on the settings screen, asks nothing
            out.append(("firmware update, not here", "SettingsScreen", self.confirm_update, None))
        out += [("leave the game?", "Confirm", self.confirm_leave, None),
                ("reset statistics?", "Confirm", self.confirm_reset, None),
                ("leave the game? yes", "Confirm", self.yes(self.confirm_leave), A),
                ("reset statistics? yes", "Confirm", self.yes(self.confirm_reset), A),
                ("summary", "Summary", self.summary, None),
                ("score sheet from the pause menu", "Sheet", self.sheet_paused, None),
                ("score sheet after a deal", "Sheet", self.sheet_deal, None),
                ("summary, game over", "Summary", self.summary_over, None),
                ("score sheet, game over", "Sheet", self.sheet_over, None),
                ("game over", "GameOver", self.game_over, None),
                ("rules help from the pause menu", "Help", self.help_paused, None),
                ("rules help from the title", "Help", self.title_to("help"), None),
                ("rules help without its file", "Help", self.help_missing, None),
                ("statistics", "StatsScreen", self.title_to("stats"), None)]
        return out

    def has(self, moment):
        for name, _ in self.records:
            if name == moment:
                return True
        return False

    def record(self, moment):
        for name, data in self.records:
            if name == moment:
                return data
        raise AssertionError("no moment %r in the first deal of %s" % (moment, self.rules))

    def push(self, scene):
        self.app.push(scene)
        yield

    def fresh(self):
        """The settings of the walk's start again (a press may have changed them)."""
        self.app.settings.from_bytes(self.settings0)
        self.app.assets = self.assets0

    # the title

    def title(self):
        from binocle.scenes.title import Title
        self.fresh()
        self.app.session = None
        self.app.saved = None
        self.app.replace(Title(self.app))
        yield

    def title_saved(self):
        from binocle.scenes.title import Title
        self.fresh()
        self.app.session = None
        self.app.saved = self.record("pick")
        self.app.replace(Title(self.app))
        yield

    def title_keys(self):
        yield from self.title_saved()
        return list(self.app.top().keys)

    def title_line(self, i):
        def opener():
            yield from self.title_saved()
            self.app.top().menu.select(i)
        return opener

    def title_to(self, key):
        def opener():
            yield from self.title_saved()
            title = self.app.top()
            title.menu.select(title.keys.index(key))
            title.choose()
            yield
        return opener

    # a game

    def continued(self, moment):
        """The saved game at that moment, continued as the title's first line does; or, for
        "pick", if that table is still at the bottom with nothing played since, back to it
        (as B or "Resume" would go back), which is quicker."""
        self.fresh()
        app = self.app
        if moment == "pick" and self.base is not None and app.scenes and \
                app.scenes[0] is self.base[0] and app.session is self.base[0].session and \
                app.session.state.nactions == self.base[1]:
            while len(app.scenes) > 1:
                app.pop()
            yield
            if self.top_name() == "Table" and app.scenes[0].picking():
                return app.scenes[0]
        app.session = None
        app.saved = self.record(moment)
        if not app.resume_game():
            raise AssertionError("the record of %r did not load" % moment)
        yield
        self.base = (app.scenes[0], app.session.state.nactions) if moment == "pick" else None
        return app.scenes[0]

    def table(self):
        yield from self.continued("pick")

    def table_at(self, moment):
        def opener():
            yield from self.continued(moment)
        return opener

    def choice(self, moment):
        def opener():
            yield from self.continued(moment)
        return opener

    def pause_at(self, moment):
        def opener():
            table = yield from self.continued(moment)
            table.pause()
            yield
        return opener

    def knock_enough(self):
        """The pause menu's knock line with the person's count at the target: A knocks at once
        (the game is won)."""
        table = yield from self.continued("knock")
        state = table.session.state
        state.score[0] = state.target
        table.obs = table.session.observation()
        table.pause()
        yield
        pause = self.app.top()
        pause.menu.select(len(pause.menu.items) - 1)

    def confirm_knock(self):
        """The pause menu's last line, the knock, with the person's count short of the target
        (the first deal's): the question before it."""
        yield from self.pause_at("knock")()
        pause = self.app.top()
        pause.menu.select(len(pause.menu.items) - 1)
        pause.choose()
        yield

    def confirm_give_up(self):
        """Binokel: the person names trump; his first "give up" line asks first."""
        from engine import actions
        choice = yield from self.continued("choice 5")
        choice = self.app.top()
        choice.menu.select(choice.actions.index(actions.SURRENDER))
        choice.choose()
        yield

    def melds_given_up(self):
        yield from self.yes(self.confirm_give_up)()
        self.app.top().choose()
        yield

    def summary_given_up(self):
        yield from self.melds_given_up()
        self.app.top().close()
        yield
        yield

    def sheet_given_up(self):
        yield from self.summary_given_up()
        self.app.top().next()
        yield

    def last_trick(self):
        table = yield from self.continued("pick")
        table.show_last_trick()
        yield

    def no_trick_yet(self):
        table = yield from self.continued("fresh")
        table.show_last_trick()
        yield

    def melds(self):
        from binocle.scenes.melds import Melds
        table = yield from self.continued("pick")
        yield from self.push(Melds(self.app, table.obs, table.session.names))

    def pause(self):
        table = yield from self.continued("pick")
        table.pause()
        yield

    def pause_lines(self):
        yield from self.pause()
        return len(self.app.top().menu.items)

    def pause_line(self, i):
        def opener():
            yield from self.pause()
            self.app.top().menu.select(i)
        return opener

    def settings(self):
        yield from self.pause()
        self.app.top().settings()
        yield

    def settings_lines(self):
        yield from self.settings()
        return len(self.app.top().menu.items)

    def settings_line(self, i):
        def opener():
            yield from self.settings()
            self.app.top().menu.select(i)
        return opener

    def confirm_leave(self):
        yield from self.pause()
        self.app.top().new_game()
        yield

    def confirm_update(self):
        yield from self.settings()
        menu = self.app.top().menu
        menu.select(len(menu.items) - 1)
        self.app.top().choose()
        yield

    def confirm_reset(self):
        yield from self.title_to("stats")()
        menu = self.app.top().menu
        menu.select(len(menu.items) - 1)
        self.app.top().choose()
        yield

    def yes(self, confirm):
        def opener():
            yield from confirm()
            self.app.top().menu.select(1)
        return opener

    def summary(self):
        yield from self.continued("between")
        yield

    def sheet_paused(self):
        yield from self.pause()
        self.app.top().sheet()
        yield

    def sheet_deal(self):
        yield from self.summary()
        self.app.top().next()
        yield

    def over_session(self):
        """The game ended by the deal's last action: hoyle by a knock, the others with the
        target lowered to what the players have (the engine alone, not by the buttons)."""
        if self.over is None:
            from engine import actions, record
            from binocle.session import resume
            if knocking(self.rules):
                s = resume(self.record("knock"), LEVEL)
                s.apply(actions.KNOCK)
            else:
                s = resume(self.record("before end"), LEVEL)
                s.state.target = 1
                last = record.decode_actions(self.record("between"))
                s.apply(last[len(last) - 1])
            if not s.game_over():
                raise AssertionError("the game did not end")
            self.over = s
        return self.over

    def summary_over(self):
        from binocle.scenes.table import Table
        self.fresh()
        self.app.session = self.over_session()
        self.app.saved = None
        self.app.replace(Table(self.app, self.app.session))
        yield
        yield

    def sheet_over(self):
        yield from self.summary_over()
        self.app.top().next()
        yield

    def game_over(self):
        yield from self.sheet_over()
        self.app.top().next()
        yield

    def help_paused(self):
        yield from self.pause()
        self.app.top().rules()
        yield

    def help_missing(self):
        from binocle.scenes.help import Help
        yield from self.continued("pick")
        assets, self.app.assets = self.app.assets, "no-such-folder/"
        try:
            yield from self.push(Help(self.app, self.rules))
        finally:
            self.app.assets = assets

    def lessons(self, moment, assets=None):
        """The saved game continued at that moment (the person to move) with Explain rules
        on: the lessons due there, over the table or its menu (assets: another folder for
        the lessons' file)."""
        def opener():
            self.fresh()
            app = self.app
            app.settings.teach = 2
            if assets is not None:
                app.assets = assets
            app.session = None
            app.saved = self.record(moment)
            self.base = None
            if not app.resume_game():
                raise AssertionError("the record of %r did not load" % moment)
            yield
            yield
        return opener

    def lessons_missing(self):
        """Explain rules on and no assets/teach.txt: the game goes on without a word."""
        yield from self.lessons("pick", "no-such-folder/")()

    def fill_stats(self):
        """Some of everything in the statistics, so each of their lines shows."""
        from binocle.settings import LEVEL_NAMES
        stats = self.app.stats
        for r in range(len(RULE_SETS)):
            for lv in range(len(LEVEL_NAMES)):
                stats.deal(r, lv, 120 + r * 10 + lv, True, 1)
                stats.deal(r, lv, -80, False, -1)
                stats.game(r, lv, True)
                stats.game(r, lv, True)


# -- a board of firmware stand-ins ------------------------------------------------------------

FEATHER = "adafruit_feather_esp32s3_reverse_tft"
# How a player makes each of the app's buttons: (board, button, the board's button, ms held).
PRESSES = (
    ("pybadge", "left", "LEFT", 40), ("pybadge", "right", "RIGHT", 40), ("pybadge", "up", "UP", 40),
    ("pybadge", "down", "DOWN", 40), ("pybadge", "A", "A", 40), ("pybadge", "B", "B", 40),
    ("pybadge", "start", "START", 40), ("pybadge", "select", "SELECT", 40),
    ("pygamer", "left", "stick left", 40), ("pygamer", "right", "stick right", 40),
    ("pygamer", "up", "stick up", 40), ("pygamer", "down", "stick down", 40),
    ("pygamer", "A", "A", 40), ("pygamer", "B", "B", 40), ("pygamer", "start", "START", 40),
    ("pygamer", "select", "SELECT", 40),
    (FEATHER, "right", "D2", 40), (FEATHER, "A", "D1", 40), (FEATHER, "B", "D0", 40),
    (FEATHER, "start", "D0", 720), (FEATHER, "select", "D1", 720),
)
PROFILES = (("pybadge", "PyBadge"), ("pygamer", "PyGamer"), (FEATHER, "Feather ESP32-S3 TFT"))


class Board:
    """The app on a board of stand-ins, the board's hands (press(), a generator that yields
    once for each frame a press takes, and tick()) and the walk of its screens."""

    def __init__(self, hw, name):
        self.hw = hw                     # the stand-ins of the board, in place (standins.install)
        from binocle import boards
        from binocle.app import App
        from binocle.buttons import NAMES
        self.profile = boards.detect()
        self.app = App(self.profile, assets="assets/")
        self.ways = []
        for board, button, way, ms in PRESSES:
            if board == hw.board_id:
                self.ways.append((NAMES.index(button), way, ms))
        self.buttons = [b for b, _, _ in self.ways]
        self.walk = Walk(self.app, self.press, self.tick, self.buttons, name)

    def tick(self):
        self.hw.now += STEP_MS
        self.app.tick()

    def press(self, button):
        for b, name, ms in self.ways:
            if b == button:
                self.hw.press(name, True)
                try:
                    held = 0
                    while held < ms:
                        yield
                        held += STEP_MS
                finally:
                    self.hw.press(name, False)        # let go, whatever happened
                yield
                return
        raise AssertionError("this board has no way to press %d" % button)

    def opened_all(self, rules):
        """After the walk in one rule set: every scene of the scene table was opened."""
        missing = [s for s in SCENES if s not in self.walk.scenes_opened(rules)]
        if missing != ([] if three_hands(rules) else ["Melds"]):
            self.walk.failures.append("%s, %s: never opened %s" % (self.walk.label, rules, missing))

    def check(self):
        """After the whole walk: what the board's firmware saw."""
        hw = self.hw
        from microcontroller import RunMode
        assert RunMode.UF2 in hw.resets, "the firmware update never asked for the bootloader"
        if hw.board_id == FEATHER:
            assert hw.played == []                       # no speaker
        else:
            assert hw.played, "no card ever clicked"
        assert standins.foreign() == [], standins.foreign()
        assert self.app.display._refreshes > 0


def start(board_id, name):
    """The board switched on with the app on it; None where the firmware is built in."""
    hw = standins.install(board_id)
    if not standins.active():
        print("  (not here: this interpreter has the firmware's own modules built in)")
        return None
    board = Board(hw, name)
    assert board.profile.NAME == name
    return board


def walk_board(board_id, name):
    """Every screen in every rule set on one board; failures listed together at the end.
    The app's frames lie on this one's while the walk runs: few names here."""
    try:
        board = start(board_id, name)
        if board is None:
            return None
        for rules in RULES:
            drive(board.walk.steps(rules), board.app, board.hw)
            board.opened_all(rules)
        board.check()
    finally:
        standins.remove()
    assert not board.walk.failures, "\n".join(board.walk.failures)
    return board.walk
