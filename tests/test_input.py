"""Input layer and board profiles: debounce, repeat, long presses, tick wrap,
the PyGamer stick, the simulator's injected edges and board detection."""

import os
import sys
import types
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "lib")
if LIB not in sys.path:
    sys.path.insert(0, LIB)

from binocle import boards  # noqa: E402
from binocle.boards import UnknownBoard, detect, profile_name  # noqa: E402
from binocle.buttons import A, B, COUNT, DOWN, LEFT, NAMES, RIGHT, SELECT, START, UP  # noqa: E402
from binocle.input import Input, ticks_diff  # noqa: E402

WRAP = 1 << 29
MASK = WRAP - 1


def run(inp, edges, end, step=10, start=0):
    """Feed edges (time, button, pressed) at their millisecond, poll every step
    ms from 0 to end; times are offset by start (mod 2**29). Returns the presses
    as (time relative to start, button)."""
    out = []
    log = []
    for t in range(end + 1):
        for when, button, pressed in edges:
            if when == t:
                inp.feed(button, pressed, (start + t) & MASK)
        if t % step == 0:
            inp.poll((start + t) & MASK, out)
            for button in out:
                log.append((t, button))
            del out[:]
    return log


def test_button_constants():
    assert (LEFT, RIGHT, UP, DOWN, A, B, START, SELECT, COUNT) == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert NAMES == ("left", "right", "up", "down", "A", "B", "start", "select")


def test_ticks_diff_wraps_at_2_29():
    assert ticks_diff(100, 40) == 60
    assert ticks_diff(40, 100) == -60
    assert ticks_diff(5, WRAP - 5) == 10
    assert ticks_diff(WRAP - 5, 5) == -10
    assert ticks_diff((1 << 28) - 1, 0) == (1 << 28) - 1
    assert ticks_diff(1 << 28, 0) == -(1 << 28)


def test_a_press_emits_once():
    assert run(Input(), [(0, A, True), (300, A, False)], 1000) == [(0, A)]


def test_bounces_inside_the_window_are_ignored():
    edges = [(0, A, True), (5, A, False), (12, A, True),  # contact bounce on press
             (200, A, False), (210, A, True), (215, A, False),  # bounce on release
             (400, A, True), (450, A, False)]  # a clean press after the window
    assert run(Input(), edges, 600, step=1) == [(0, A), (400, A)]


def test_edges_repeating_the_state_are_ignored():
    inp = Input()
    edges = [(0, A, True), (100, A, True), (200, A, True), (300, A, False), (400, A, False)]
    assert run(inp, edges, 500) == [(0, A)]
    assert inp.held(A) is False


def test_a_tap_shorter_than_the_window_does_not_stick():
    # The simulator can deliver key down and up in the same millisecond.
    inp = Input()
    assert run(inp, [(0, A, True), (0, A, False)], 30) == [(0, A)]
    assert inp.held(A) is False
    assert run(inp, [(0, A, True), (40, A, False)], 60, start=100) == [(0, A)]


def test_repeat_timing_is_exact():
    inp = Input()
    log = run(inp, [(0, RIGHT, True), (1000, RIGHT, False)], 1200)
    assert log == [(0, RIGHT), (400, RIGHT), (510, RIGHT), (620, RIGHT),
                   (730, RIGHT), (840, RIGHT), (950, RIGHT)]


def test_repeat_with_other_settings():
    inp = Input(repeatable=(UP,), repeat_delay_ms=200, repeat_ms=50)
    edges = [(0, UP, True), (330, UP, False), (0, LEFT, True), (330, LEFT, False)]
    assert run(inp, edges, 400) == [(0, UP), (0, LEFT), (200, UP), (250, UP), (300, UP)]


def test_a_stall_gives_one_repeat_not_a_burst():
    inp = Input()
    out = []
    inp.feed(RIGHT, True, 0)
    inp.poll(0, out)
    inp.poll(2000, out)
    inp.poll(2100, out)
    inp.poll(2110, out)
    assert out == [RIGHT, RIGHT, RIGHT]


