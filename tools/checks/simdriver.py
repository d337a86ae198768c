"""Drive the simulator without a person: a fake clock, scripted button presses,
screenshots. The headless tests and `python -m tools screens` use it.

    d = Driver()                 # one per process: displayio has one display
    d.start("binokel", seed=5)   # through the title screen's menu, by buttons
    d.play_until("Sheet")        # the person's moves by buttons too (see person_move)
    d.shot("/tmp/sheet.png")
"""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import tools
from tools import cli

SCREENS = os.path.join(tools.ROOT, "docs", "screens")
STEP_MS = 40               # fake time per frame while waiting
MAX_FRAMES = 20000


class Stuck(Exception):
    """The scripted game did not get where it should (a bug, not a slow machine)."""



def until(d, want, pick_last=False):
    """Play on by buttons (the person's first legal card or menu line; the last with
    pick_last) until want(d) holds; the scene then on top."""
    for _ in range(20000):
        if want(d):
            return d.scene()
        if not d.person_move(pick_last):
            d.tick()
    raise AssertionError("never got there (at %s)" % d.scene_name())


def picking(d):
    """The person is to pick a card at the table."""
    return d.scene_name() == "Table" and d.scene().picking()

class Driver:
    def __init__(self, nvm=None):
        self.nvm = bytearray(b"\xff" * 8192) if nvm is None else nvm   # saves stay in RAM
        self.boot()

    def boot(self):
        """A new app on the same screen and saves: the board switched off and on."""
        from tools.users.sim import load_app
        self.app, self.profile = load_app(self.nvm)
        self.t = 1000
        self.profile.clock = self.clock
        self.seen = []                 # scene names, in the order first met
        from binocle import buttons
        self.B = buttons

    def clock(self):
        return self.t

    # -- time and buttons -----------------------------------------------------------

    def tick(self, ms=STEP_MS):
        self.t = (self.t + ms) & 0x1FFFFFFF
        self.app.tick()
        name = self.scene_name()
        if name not in self.seen:
            self.seen.append(name)

    def press(self, button, hold_ms=40):
        self.profile.buttons.inject(button, True)
        self.tick(hold_ms)
        self.profile.buttons.inject(button, False)
        self.tick(hold_ms)

    def scene(self):
        return self.app.top()

    def pause_item(self, name):
        """START at the table, then the pause menu's line of that name (A)."""
        self.press(self.B.START)
        self.wait_for(("Pause",), 50)
        for _ in range(self.scene().menu.items.index(name)):
            self.press(self.B.DOWN)
        self.press(self.B.A)

    @staticmethod
    def text(t, row=0):
        """What one of the app's texts (or a line of a block) shows, without trailing spaces."""
        from binocle import ui
        if hasattr(t, "text"):             # a label of adafruit_display_text: its own text
            return t.text.split("\n")[row].rstrip()
        out = ""
        for i in range(t.width):
            out += chr(32 + bytes(ui.GLYPH_OF).index(t[i, row]))
        return out.rstrip()

    def scene_name(self):
        s = self.app.top()
        return type(s).__name__ if s is not None else ""

    def wait_for(self, names, frames=MAX_FRAMES):
        for _ in range(frames):
            if self.scene_name() in names:
                return self.scene()
            self.tick()
        raise Stuck("waited for %s, still at %s" % (names, self.scene_name()))

    # -- a game ---------------------------------------------------------------------------

    def title(self):
        from binocle.scenes.title import Title
        self.app.replace(Title(self.app))
        self.tick()

    def start(self, rules, seed, level=None, fast=True, teach=0):
        """From the title screen: pick the rule set with the buttons, then Play. teach: the
        setting Explain rules (0 Off, 1 First game, 2 Always); off unless asked for."""
        st = self.app.settings
        st.teach = teach
        if fast:
            st.anim, st.pace = 0, 0
        if level is not None:
            st.level = ("easy", "normal", "hard").index(level)
        self.title()
        title = self.scene()
        self.to_line(title, "rules")
        from engine.rules import RULE_SETS
        for _ in range(len(RULE_SETS)):
            if title.app.settings.rules_name() == rules:
                break
            self.press(self.B.A)
        self.app.new_seed = lambda: seed
        self.to_line(title, "play")
        self.press(self.B.A)                            # Play (or New game)
        return self.wait_for(("Table", "Choice", "Lesson"), 50)

    def to_line(self, menu_scene, key):
        """Move a menu's cursor (by DOWN presses) to the line with this key."""
        for _ in range(len(menu_scene.keys) + 1):
            if menu_scene.keys[menu_scene.menu.index] == key:
                return
            self.press(self.B.DOWN)
        raise Stuck("no line %r on %s" % (key, self.scene_name()))

    def person_move(self, pick_last=False):
        """One decision of the person's, by buttons: the cursor to the first legal card
        (or the menu's first / last line), then A. Returns False if nothing was to do."""
        s = self.scene()
        name = type(s).__name__
        if name == "Table" and s.picking():
            legal = s.obs.legal
            for _ in range(len(s.slots) + 1):
                if s.slots[s.cursor][1] in legal:
                    break
                self.press(self.B.RIGHT)
            self.press(self.B.A)
            return True
        if name == "Choice":
            if pick_last:
                self.press(self.B.UP)
            self.press(self.B.A)
            return True
        if name in ("Melds", "Summary", "Sheet", "Lesson"):
            self.press(self.B.A)
            return True
        return False

    def play_until(self, names, frames=MAX_FRAMES, pick_last=False, on_scene=None):
        for _ in range(frames):
            name = self.scene_name()
            if name in names:
                return self.scene()
            if on_scene is not None:
                on_scene(self, name)
            if not self.person_move(pick_last):
                self.tick()
        raise Stuck("played on, never reached %s (at %s)" % (names, self.scene_name()))

    # -- pictures -------------------------------------------------------------------------

    def pixel(self, x, y):
        return tuple(self.profile.display._pygame_screen.get_at((x, y)))[:3]

    def shot(self, path, scale=1):
        import pygame
        surface = self.profile.display._pygame_screen
        if scale != 1:
            surface = pygame.transform.scale(surface, (surface.get_width() * scale, surface.get_height() * scale))
        pygame.image.save(surface, path)
        return path


