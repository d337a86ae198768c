"""The app: a stack of scenes fed by the buttons, drawn on one displayio group.

    buttons -> Input -> App.press() -> top scene's key table -> Session (engine)
    App.tick() -> scene.update(now) -> labels and sprites that changed

A scene is an object with `group` (what it draws), `KEYS` (a tuple of
(button, method name) pairs: the scene table), `update(now)` and, for
overlays, `OVERLAY = True` (the scene below stays visible).
"""

import displayio

from binocle import buttons as B
from binocle import ui
from binocle.anim import ticks_diff
from binocle.input import Input
from binocle.settings import Settings

_THINK_SLICE_MS = 30       # AI work per frame: the buttons are read between slices
_SPIN = "-\\|/"


class App:
    def __init__(self, profile, assets="/assets/", settings=None):
        self.profile = profile
        self.display = profile.display
        self.input = Input(long_map=profile.LONG_MAP)
        self.settings = settings or Settings()
        self.sheet = ui.Sheet(assets + "cards.bmp")
        self.root = displayio.Group()
        self.screen = displayio.Group(x=profile.OFFSET_X, y=profile.OFFSET_Y)
        self.root.append(self.screen)
        self.scenes = []
        self.layers = displayio.Group()
        self.screen.append(self.layers)
        self._build_overlay()
        self.presses = []
        self.now = profile.ticks_ms()
        self.toast_until = 0
        self.hint_job = None
        self.running = True
        self.session = None
        self.frames = 0
        self.display.root_group = self.root

    def _build_overlay(self):
        top = displayio.Group()
        self.toast_panel = ui.panel(0, 56, ui.W, 3 * ui.LINE + 4, ui.INK)
        top.append(self.toast_panel)
        self.toast_lines = []
        for i in range(3):
            lab = ui.text("", 2, 58 + ui.LINE * i, ui.YELLOW)
            self.toast_lines.append(lab)
            top.append(lab)
        self.spinner = ui.text(" ", ui.W - 7, 0, ui.YELLOW, ui.INK)
        top.append(self.spinner)
        self.toast_panel.hidden = True
        self.screen.append(top)
        self.busy_text = None

    # -- scenes ---------------------------------------------------------------------

    def top(self):
        return self.scenes[-1] if self.scenes else None

    def push(self, scene):
        self.clear_toast()               # a message belongs to the screen it was said on
        self.scenes.append(scene)
        self.layers.append(scene.group)
        self._restack()

    def pop(self):
        scene = self.scenes.pop()
        self.layers.remove(scene.group)
        self._restack()
        if self.scenes and hasattr(self.scenes[-1], "reveal"):
            self.scenes[-1].reveal()
        return scene

    def replace(self, scene):
        """Drop every scene and show this one (new game, back to the title)."""
        while self.scenes:
            self.layers.remove(self.scenes.pop().group)
        self.push(scene)

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
        lines = ui_lines(text)
        for i in range(3):
            ui.set_text(self.toast_lines[i], lines[i] if i < len(lines) else "")
        self.toast_panel.height = ui.LINE * min(3, len(lines)) + 4
        self.toast_panel.hidden = False
        for lab in self.toast_lines:
            lab.hidden = False
        self.toast_until = (self.now + ms) & 0x1FFFFFFF

    def clear_toast(self):
        self.toast_panel.hidden = True
        for lab in self.toast_lines:
            lab.hidden = True
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
        ready = self.session.hint_step(self.profile.ticks_ms, _THINK_SLICE_MS)
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
        if self.toast_until and button != B.SELECT:
            self.clear_toast()
        if hasattr(scene, "skip") and scene.skip():
            return                       # the press only finished an animation
        for key, name in scene.KEYS:
            if key == button:
                getattr(scene, name)()
                return

    def tick(self):
        """One frame: buttons, the top scene's work, the screen."""
        self.now = self.profile.ticks_ms()
        self.profile.buttons.poll(self.input, self.now)
        presses = self.presses
        presses.clear()
        self.input.poll(self.now, presses)
        for b in presses:
            self.press(b)
        if self.toast_until and ticks_diff(self.now, self.toast_until) >= 0:
            self.clear_toast()
        if self.hint_job is not None:
            self._step_hint()
        scene = self.top()
        if scene is not None:
            scene.update(self.now)
        if self.hint_job is None and not (scene is not None and getattr(scene, "thinking", False)):
            self.busy(False)
        self.frames += 1
        self.display.refresh()

    def run(self):
        from binocle.scenes.title import Title
        self.replace(Title(self))
        while self.running:
            self.tick()
            if hasattr(self.profile, "quit_requested") and self.profile.quit_requested():
                break

    # -- the game -----------------------------------------------------------------------

    def new_seed(self):
        """A seed from the time since start and the frames drawn: differs game to game."""
        return (self.profile.ticks_ms() * 31 + self.frames * 7919) & 0xFFFFFFF

    def start_game(self, seed):
        from binocle.session import Session
        from binocle.scenes.table import Table
        st = self.settings
        self.session = Session(st.rules_name(), seed, st.options(), st.level_name())
        self.replace(Table(self, self.session))


def ui_lines(text):
    from binocle.words import wrap
    return wrap(text, ui.CHARS)


def main():
    """Start on a board: pick its profile, or say on screen that the board is unknown."""
    from binocle import boards
    try:
        profile = boards.detect()
    except boards.UnknownBoard as e:
        boards.show_message(e.lines())
        while True:
            pass
    App(profile).run()
