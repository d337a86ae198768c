"""Stand-in for CircuitPython's keypad module (see _hw.py): Keys, ShiftRegisterKeys, Event,
EventQueue. A scanner reads the buttons as wired in _hw whenever its queue is looked at
(on the board it scans every `interval` in the background), so a key configured with the
wrong pins or the wrong value_when_pressed never reports a press, as on the board.
(Not here: KeyMatrix, no board of the game has one.)"""

import _hw
import supervisor

_int = _hw.check_int


class Event(_hw.Native):
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self._set(_int(key_number, "key_number", 0), pressed,
                  supervisor.ticks_ms() if timestamp is None else _int(timestamp, "timestamp"))

    def _set(self, key_number, pressed, timestamp):
        self._keep("key_number", key_number)
        self._keep("pressed", bool(pressed))
        self._keep("released", not pressed)
        self._keep("timestamp", timestamp)

    def __eq__(self, other):
        return (isinstance(other, Event) and self.key_number == other.key_number
                and self.pressed == other.pressed)

    def __hash__(self):
        return self.key_number * 2 + (1 if self.pressed else 0)


class EventQueue(_hw.Native):
    def __init__(self, *args, **kw):
        raise _hw.refuse(TypeError("cannot create 'EventQueue' instances"))

    def get(self):
        self._scanner._scan()
        if not self._q:
            return None
        return self._q.pop(0)

    def get_into(self, event):
        if not isinstance(event, Event):
            raise _hw.refuse(TypeError("event must be of type Event, not %s" % type(event).__name__))
        e = self.get()
        if e is None:
            return False
        event._set(e.key_number, e.pressed, e.timestamp)
        return True

    def clear(self):
        self._scanner._scan()
        del self._q[:]
        self._keep("overflowed", False)

    def __bool__(self):
        return len(self) > 0

    def __len__(self):
        self._scanner._scan()
        return len(self._q)


def _queue(scanner, max_events):
    q = object.__new__(EventQueue)
    q._keep("_scanner", scanner)
    q._keep("_q", [])
    q._keep("_max", max_events)
    q._keep("overflowed", False)
    return q


class _Scanner(_hw.Native):
    def _start(self, pins, key_count, value_when_pressed, interval, max_events, debounce_threshold):
        if not isinstance(interval, (int, float)) or isinstance(interval, bool) or interval < 0:
            raise _hw.refuse(ValueError("interval must be >= 0"))
        max_events = _int(max_events, "max_events", 1)
        _int(debounce_threshold, "debounce_threshold", 1, 127)
        for p in pins:
            _hw.claim(p, "pin")
        self._keep("_pins", pins)
        self._keep("key_count", key_count)
        self._keep("_vwp", bool(value_when_pressed))
        self._keep("_down", bytearray(key_count))
        self._keep("events", _queue(self, max_events))
        self._keep("_alive", True)

    def _scan(self):
        if not self._alive:
            raise _hw.refuse(ValueError("Object has been deinitialized and can no longer be used. "
                                        "Create a new object."))
        for k in range(self.key_count):
            now = 1 if self._level(k) == self._vwp else 0
            if now != self._down[k]:
                self._down[k] = now
                q = self.events
                if len(q._q) >= q._max:
                    q._keep("overflowed", True)
                else:
                    q._q.append(Event(k, now == 1))

    def reset(self):
        for k in range(self.key_count):
            self._down[k] = 0

    def deinit(self):
        if self._alive:
            for p in self._pins:
                _hw.release(p)
            self._keep("_alive", False)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()


class Keys(_Scanner):
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        pins = list(pins)
        for i in range(len(pins)):
            for j in range(i):
                if pins[i] is pins[j]:
                    raise _hw.refuse(ValueError("duplicate pins"))
        self._start(pins, len(pins), value_when_pressed, interval, max_events, debounce_threshold)
        self._keep("_pull", bool(pull))

    def _level(self, k):
        # With pull, the pull-up (pressed = low) or pull-down holds an idle pin; without,
        # the board's own resistor does, or an unwired pin floats: taken as not pressed.
        return _hw.pin_level(self._pins[k]._name, not self._vwp)


class ShiftRegisterKeys(_Scanner):
    def __init__(self, *, clock, data, latch, value_to_latch=True, key_count, value_when_pressed,
                 interval=0.020, max_events=64, debounce_threshold=1):
        data = list(data) if isinstance(data, (list, tuple)) else [data]
        counts = list(key_count) if isinstance(key_count, (list, tuple)) else [key_count]
        if len(counts) != len(data):
            raise _hw.refuse(ValueError("key_count length must be %d" % len(data)))
        total = 0
        for c in counts:
            total += _int(c, "key_count", 1)
        self._start([clock, latch] + data, total, value_when_pressed, interval, max_events,
                    debounce_threshold)
        self._keep("_wires", (clock._name, [d._name for d in data], latch._name, counts))
        self._keep("_latch_high", bool(value_to_latch))

    def _level(self, k):
        clock, data, latch, counts = self._wires
        for d in range(len(data)):
            if k < counts[d]:
                bit = _hw.register_bit(clock, data[d], latch, k) if self._latch_high else None
                return bool(bit)             # wrong pins or latch: the data line reads low
            k -= counts[d]
        return False
