"""Logical button presses from raw edges: debounce, auto-repeat, long presses.

Pure logic, no hardware: a board profile feeds raw edges with
feed(button, pressed, now_ms) and the app calls poll(now_ms, out) once a frame.

- Debounce: an edge within debounce_ms of the button's last accepted edge is
  not acted on. The raw level is remembered, and if it still differs from the
  accepted one when the window has passed, poll() accepts it then; so bounces
  vanish but a tap shorter than the window never leaves a button stuck down.
- A button with a long-press alternative (long_map) emits on release if held
  less than long_ms, else its alternative once at long_ms and nothing on release.
- A repeatable button emits on press, then after repeat_delay_ms every repeat_ms.
- Any other button emits once on press.

Times are supervisor.ticks_ms() values, which wrap at 2**29: every comparison
goes through ticks_diff(). poll() allocates nothing (bytearrays and lists of
small ints are preallocated); only out.append() may grow the caller's list.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from binocle.buttons import LEFT, RIGHT, UP, DOWN, COUNT

_MASK = const(0x1FFFFFFF)  # ticks_ms() period is 2**29
_HALF = const(0x10000000)
_QSIZE = const(16)  # queued presses between two polls; a power of two
_QWRAP = const(15)


def ticks_diff(a, b):
    """a - b for wrapping ticks, in -2**28 .. 2**28-1 (as adafruit_ticks)."""
    return ((a - b + _HALF) & _MASK) - _HALF


def ticks_add(a, delta):
    return (a + delta) & _MASK


class Input:
    def __init__(self, long_map=None, repeatable=(LEFT, RIGHT, UP, DOWN),
                 debounce_ms=20, repeat_delay_ms=400, repeat_ms=110, long_ms=600):
        self.debounce_ms = debounce_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.long_ms = long_ms
        # Per button. _alt holds alternative + 1 so that 0 means none.
        self._alt = bytearray(COUNT)
        self._rep = bytearray(COUNT)
        self._state = bytearray(COUNT)  # accepted level
        self._raw = bytearray(COUNT)  # last level fed, maybe not yet accepted
        self._fired = bytearray(COUNT)  # long alternative emitted in this hold
        self._edge = [None] * COUNT  # time of the last accepted edge
        self._due = [0] * COUNT  # next repeat, or when the hold becomes long
        self._queue = bytearray(_QSIZE)
        self._head = 0
        self._len = 0
        if long_map:
            for button, alt in long_map:
                if not 0 <= alt < COUNT:
                    raise ValueError("bad long-press button")
                self._alt[button] = alt + 1
        for button in repeatable:
            self._rep[button] = 1

    def feed(self, button, pressed, now_ms):
        """A raw edge of one button at now_ms."""
        level = 1 if pressed else 0
        self._raw[button] = level
        if level == self._state[button]:
            return
        last = self._edge[button]
        if last is not None and ticks_diff(now_ms, last) < self.debounce_ms:
            return  # a bounce, unless it is still there once the window closes
        self._accept(button, level, now_ms)

    def poll(self, now_ms, out):
        """Append to out the presses that are due at now_ms."""
        state = self._state
        raw = self._raw
        for b in range(COUNT):
            if raw[b] != state[b]:
                settle = ticks_add(self._edge[b], self.debounce_ms)
                if ticks_diff(now_ms, settle) >= 0:
                    self._accept(b, raw[b], settle)
        queue = self._queue
        while self._len:
            out.append(queue[self._head])
            self._head = (self._head + 1) & _QWRAP
            self._len -= 1
        due = self._due
        for b in range(COUNT):
            if not state[b] or ticks_diff(now_ms, due[b]) < 0:
                continue
            alt = self._alt[b]
            if alt:
                if not self._fired[b]:
                    self._fired[b] = 1
                    out.append(alt - 1)
            elif self._rep[b]:
                out.append(b)
                nxt = ticks_add(due[b], self.repeat_ms)
                if ticks_diff(now_ms, nxt) >= 0:
                    # The app stalled (AI thinking): one press now, not a burst.
                    nxt = ticks_add(now_ms, self.repeat_ms)
                due[b] = nxt

    def held(self, button):
        return self._state[button] == 1

    def reset(self):
        """Forget held buttons and queued presses (on a change of screen).

        A button still physically down stays ignored until it is released and
        pressed again: its release edge finds it already up."""
        for b in range(COUNT):
            self._state[b] = 0
            self._raw[b] = 0
            self._fired[b] = 0
        self._len = 0

    def _accept(self, b, level, t):
        self._state[b] = level
        self._edge[b] = t
        alt = self._alt[b]
        if level:
            self._fired[b] = 0
            if alt:
                self._due[b] = ticks_add(t, self.long_ms)
            else:
                self._push(b)
                if self._rep[b]:
                    self._due[b] = ticks_add(t, self.repeat_delay_ms)
        elif alt and not self._fired[b]:
            # Released before a poll saw the hold: judge by the release time.
            if ticks_diff(t, self._due[b]) >= 0:
                self._push(alt - 1)
            else:
                self._push(b)

    def _push(self, b):
        if self._len < _QSIZE:  # full: drop, a frame cannot use 16 presses anyway
            self._queue[(self._head + self._len) & _QWRAP] = b
            self._len += 1
