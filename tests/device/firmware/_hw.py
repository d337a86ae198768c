"""The board behind the firmware stand-ins in this folder: its clock, how its buttons are
wired, what the test presses, the pins in use, and every refusal.

The stand-ins (displayio, terminalio, fontio, busdisplay, board, keypad, supervisor,
microcontroller, nvm, analogio, digitalio, audioio, audiocore, bitmaptools) follow the API
CircuitPython 10 documents (docs.circuitpython.org) for the part a game uses, and refuse
the rest as the board does: an unknown keyword, or a keyword-only argument given by
position, is a TypeError; a name the firmware lacks an AttributeError; a value out of range
a ValueError or IndexError. (A documented name missing here fails the same way: add it.)
Every refusal raised here is also noted in `refused`, so a test sees it even where the app
catches the exception; Python's own signature errors are not. Not a firmware module: only
the tests use this one.
"""

# The boards: board_id -> screen size and pin names (CircuitPython's pins.c of each board).
_COMMON_SAMD51 = ("A0 A1 A2 A3 A4 A5 A6 A7 A8 A9 D0 D1 D2 D3 D4 D5 D6 D7 D8 D9 D10 D11 D12 "
                  "LED D13 RX TX SDA SCL SCK MISO MOSI NEOPIXEL LIGHT ACCELEROMETER_INTERRUPT "
                  "SPEAKER SPEAKER_ENABLE BUTTON_LATCH BUTTON_OUT BUTTON_CLOCK TFT_LITE TFT_MOSI "
                  "TFT_SCK TFT_RST TFT_CS TFT_DC")
BOARDS = (
    ("pybadge", 160, 128, _COMMON_SAMD51),
    ("pygamer", 160, 128, _COMMON_SAMD51 + " SD_CS JOYSTICK_X JOYSTICK_Y"),
    ("adafruit_feather_esp32s3_reverse_tft", 240, 135,
     "TX D39 RX D38 D5 D6 D9 D10 D11 D12 LED D13 L A5 D8 A4 D14 A3 D15 A2 D16 A1 D17 A0 D18 "
     "NEOPIXEL NEOPIXEL_POWER TFT_I2C_POWER MOSI D35 SCK D36 MISO D37 SCL D4 SDA D3 TFT_CS TFT_DC "
     "TFT_RESET TFT_BACKLIGHT BUTTON BOOT0 D0 D1 D2"),
)

# The buttons as wired: (board_id, button, how it is read, where, reads when pressed).
#   "register": bit `where` of the shift register on BUTTON_CLOCK/BUTTON_OUT/BUTTON_LATCH;
#   "pin": the pin named `where`; "stick": the analog pin named `where`, driven to the value.
# (DESIGN.md: the PyBadge's keys 0..7 are B, A, START, SELECT, RIGHT, DOWN, UP, LEFT; the
# PyGamer has the first four and a stick; the Feather's D0 is low when pressed, D1/D2 high.)
WIRING = (
    ("pybadge", "B", "register", 0, True), ("pybadge", "A", "register", 1, True),
    ("pybadge", "START", "register", 2, True), ("pybadge", "SELECT", "register", 3, True),
    ("pybadge", "RIGHT", "register", 4, True), ("pybadge", "DOWN", "register", 5, True),
    ("pybadge", "UP", "register", 6, True), ("pybadge", "LEFT", "register", 7, True),
    ("pygamer", "B", "register", 0, True), ("pygamer", "A", "register", 1, True),
    ("pygamer", "START", "register", 2, True), ("pygamer", "SELECT", "register", 3, True),
    ("pygamer", "stick left", "stick", "JOYSTICK_X", 0),
    ("pygamer", "stick right", "stick", "JOYSTICK_X", 65535),
    ("pygamer", "stick up", "stick", "JOYSTICK_Y", 0),
    ("pygamer", "stick down", "stick", "JOYSTICK_Y", 65535),
    ("adafruit_feather_esp32s3_reverse_tft", "D0", "pin", "D0", False),
    ("adafruit_feather_esp32s3_reverse_tft", "D1", "pin", "D1", True),
    ("adafruit_feather_esp32s3_reverse_tft", "D2", "pin", "D2", True),
)
STICK_REST = 32768
NVM_SIZE = 8192
# The nvm's bytes are kept with this bit flipped (nvm.py), as displayio's values are, so that
# they never read as a heap address to the collector of tools/lab/uimem.py's MicroPython.
NVM_FLIP = 0x80


def blank_nvm():
    """8 KB of blank 0xFF (kept flipped), filled in place: no 8 KB of garbage besides."""
    out = bytearray(NVM_SIZE)
    for i in range(NVM_SIZE):
        out[i] = 0xFF ^ NVM_FLIP
    return out