def test_long_press_emits_the_alternative_once_and_nothing_on_release():
    inp = Input(long_map=((B, START), (A, SELECT)))
    edges = [(0, B, True), (1500, B, False)]
    assert run(inp, edges, 2000) == [(600, START)]


def test_short_press_of_a_long_mapped_button_emits_on_release():
    inp = Input(long_map=((B, START), (A, SELECT)))
    edges = [(0, B, True), (300, B, False), (1000, A, True), (1599, A, False)]
    assert run(inp, edges, 2000, step=1) == [(300, B), (1599, A)]


def test_long_hold_released_between_polls_still_counts_as_long():
    inp = Input(long_map=((B, START),))
    out = []
    inp.feed(B, True, 0)
    inp.poll(0, out)
    inp.feed(B, False, 605)
    inp.poll(700, out)
    assert out == [START]


def test_long_mapped_tap_inside_the_window_emits_after_it():
    inp = Input(long_map=((B, START),))
    assert run(inp, [(0, B, True), (5, B, False)], 100) == [(20, B)]


def test_queue_keeps_presses_fed_between_polls_in_order():
    inp = Input()
    out = []
    inp.feed(A, True, 0)
    inp.feed(A, False, 30)
    inp.feed(A, True, 60)
    inp.feed(B, True, 61)
    inp.feed(UP, True, 62)
    inp.poll(70, out)
    assert out == [A, A, B, UP]


def test_queue_drops_presses_beyond_16():
    inp = Input()
    out = []
    for i in range(20):
        inp.feed(A, True, i * 50)
        inp.feed(A, False, i * 50 + 25)
    inp.poll(1000, out)
    assert out == [A] * 16


def test_held_and_reset():
    inp = Input()
    out = []
    inp.feed(RIGHT, True, 0)
    inp.feed(A, True, 0)
    inp.poll(0, out)
    assert out == [RIGHT, A]
    assert (inp.held(RIGHT), inp.held(A), inp.held(B)) == (True, True, False)
    inp.feed(B, True, 5)
    inp.reset()  # drops the queued B and forgets RIGHT and A
    del out[:]
    inp.poll(1000, out)
    assert out == []
    assert (inp.held(RIGHT), inp.held(A), inp.held(B)) == (False, False, False)
    inp.feed(A, False, 1100)  # its release finds it already up
    inp.poll(1200, out)
    inp.feed(A, True, 1300)
    inp.poll(1300, out)
    assert out == [A]


def test_wraparound_gives_the_same_presses():
    edges = [(0, RIGHT, True), (1000, RIGHT, False), (100, B, True), (900, B, False),
             (1100, A, True), (1105, A, False), (1107, A, True), (1300, A, False)]
    plain = run(Input(long_map=((B, START),)), edges, 1500, step=1)
    assert plain == [(0, RIGHT), (400, RIGHT), (510, RIGHT), (620, RIGHT), (700, START),
                     (730, RIGHT), (840, RIGHT), (950, RIGHT), (1100, A)]
    for start in (WRAP - 500, WRAP - 1, WRAP - 1200):
        assert run(Input(long_map=((B, START),)), edges, 1500, step=1, start=start) == plain


def test_bad_long_map_is_refused():
    with pytest.raises(ValueError):
        Input(long_map=((B, 8),))


