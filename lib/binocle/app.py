"""The app: a stack of scenes fed by the buttons, drawn on one displayio group.

    buttons -> Input -> App.press() -> top scene's key table -> Session (engine)
    App.tick() -> scene.update(now) -> labels and sprites that changed

A scene is an object with `group` (what it draws), `KEYS` (a tuple of
(button, method name) pairs: the scene table), `update(now)` and, for
overlays, `OVERLAY = True` (the scene below stays visible). A scene seen now
and then names its modules in `UNLOAD`: they are forgotten when it closes and
no other open scene names them, so their code does not stay in RAM.
"""

import gc
import sys

import displayio

from binocle import buttons as B
from binocle import forget, forget_since
from binocle import ui, words
from binocle.input import Input, ticks_add, ticks_diff
from binocle.settings import Settings, THINK_MS

_SPIN = "-\\|/"


class App:
    def __init__(self, profile, assets="/assets/", settings=None, nvm=None):
        self.profile = profile
        self.display = profile.display
        self.input = Input(long_map=profile.LONG_MAP)
        self.settings = settings or Settings()
        self.notes = []                  # messages for the title screen (damaged saves)
        self._open_saves(nvm)
        self.assets = assets
        self.art = ui.CardArt(assets + "cards.bmp", self.settings.suits)
        self.root = displayio.Group()
        self.screen = displayio.Group(x=profile.OFFSET_X, y=profile.OFFSET_Y)
        self.root.append(self.screen)
        self.scenes = []
        self.screen.append(ui.panel(0, 0, ui.W, ui.H, ui.GREEN))   # under every screen
        self.layers = displayio.Group()
        self.screen.append(self.layers)
        self._build_overlay()
        self.presses = []
        self.now = profile.ticks_ms()
        self.toast_until = 0
        self.hint_job = None
        self.running = True
        self.failed = False              # a screen failed and no button was pressed since
        self.session = None
        self.frames = 0
        self.display.root_group = self.root
        self.fresh = tuple(sys.modules)  # what a fresh start holds: the title goes back to it

    def _build_overlay(self):
        top = displayio.Group()
        # A message: a band of up to three lines at the top of the screen, or at its foot
        # when a menu is up there (App._place): never over the trick, the Dabb or a menu.
        self.toast_box = displayio.Group()
        self.toast_panel = ui.panel(0, 0, ui.W, 3 * ui.LINE + 2, ui.INK)
        self.toast_box.append(self.toast_panel)
        self.toast_text = ui.block(2, 1, ui.CHARS, 3, ui.YELLOW)
        self.toast_box.append(self.toast_text)
        self.toast_box.hidden = True
        top.append(self.toast_box)
        self.spinner = ui.text(" ", ui.W - 7, 0, ui.YELLOW, ui.INK, width=1)
        top.append(self.spinner)
        self.screen.append(top)

    # -- scenes ---------------------------------------------------------------------

    def top(self):
        return self.scenes[-1] if self.scenes else None

    def push(self, scene):
        if not getattr(scene, "OVERLAY", False):
            self.clear_toast()           # a message belongs to the screen it was said on
        self.scenes.append(scene)
        self.layers.append(scene.group)
        self._restack()
        self._place()

    def pop(self):
        scene = self.scenes.pop()
        self.layers.remove(scene.group)
        self._restack()
        self._unload([scene])
        self._place()
        if self.scenes and hasattr(self.scenes[-1], "reveal"):
            self.scenes[-1].reveal()
        return scene

    def replace(self, scene):
        """Drop every scene and show this one (new game, back to the title)."""
        gone = self._drop()
        self.push(scene)
        self._unload(gone)

    def _drop(self):
        gone = []
        while self.scenes:
            gone.append(self.scenes.pop())
            self.layers.remove(gone[-1].group)
        return gone

    def _unload(self, gone):
        """Forget the modules of closed scenes that no open scene still uses. gone: a list of
        the closed scenes, emptied here so that the collection frees them too."""
        names = []
        for old in gone:
            for name in getattr(old, "UNLOAD", ()):
                if name not in names and not self._in_use(name):
                    names.append(name)
        old = None
        del gone[:]
        if names:
            forget(*names)
            gc.collect()

    def _in_use(self, name):
        for s in self.scenes:
            if name in getattr(s, "UNLOAD", ()):
                return True
        return False

    def cover(self):
        """A whole screen is about to open: the scenes below let go of what they draw
        first (those with sleep(); wake() when they show again, in tick or press)."""
        for s in self.scenes:
            if hasattr(s, "sleep") and not s.asleep:
                s.sleep()
        gc.collect()

    def _wake(self):
        for s in self.scenes:
            if getattr(s, "asleep", False) and not s.group.hidden:
                s.wake()

    def _restack(self):
        """Show the top scene and, under an overlay, the scenes below it."""
        visible = True
        for i in range(len(self.scenes) - 1, -1, -1):
            s = self.scenes[i]
            s.group.hidden = not visible
            if not getattr(s, "OVERLAY", False):
                visible = False

    # -- messages and the busy sign ------------------------------------------------

    def toast(self, text, ms=1800):
        lines = words.wrap(text, ui.CHARS)
        ui.set_lines(self.toast_text, lines)
        self.toast_panel.height = ui.LINE * min(3, len(lines)) + 2
        self.toast_box.hidden = False
        self._place()
        self.toast_until = ticks_add(self.now, ms) or 1     # 0 means no message

    def _place(self):
        """The band at the top, or at the foot when the top scene's menu is up there."""
        menu = getattr(self.top(), "menu", None)
        h = self.toast_panel.height
        self.toast_box.y = ui.H - h if menu is not None and menu.y < h else 0

    def clear_toast(self):
        self.toast_box.hidden = True
        self.toast_until = 0

    def busy(self, on):
        """The spinner in the top-right corner: something is thinking."""
        if on:
            ui.set_text(self.spinner, _SPIN[(self.now // 120) % 4])
            self.spinner.hidden = False
        elif not self.spinner.hidden:
            self.spinner.hidden = True

    # -- hints ------------------------------------------------------------------------

    def ask_hint(self, on_ready):
        """Work out the person's best move in slices; on_ready(action, reason) when done."""
        if not self.settings.hints:
            self.toast("Hints are off (Settings)")
            return
        self.hint_job = on_ready

    def _step_hint(self):
        ready = self.session.hint_step(self.profile.ticks_ms, THINK_MS)
        if ready is None:
            self.busy(True)
            return
        on_ready = self.hint_job
        self.hint_job = None
        on_ready(ready[0], ready[1])

    # -- the loop ---------------------------------------------------------------------

    def press(self, button):
        scene = self.top()
        if scene is None:
            return
        self.failed = False
        self._wake()
        if self.toast_until and button != B.SELECT:
            self.clear_toast()
        if hasattr(scene, "skip") and scene.skip() and button != B.SELECT and button != B.START:
            return                       # the press only hurried the game on
        for key, name in scene.KEYS:
            if key == button:
                getattr(scene, name)()
                return

    def tick(self):
        """One frame: buttons, the top scene's work, the screen. A screen that fails (a bug)
        does not stop the game: recover() takes the player back."""
        self.now = self.profile.ticks_ms()
        try:
            self._frame()
        except MemoryError:
            raise                        # code.py says what it means
        except Exception as e:
            self.recover(e)
        self.frames += 1
        self.display.refresh()

    def _frame(self):
        self.profile.buttons.poll(self.input, self.now)
        presses = self.presses
        presses.clear()
        self.input.poll(self.now, presses)
        for b in presses:
            self.press(b)
        self._wake()                     # a scene shown again by those presses
        if self.toast_until and ticks_diff(self.now, self.toast_until) >= 0:
            self.clear_toast()
        if self.hint_job is not None:
            self._step_hint()
        scene = self.top()
        if scene is not None:
            scene.update(self.now)
        if self.hint_job is None and not (scene is not None and getattr(scene, "thinking", False)):
            self.busy(False)

    def close_all(self):
        """Close every scene and the game in progress, and free what they held before
        whatever comes next is loaded (the title, a replayed game)."""
        self.session = self.hint_job = None
        self._unload(self._drop())
        gc.collect()

    def to_title(self, over=None, words_of=None):
        """Leave the game (if any) for the title screen: every way back goes here. The game
        is let go as a fresh start has none: its record kept as the bytes saved (autosave),
        its modules forgotten; Continue replays it as at start (begin.resume_session).
        over: the game over's scene class, opened instead with words_of, its words."""
        self.close_all()
        s = self.saved
        if s is not None and not isinstance(s, bytes):
            self.saved = bytes(self.record_head) + bytes(s.history[:self.kept])
        s = None
        forget_since(self.fresh)
        gc.collect()
        if over is not None:
            self.push(over(self, words_of))
            return
        from binocle.scenes.title import Title
        self.push(Title(self))

    def run(self):
        self.to_title()
        while self.running:
            self.tick()
            if hasattr(self.profile, "quit_requested") and self.profile.quit_requested():
                break

    # -- saves: settings, statistics, the game in progress (store.py, saveload.py) ----

    def _open_saves(self, nvm):
        # saveload.restore() sets what the next journal entry holds: settings_bytes (the
        # settings as bytes) and record_head (the game's 7 header bytes); autosave() sets
        # kept (how many of its action bytes were saved). Not set here before: those three
        # names made in __init__ moved a compile on the board out of its 144.5 KB pool.
        from binocle import saveload
        saveload.restore(self, nvm)      # the journal, settings, statistics, the saved game
        forget("binocle.saveload", "binocle.nvmstore")   # read once: not kept during play

    def note(self, msg):
        if msg:
            self.notes.append(msg.replace("\n", " "))

    def write_entry(self):
        """One journal entry: settings, statistics and the game to continue, if any."""
        if self.store is not None and not self.said_too_long and \
                not self.store.keep(self.settings_bytes, self.stats.b, self.record_head, self.saved):
            from binocle.store import MSG_TOO_LONG
            self.said_too_long = True
            self.toast(MSG_TOO_LONG.replace("\n", " "), 4000)

    def _backup(self, due):
        """The entry, and if due the nvm's copy of settings and statistics: one erase of the
        nvm, so only at every second game's end, a reset, or with no journal at all."""
        if due and self.store is not None:
            self.stats.mark(self.store.seq + 1)
        self.write_entry()
        if due and (self.store is not None or self.nvm_only):
            from binocle import nvmstore
            nvmstore.write_backup(self.nvm, self.settings_bytes, self.stats.b)
            forget("binocle.nvmstore")

    def save_settings(self):
        self.settings_bytes = self.settings.to_bytes()
        self._backup(self.store is None)

    def save_stats(self):
        self._backup(True)

    def autosave(self):
        """After every action: the game, with the statistics counting what it finished, in
        one entry, so a power cut loses at most that action and counts every deal once."""
        self.deal_done(None)
        state = self.session.state
        over = state.is_game_over()
        if over:                         # a game of this rule set played out: no first-game lessons
            st = self.settings
            st.taught |= 1 << st.rules_id_of(self.session.rules)
            self.settings_bytes = st.to_bytes()
        self.saved = None if over else state
        self.kept = len(state.history)
        self._backup(over and (self.store is None or self.stats.games() % 2 == 0))

    def deal_done(self, obs):
        """Count what the game finished and is not counted yet (stats.py: once each)."""
        st, s = self.settings, self.session
        self.stats.count(st.rules_id_of(s.rules), st.game_level, s.state.sheet,
                         s.state.is_game_over(), s.state.winner() == 0)

    def beep(self, freq, ms):
        tone = getattr(self.profile, "tone", None)
        if tone is not None and self.settings.sound:
            tone(freq, ms)

    # -- the game -----------------------------------------------------------------------

    def new_seed(self):
        """A seed from the time since start and the frames drawn: differs game to game."""
        return (self.profile.ticks_ms() * 31 + self.frames * 7919) & 0xFFFFFFF


    # -- a game begins (binocle/begin.py, loaded when needed) ----------------------------
    # resume_game and recover call begin's functions themselves and forget the module after
    # (should those fail, recover() forgets it): _begin's frame and its call with *args
    # (88 bytes) would lie under the replay of a saved game, the deepest the app goes on a
    # board's 2 KB Python stack (python -m tools pystack; recover() leads there too).

    def start_game(self, seed):
        self._begin("new_game", seed)

    def new_session(self, seed):
        self._begin("new_session", seed)

    def resume_game(self):
        """The saved game replayed, at the table; else the title, which says why (False).
        The replay runs from here, under no frame of begin's."""
        from binocle import begin
        begin.loading(self)
        done = begin.resume_session(self)
        begin.resumed(self, done)
        forget("binocle.begin")
        return done

    def resume_session(self):
        return self._begin("resume_session")

    def recover(self, e):
        from binocle import begin
        begin.recover(self, e)
        forget("binocle.begin")

    def _begin(self, what, *args):
        from binocle import begin
        try:
            return getattr(begin, what)(self, *args)
        finally:
            forget("binocle.begin")


def main():
    """Start on a board: pick its profile, or say on screen that the board is unknown."""
    App(_profile()).run()


def _profile():
    from binocle import boards
    try:
        profile = boards.detect()
    except boards.UnknownBoard as e:
        boards.show_message(e.lines())
        while True:
            pass
    forget("binocle.boards")             # found: the profile module is all the app keeps
    return profile