board_id = "pybadge"
now = 0                     # supervisor.ticks_ms(), moved on by the test
down = []                   # buttons held now
refused = []                # "TypeError: ..." for every refusal, caught or not
resets = []                 # the run mode of each microcontroller.reset()
played = []                 # (sample rate, loop) of each sound audioio played
nvm = blank_nvm()
pins = []                   # the board's microcontroller.Pin objects
claimed = []                # the pins a peripheral holds (keypad, analogio, ...)


def refuse(exc):
    """Note a refusal; returns the exception to raise."""
    refused.append("%s: %s" % (type(exc).__name__, exc))
    return exc


def start(board, clock=1000):
    """A board switched on: nothing pressed, nvm blank, no pins in use (the board module and
    whatever used it must be imported again)."""
    global board_id, now, nvm
    if board_info(board) is None:
        raise ValueError("no such board here: %s" % board)
    board_id = board
    now = clock
    del down[:]
    del refused[:]
    del resets[:]
    del played[:]
    del pins[:]
    del claimed[:]
    nvm = blank_nvm()


def board_info(board=None):
    for row in BOARDS:
        if row[0] == (board or board_id):
            return row
    return None


def buttons():
    """The names of the current board's buttons."""
    return [row[1] for row in WIRING if row[0] == board_id]


def press(name, on=True):
    if name not in buttons():
        raise ValueError("%s has no button %r" % (board_id, name))
    if on and name not in down:
        down.append(name)
    elif not on and name in down:
        down.remove(name)


def _wired(kind, where):
    for row in WIRING:
        if row[0] == board_id and row[2] == kind and row[3] == where:
            return row
    return None


def pin_level(name, idle):
    """What a digital pin reads: the pressed level while its button is down, else idle
    (the pull the code asked for, or the board's own resistor)."""
    row = _wired("pin", name)
    if row is not None and row[1] in down:
        return row[4]
    return idle


def register_bit(clock, data, latch, index):
    """Bit `index` shifted out of the button register, or None when these are not its pins."""
    if (clock, data, latch) != ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH"):
        return None
    row = _wired("register", index)
    if row is None:
        return False                 # an input with no button on it reads low
    return row[4] if row[1] in down else not row[4]


def analog(name):
    value = STICK_REST if name in ("JOYSTICK_X", "JOYSTICK_Y") else 0
    for row in WIRING:
        if row[0] == board_id and row[2] == "stick" and row[3] == name and row[1] in down:
            value = row[4]
    return value


def check_int(value, name, low=None, high=None):
    """An int argument as the firmware takes it (bools count); ValueError out of range."""
    if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
        return value
    if isinstance(value, bool):
        value = 1 if value else 0
    if not isinstance(value, int):
        raise refuse(TypeError("can't convert %s to int (%s)" % (type(value).__name__, name)))
    if (low is not None and value < low) or (high is not None and value > high):
        raise refuse(ValueError("%s must be %s-%s" % (name, low, high)))
    return value


def no_keywords(kw, name):
    if kw:
        for k in kw:
            raise refuse(TypeError("%s() got an unexpected keyword argument '%s'" % (name, k)))


class Native:
    """What the firmware's own objects share: attributes are fixed. Reading one that is not
    there is an AttributeError (Python's own); setting one not in _WRITABLE is refused, and
    _check() looks at a value before it is kept."""
    _WRITABLE = ()

    def __setattr__(self, name, value):
        if name not in self._WRITABLE:
            raise refuse(AttributeError("can't set attribute '%s' of %s" % (name, type(self).__name__)))
        object.__setattr__(self, name, self._check(name, value))

    def _check(self, name, value):
        return value

    def _keep(self, name, value):
        """Set any attribute, bypassing _WRITABLE: for the stand-in's own constructor. (A
        library's subclass may have a property of that name: CPython would call it.)"""
        if isinstance(getattr(type(self), name, None), property):
            try:
                self.__dict__[name] = value       # CPython: object.__setattr__ calls a property
                return
            except TypeError:                     # MicroPython: __dict__ reads only, and
                pass                              # object.__setattr__ keeps the value itself
        object.__setattr__(self, name, value)


def claim(pin, what):
    """A pin taken by a peripheral; TypeError if it is no Pin, ValueError if in use."""
    from microcontroller import Pin
    if not isinstance(pin, Pin):
        raise refuse(TypeError("%s must be of type Pin, not %s" % (what, type(pin).__name__)))
    for p in claimed:
        if p is pin:
            raise refuse(ValueError("%s in use" % pin))
    claimed.append(pin)
    return pin


def release(pin):
    for i in range(len(claimed)):
        if claimed[i] is pin:
            claimed.pop(i)
            return