def test_input_runs_under_micropython_without_allocating():
    from tools import mpy
    source = "\n".join((
        "import sys, gc",
        "sys.path.insert(0, 'lib')",
        "from binocle.input import Input, ticks_diff",
        "from binocle.buttons import RIGHT, A, B, START",
        "inp = Input(long_map=((B, START),))",
        "out = [0] * 8",
        "del out[:]",
        "log = []",
        "gc.collect()",
        "gc.disable()",
        "alloc = 0",
        "for t in range(0, 1200, 10):",
        "    a = gc.mem_alloc()",
        "    if t == 0:",
        "        inp.feed(RIGHT, True, t)",
        "    if t == 100:",
        "        inp.feed(B, True, t)",
        "        inp.feed(A, True, t)",
        "        inp.feed(A, False, t)",
        "    if t == 1000:",
        "        inp.feed(RIGHT, False, t)",
        "    inp.poll(t, out)",
        "    alloc += gc.mem_alloc() - a",
        "    for x in out:",
        "        log.append((t, x))",
        "    del out[:]",
        "gc.enable()",
        "print(log)",
        "print(alloc, ticks_diff(5, (1 << 29) - 5))",
    ))
    status, out, err = mpy.run_source(source)
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "[(0, 1), (100, 4), (400, 1), (510, 1), (620, 1), (700, 6), (730, 1), (840, 1), (950, 1)]",
        "0 10",
    ]


# PyGamer stick ----------------------------------------------------------------

@pytest.fixture
def hardware(monkeypatch):
    """Fake CircuitPython modules (board, keypad, analogio, supervisor), so the
    device profiles import on CPython; their modules are dropped afterwards."""
    made = types.SimpleNamespace(keys=[], analog={})

    class Event:
        def __init__(self, key_number=0, pressed=True):
            self.key_number = key_number
            self.pressed = pressed

    class Queue:
        def __init__(self):
            self.pending = []

        def get_into(self, event):
            if not self.pending:
                return False
            event.key_number, event.pressed = self.pending.pop(0)
            return True

    class Keys:
        def __init__(self, pins=None, **kwargs):
            self.pins = pins
            self.kwargs = kwargs
            self.events = Queue()
            made.keys.append(self)

    class AnalogIn:
        def __init__(self, pin):
            self.value = 32768
            made.analog[pin] = self

    def module(name, **attrs):
        mod = types.ModuleType(name)
        for key in sorted(attrs):
            setattr(mod, key, attrs[key])
        monkeypatch.setitem(sys.modules, name, mod)
        return mod

    pins = ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "JOYSTICK_X", "JOYSTICK_Y", "D0", "D1", "D2")
    made.board = module("board", board_id="pybadge", DISPLAY=object(), **dict((p, p) for p in pins))
    module("keypad", Event=Event, Keys=Keys, ShiftRegisterKeys=Keys)
    module("analogio", AnalogIn=AnalogIn)
    module("supervisor", ticks_ms=lambda: 777)
    names = ("pybadge", "pygamer", "feather_s3_tft")
    for name in names:
        sys.modules.pop("binocle.boards." + name, None)
    yield made
    for name in names:
        sys.modules.pop("binocle.boards." + name, None)
        if hasattr(boards, name):
            delattr(boards, name)


class Recorder:
    def __init__(self):
        self.edges = []

    def feed(self, button, pressed, now_ms):
        self.edges.append((button, pressed, now_ms))


def test_stick_state_hysteresis(hardware):
    from binocle.boards.pygamer import stick_state
    cases = (
        (32768, 0, 0), (52767, 0, 0), (52768, 0, 1), (65535, 0, 1),
        (44768, 1, 1), (44767, 1, 0), (44768, 0, 0),  # between thresholds: keep
        (12769, 0, 0), (12768, 0, -1), (0, 0, -1),
        (20768, -1, -1), (20769, -1, 0), (20768, 0, 0),
        (0, 1, -1), (65535, -1, 1),  # flicked across in one reading
    )
    for value, state, expected in cases:
        assert (value, state, stick_state(value, state)) == (value, state, expected)


def test_stick_edges_from_fake_readings(hardware):
    from binocle.boards.pygamer import Stick
    stick = Stick()
    rec = Recorder()
    readings = ((32768, 32768), (60000, 32768), (50000, 32768), (40000, 32768),
                (32768, 5000), (32768, 60000), (0, 60000), (30000, 34000))
    for i, (x, y) in enumerate(readings):
        stick.update(x, y, rec, i)
    assert rec.edges == [
        (RIGHT, True, 1), (RIGHT, False, 3), (UP, True, 4), (UP, False, 5), (DOWN, True, 5),
        (LEFT, True, 6), (LEFT, False, 7), (DOWN, False, 7),
    ]