@cli.command("screens")
def main(argv):
    """python -m tools screens [DIR]: the screenshots in docs/screens (3x), from scripted games."""
    parser = cli.Parser("screens", "The screenshots in docs/screens, from scripted games in the simulator.")
    parser.add_argument("dir", nargs="?", metavar="DIR", default=SCREENS,
                        help="where to write them (default docs/screens; made if missing)")
    out = parser.parse_args(argv).dir
    if os.path.exists(out) and not os.path.isdir(out):
        raise cli.UsageError("%s is a file, not a folder" % out)
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise cli.UsageError("no such folder: %s" % os.path.dirname(os.path.abspath(out)))
    os.makedirs(out, exist_ok=True)
    d = Driver()
    B = d.B
    d.title()
    d.shot(os.path.join(out, "title.png"), 3)
    d.start("hoyle", 7)
    d.play_until(("Choice",))
    d.shot(os.path.join(out, "meld.png"), 3)
    d.press(B.A)
    d.play_until(("Table",))
    while not d.scene().picking():
        d.tick()
    d.press(B.RIGHT)
    d.shot(os.path.join(out, "table-hoyle.png"), 3)
    d.press(B.START)
    d.shot(os.path.join(out, "pause.png"), 3)
    d.press(B.B)
    d.pause_item("Rules help")                         # its first page: the buttons
    d.shot(os.path.join(out, "help-buttons.png"), 3)
    d.press(B.B)
    d.press(B.B)
    d.press(B.SELECT)
    for _ in range(500):
        if d.app.hint_job is None:
            break
        d.tick()
    d.shot(os.path.join(out, "hint.png"), 3)
    d.start("binokel", 11)
    d.play_until(("Choice",))
    d.shot(os.path.join(out, "bid-binokel.png"), 3)
    d.play_until(("Melds",))
    d.shot(os.path.join(out, "melds-binokel.png"), 3)
    d.press(B.A)
    while not (d.scene_name() == "Table" and d.scene().picking() and d.scene().obs.trick):
        if not d.person_move():
            d.tick()
    d.shot(os.path.join(out, "table-binokel.png"), 3)
    d.app.art.suits(1)                                 # Suits: 4 colours (the settings line)
    d.tick()
    d.shot(os.path.join(out, "table-binokel-4colours.png"), 3)
    d.app.art.suits(d.app.settings.suits)
    while not (d.scene_name() == "Table" and d.scene().picking() and d.scene().obs.trick
               and d.scene().obs.last_trick):
        if not d.person_move():
            d.tick()
    d.press(B.B)                                       # the last trick, the prompt line above it
    d.shot(os.path.join(out, "lasttrick.png"), 3)
    d.press(B.B)
    d.play_until(("Summary",))
    d.shot(os.path.join(out, "summary-binokel.png"), 3)
    d.start("binokel", 1)                              # an AI seat takes the Dabb: shown to all
    for _ in range(MAX_FRAMES):
        if getattr(d.scene(), "dabb_shown", False):
            break
        if not d.person_move(pick_last=True):      # the person passes
            d.tick()
    d.shot(os.path.join(out, "dabb-binokel.png"), 3)
    d.start("hoyle", 7)
    d.play_until(("Summary",))
    d.shot(os.path.join(out, "summary-hoyle.png"), 3)
    d.start("french", 3)
    d.play_until(("Summary",))
    d.shot(os.path.join(out, "summary-french.png"), 3)
    d.press(B.A)
    d.shot(os.path.join(out, "sheet.png"), 3)
    traps(d, out)
    lessons(d, out)
    d.title()                                          # the statistics of the games above
    d.to_line(d.scene(), "stats")
    d.press(B.A)
    d.shot(os.path.join(out, "statistics-binokel.png"), 3)   # the rule set last played
    d.press(B.LEFT)                                    # the one before it
    d.shot(os.path.join(out, "statistics-french.png"), 3)
    print("screens in %s" % out)
    return 0


