"""Desktop simulator profile: a 160x128 pygame window standing in for a PyBadge.

Keys: KEYS below (arrows, X = A, Z = B, Enter = START, Tab = SELECT). Tests can
skip the keyboard with buttons.inject() and set the module's clock to a callable
to control time. Desktop only: pygame stays inside this module.
"""

import time

import pygame
from blinka_displayio_pygamedisplay import PyGameDisplay

from binocle.buttons import LEFT, RIGHT, UP, DOWN, A, B, START, SELECT

NAME = "Simulator"
WIDTH = 160
HEIGHT = 128
OFFSET_X = 0
OFFSET_Y = 0

# SCALED lets SDL enlarge the tiny window on a desktop; it works headless too.
display = PyGameDisplay(width=WIDTH, height=HEIGHT, caption="Binocle",
                        flags=pygame.SCALED, auto_refresh=False)

# The keyboard, the one place it is written down: for each button, in the order of
# binocle.buttons (left, right, up, down, A, B, START, SELECT), its keys as (the name a
# person reads, pygame's name). The first key's name is the one the game shows (LABELS: the
# rules help's buttons page and its foot); `python -m tools sim --help` lists them all,
# reading this table as text (tools/users/sim.py sim_keys), so it stays plain literals.
KEYS = (
    (("Left", "K_LEFT"),), (("Right", "K_RIGHT"),), (("Up", "K_UP"),), (("Down", "K_DOWN"),),
    (("X", "K_x"), ("Space", "K_SPACE")),
    (("Z", "K_z"), ("Backspace", "K_BACKSPACE")),
    (("Enter", "K_RETURN"), ("keypad Enter", "K_KP_ENTER")),
    (("Tab", "K_TAB"), ("H", "K_h")),
)
LONG_MAP = ()
LABELS = tuple(keys[0][0] for keys in KEYS)
LONG_LABELS = ()

# (pygame key, button) for every key
_KEYS = tuple((getattr(pygame, code), button) for button in (LEFT, RIGHT, UP, DOWN, A, B, START, SELECT)
              for _name, code in KEYS[button])
_KEY_EVENTS = (pygame.KEYDOWN, pygame.KEYUP)
# Events nobody reads would pile up in SDL's queue over a long session.
_NOISE = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
          pygame.MOUSEWHEEL, pygame.TEXTINPUT, pygame.TEXTEDITING)

clock = None  # tests set a callable returning ticks to drive time themselves
_quit = False


def ticks_ms():
    if clock is not None:
        return clock()
    return (time.monotonic_ns() // 1_000_000) & 0x1FFFFFFF


def quit_requested():
    """True once the window was closed (stays True)."""
    global _quit
    if not _quit and display.check_quit(delay=0):
        _quit = True
    return _quit


def _key_index(key):
    for i in range(len(_KEYS)):
        if _KEYS[i][0] == key:
            return i
    return -1


class _Buttons:
    def __init__(self):
        self._injected = []
        # Which keys of _KEYS are down: X and Space both mean A, releasing one
        # while the other is down must not release A, and SDL's own key repeat
        # (if someone turns it on) must not count as new presses.
        self._down = bytearray(len(_KEYS))

    def inject(self, button, pressed):
        """Queue a raw edge for the next poll, as if a key had moved."""
        self._injected.append((button, bool(pressed)))

    def poll(self, inp, now_ms):
        """Feed injected edges, then keyboard edges, to inp."""
        for button, pressed in self._injected:
            inp.feed(button, pressed, now_ms)
        del self._injected[:]
        if _quit or not pygame.display.get_init():
            return  # the window is gone; only injected edges remain
        for event in pygame.event.get(_KEY_EVENTS):
            i = _key_index(event.key)
            if i < 0:
                continue
            pressed = event.type == pygame.KEYDOWN
            if self._down[i] == pressed:
                continue
            self._down[i] = pressed
            button = _KEYS[i][1]
            if not self._other_down(i, button):
                inp.feed(button, pressed, now_ms)
        pygame.event.clear(_NOISE)

    def _other_down(self, i, button):
        for j in range(len(_KEYS)):
            if j != i and self._down[j] and _KEYS[j][1] == button:
                return True
        return False


buttons = _Buttons()


tones = []          # (frequency, ms) of every beep asked for: what the tests look at


def tone(freq, ms):
    """The beep, through pygame's mixer where there is sound (not in headless tests)."""
    tones.append((freq, ms))
    del tones[:-50]
    try:
        import array
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=22050, size=-16, channels=1)
        period = max(2, 22050 // freq)
        wave = array.array("h", ([6000] * (period // 2) + [-6000] * (period - period // 2)) * max(1, freq * ms // 1000))
        pygame.mixer.Sound(buffer=wave.tobytes()).play()
    except pygame.error:
        pass