def test_stick_through_input_repeats_like_a_dpad(hardware):
    from binocle.boards.pygamer import Stick
    stick = Stick()
    inp = Input()
    out = []
    log = []
    for t in range(0, 601, 10):
        stick.update(64000 if t < 550 else 32768, 32768, inp, t)
        inp.poll(t, out)
        log.extend((t, b) for b in out)
        del out[:]
    assert log == [(0, RIGHT), (400, RIGHT), (510, RIGHT)]


# Board profiles with fake hardware ---------------------------------------------

def test_pybadge_profile(hardware):
    profile = detect()
    assert profile.__name__ == "binocle.boards.pybadge"
    assert (profile.NAME, profile.WIDTH, profile.HEIGHT, profile.OFFSET_X, profile.OFFSET_Y) == (
        "PyBadge", 160, 128, 0, 0)
    assert profile.display is hardware.board.DISPLAY
    assert profile.ticks_ms() == 777
    assert (profile.LONG_MAP, profile.LONG_LABELS) == ((), ())
    assert len(profile.LABELS) == 8
    (keys,) = hardware.keys
    assert keys.kwargs == {"clock": "BUTTON_CLOCK", "data": "BUTTON_OUT", "latch": "BUTTON_LATCH",
                           "key_count": 8, "value_when_pressed": True}
    keys.events.pending = [(k, True) for k in range(8)] + [(7, False)]
    rec = Recorder()
    profile.buttons.poll(rec, 42)
    assert rec.edges == [(B, True, 42), (A, True, 42), (START, True, 42), (SELECT, True, 42),
                         (RIGHT, True, 42), (DOWN, True, 42), (UP, True, 42), (LEFT, True, 42),
                         (LEFT, False, 42)]


def test_pygamer_profile(hardware):
    hardware.board.board_id = "pygamer"
    profile = detect()
    assert profile.__name__ == "binocle.boards.pygamer"
    assert (profile.WIDTH, profile.HEIGHT, profile.OFFSET_X, profile.OFFSET_Y) == (160, 128, 0, 0)
    (keys,) = hardware.keys
    assert keys.kwargs["key_count"] == 4
    keys.events.pending = [(0, True), (1, True), (2, True), (3, True)]
    hardware.analog["JOYSTICK_X"].value = 1000
    hardware.analog["JOYSTICK_Y"].value = 65000
    rec = Recorder()
    profile.buttons.poll(rec, 9)
    assert rec.edges == [(B, True, 9), (A, True, 9), (START, True, 9), (SELECT, True, 9),
                         (LEFT, True, 9), (DOWN, True, 9)]


def test_feather_profile_reaches_every_function_with_three_buttons(hardware):
    hardware.board.board_id = "adafruit_feather_esp32s3_reverse_tft"
    profile = detect()
    assert profile.__name__ == "binocle.boards.feather_s3_tft"
    assert (profile.WIDTH, profile.HEIGHT, profile.OFFSET_X, profile.OFFSET_Y) == (240, 135, 40, 3)
    assert profile.LONG_MAP == ((B, START), (A, SELECT))
    assert profile.LABELS == (None, "D2", None, None, "D1", "D0", None, None)
    assert profile.LONG_LABELS == ((START, "hold D0"), (SELECT, "hold D1"))
    low, high = hardware.keys
    assert (low.pins, low.kwargs) == (("D0",), {"value_when_pressed": False, "pull": True})
    assert (high.pins, high.kwargs) == (("D1", "D2"), {"value_when_pressed": True, "pull": True})
    low.events.pending = [(0, True)]
    high.events.pending = [(0, True), (1, True)]
    rec = Recorder()
    profile.buttons.poll(rec, 3)
    assert rec.edges == [(B, True, 3), (A, True, 3), (RIGHT, True, 3)]
    # With the app's wrapping menus, RIGHT, A, B, START and SELECT are enough.
    direct = [b for b in range(COUNT) if profile.LABELS[b] is not None]
    held = [alt for _, alt in profile.LONG_MAP]
    assert sorted(direct + held) == [RIGHT, A, B, START, SELECT]