def traps(d, out):
    """The questions before a move that loses the game or the deal, and what follows them: a
    knock short of the target (hoyle, from the pause menu's last line) and the game's end it
    brings; binokel's trump menu with the melds per trump, Durch's question; giving up, the
    melds and the summary after it."""
    from engine import actions
    from engine.state import PH_CONTRACT
    B = d.B
    d.start("hoyle", 7)
    d.play_until(("Table",))
    while not (d.scene_name() == "Table" and d.scene().picking() and d.app.session.state.nactions > 20):
        if not d.person_move():
            d.tick()
    d.press(B.START)
    d.press(B.UP)                                      # the last line: the knock
    d.press(B.A)
    d.shot(os.path.join(out, "knock-confirm.png"), 3)
    d.press(B.DOWN)
    d.press(B.A)                                       # knocked, short: the game is lost
    d.play_until(("GameOver",))
    d.shot(os.path.join(out, "gameover-knock.png"), 3)
    d.start("binokel", 13, level="easy")               # the person wins the bidding
    while not (d.scene_name() == "Choice" and d.scene().obs.phase == PH_CONTRACT):
        if not d.person_move():
            d.tick()
    choice = d.scene()
    d.shot(os.path.join(out, "trump-menu-binokel.png"), 3)
    while choice.actions[choice.menu.index] != actions.DURCH:
        d.press(B.DOWN)
    d.press(B.A)
    d.shot(os.path.join(out, "durch-confirm.png"), 3)
    d.press(B.B)                                       # no Durch: back to the menu
    while choice.actions[choice.menu.index] != actions.SURRENDER + 2:
        d.press(B.DOWN)
    d.press(B.A)
    d.shot(os.path.join(out, "giveup-confirm.png"), 3)
    d.press(B.DOWN)
    d.press(B.A)
    d.shot(os.path.join(out, "melds-gaveup.png"), 3)
    d.play_until(("Summary",))
    d.shot(os.path.join(out, "summary-gaveup.png"), 3)


def lessons(d, out):
    """A game that teaches itself (Explain rules): the lessons of the stock, a meld offer and
    knocking (hoyle), the bidding and the Dabb (binokel), as they come."""
    want = {"The stock": "teach-stock.png", "A meld": "teach-meld.png", "Knocking": "teach-knock.png",
            "Bidding": "teach-bid.png", "The Dabb": "teach-dabb.png"}

    def shoot(d, name):
        if name == "Lesson":
            title = d.text(d.scene().title)
            if title in want:
                d.shot(os.path.join(out, want.pop(title)), 3)
    d.start("hoyle", 7, teach=2)                   # Always: traps() played a hoyle game out
    d.play_until(("Summary",), on_scene=shoot)
    d.start("binokel", 13, level="easy", teach=2)
    d.play_until(("Summary",), on_scene=shoot)
    if want:
        raise Stuck("no lesson %s" % ", ".join(sorted(want)))
