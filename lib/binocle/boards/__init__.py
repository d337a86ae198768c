"""Board profiles: one module per board, all exporting the same names.

NAME, WIDTH, HEIGHT, OFFSET_X, OFFSET_Y, display, buttons (poll(inp, now_ms)),
LONG_MAP, LABELS, LONG_LABELS, ticks_ms(). The app imports only the profile
that detect() returns; sim is imported directly by the desktop simulator.
"""

import sys

# board.board_id (CircuitPython's board directory name) -> profile module.
# The PyBadge LC runs the pybadge build; the EdgeBadge download is an alias of
# it too, so it reports "pybadge" (the edgebadge row is only a safety net).
_PROFILES = (
    ("pybadge", "pybadge"),
    ("edgebadge", "pybadge"),
    ("pygamer", "pygamer"),
    ("adafruit_feather_esp32s3_reverse_tft", "feather_s3_tft"),
)
SUPPORTED = ("PyBadge, PyBadge LC", "EdgeBadge", "PyGamer", "Feather ESP32-S3 Rev TFT")
_WIDTH = 26  # characters of terminalio.FONT (6 px) across 160 px


class UnknownBoard(Exception):
    def __init__(self, board_id):
        self.board_id = board_id
        super().__init__("\n".join(self.lines()))

    def lines(self):
        """The message as lines that fit a 160-px-wide screen."""
        out = ["Unknown board:"]
        text = str(self.board_id)
        while text:
            out.append(text[:_WIDTH])
            text = text[_WIDTH:]
        out.append("Supported:")
        for name in SUPPORTED:
            out.append(name)
        return out


def profile_name(board_id):
    """The profile module name for a board id, or None."""
    for known, name in _PROFILES:
        if known == board_id:
            return name
    return None


def detect(board_id=None):
    """The profile module of the running board (board.board_id by default)."""
    if board_id is None:
        import board
        board_id = board.board_id
    name = profile_name(board_id)
    if name is None:
        raise UnknownBoard(board_id)
    full = "binocle.boards." + name
    __import__(full)
    return sys.modules[full]


def show_message(lines):
    """Put lines of text on the board's built-in screen, if it has one; else print them."""
    for line in lines:
        print(line)
    try:
        import board
        import displayio
        from binocle import ui
        display = board.DISPLAY
    except (ImportError, AttributeError):
        return
    group = displayio.Group()
    for i in range(len(lines)):
        group.append(ui.text(lines[i], 2, 2 + i * ui.LINE, width=ui.CHARS))
    display.root_group = group