# Detection -------------------------------------------------------------------

def test_profile_names():
    assert profile_name("pybadge") == "pybadge"
    assert profile_name("edgebadge") == "pybadge"
    assert profile_name("pygamer") == "pygamer"
    assert profile_name("adafruit_feather_esp32s3_reverse_tft") == "feather_s3_tft"
    # A different board: 320x240 screen and another key order.
    assert profile_name("pybadge_airlift") is None
    assert profile_name("") is None


def test_unknown_board(monkeypatch):
    fake = types.ModuleType("board")
    fake.board_id = "adafruit_feather_esp32s2_reverse_tft"
    monkeypatch.setitem(sys.modules, "board", fake)
    with pytest.raises(UnknownBoard) as info:
        detect()
    err = info.value
    assert err.board_id == "adafruit_feather_esp32s2_reverse_tft"
    assert err.lines() == [
        "Unknown board:",
        "adafruit_feather_esp32s2_r",
        "everse_tft",
        "Supported:",
        "PyBadge, PyBadge LC",
        "EdgeBadge",
        "PyGamer",
        "Feather ESP32-S3 Rev TFT",
    ]
    assert max(len(line) for line in err.lines()) == 26
    assert str(err) == "\n".join(err.lines())


# Simulator --------------------------------------------------------------------

@pytest.fixture
def sim(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no fast renderer available": headless SDL
        from binocle.boards import sim
    yield sim
    sim.clock = None
    sim.buttons._injected[:] = []


def test_sim_profile_names(sim):
    assert (sim.WIDTH, sim.HEIGHT, sim.OFFSET_X, sim.OFFSET_Y) == (160, 128, 0, 0)
    assert (sim.display.width, sim.display.height) == (160, 128)
    assert len(sim.LABELS) == 8
    assert sim.quit_requested() is False


def test_sim_clock_can_be_replaced(sim):
    sim.clock = lambda: 123456
    assert sim.ticks_ms() == 123456
    sim.clock = None
    assert 0 <= sim.ticks_ms() <= MASK


def test_sim_inject_reaches_the_input(sim):
    inp = Input(long_map=((B, START),))
    out = []
    sim.buttons.inject(A, True)
    sim.buttons.inject(B, True)
    sim.buttons.poll(inp, 0)
    inp.poll(0, out)
    sim.buttons.inject(A, False)
    sim.buttons.poll(inp, 100)
    inp.poll(100, out)
    sim.buttons.poll(inp, 700)  # nothing injected: no edges
    inp.poll(700, out)
    sim.buttons.inject(B, False)
    sim.buttons.poll(inp, 800)
    inp.poll(800, out)
    assert out == [A, START]


def test_sim_keyboard_edges(sim):
    import pygame
    inp = Input()
    out = []
    for kind, key in ((pygame.KEYDOWN, pygame.K_x), (pygame.KEYDOWN, pygame.K_SPACE),
                      (pygame.KEYUP, pygame.K_x), (pygame.KEYDOWN, pygame.K_RETURN),
                      (pygame.KEYDOWN, pygame.K_q)):
        pygame.event.post(pygame.event.Event(kind, key=key))
    sim.buttons.poll(inp, 0)
    inp.poll(0, out)
    assert out == [A, START]
    assert (inp.held(A), inp.held(START)) == (True, True)  # Space still holds A
    for kind, key in ((pygame.KEYUP, pygame.K_SPACE), (pygame.KEYUP, pygame.K_RETURN)):
        pygame.event.post(pygame.event.Event(kind, key=key))
    sim.buttons.poll(inp, 50)
    assert (inp.held(A), inp.held(START)) == (False, False)
