"""What the firmware's objects hold in a SAMD51's heap, and what their stand-ins here hold
instead: the memory side of the stand-ins, for tools/lab/uimem.py and its tests (not a firmware
module; nothing of the app imports it).

A firmware object is a C struct in CircuitPython's GC heap, with its buffers in blocks of
their own. Measured on CircuitPython 10 (32-bit, 16-byte heap blocks):

    displayio.Group()              80 B: the struct (48 B) and its list of children, a list as
                                   Python's (32 B empty, growing as a list does)
    displayio.TileGrid             96 B; more than 4 tiles (2 over a bitmap of more than 255
                                   tiles) go in a block of their own, a byte each (two over
                                   such a bitmap): a 26-character line of text takes 128 B
    displayio.Palette(n)           16 + 16 n B
    displayio.Bitmap(w, h, n)      48 B and its pixels: rows of 32-bit words, each value
                                   1, 2, 4, 8, 16 or 32 bits
    displayio.ColorConverter       48 B
    displayio.OnDiskBitmap         48 B, and given a path the file it keeps open (144 B: a
                                   file read from keeps a 48 B map for seeking); its
                                   Palette (or ColorConverter) is counted on its own
    vectorio.Rectangle             96 B
    an open file on the drive      96 B (FatFs's file object: CircuitPython builds FatFs
                                   with one sector buffer per drive, none per file)
and from CircuitPython 10's structs for a SAMD51:
    keypad.ShiftRegisterKeys       608 B with 8 keys and 64 events (the PyBadge's): the struct,
                                   three DigitalInOut, the key arrays, the EventQueue and
                                   its ring of 64 events
    keypad.Event                   16 B
    digitalio.DigitalInOut         16 B
    audioio.AudioOut               176 B (a pin and the DMA state of each of two channels)
    audiocore.RawSample            32 B (the buffer is the caller's)
The board, its pins, its display and the terminal font are in the firmware: nothing of
them is in the heap.

A stand-in is a Python object (an instance, its table of attributes, the containers it
made), heavier than the struct, so it cannot be padded to the real size. Instead
census() finds the stand-in objects reachable from the roots it is given and returns, beside
what they take here, what the firmware's objects would take; calibrate() measures, once,
the instance and attribute table of each stand-in class (its "shell"). A Group's list of
children is left out of both sides: it is the same list on the board.
"""

import gc

import audiocore
import audioio
import digitalio
import displayio
import keypad
import vectorio

BLOCK = 16                 # bytes in a heap block (32-bit MicroPython and CircuitPython)
GROUP = 48                 # Group() is 80 B with its empty list of children (32 B)
EMPTY_LIST = 32            # [] : the list and room for 4 items
TILEGRID = 96
INLINE_TILES = 4           # tiles kept in the struct itself (2 when they take 2 bytes)
MANY_TILES = 255           # over a bitmap of more tiles than this a tile takes 2 bytes
PALETTE = 16
PALETTE_COLOUR = 16
BITMAP = 48
COLOR_CONVERTER = 48
ON_DISK_BITMAP = 48
RECTANGLE = 96
FILE = 96
SEEK_MAP = 48              # kept by a file opened for reading only
SHIFT_REGISTER_KEYS = 608  # 8 keys, 64 events
EVENT = 16
DIGITAL_IN_OUT = 16
AUDIO_OUT = 176
RAW_SAMPLE = 32
SAMPLES = 16               # objects made of each class to measure its shell

shells = {}                # stand-in class -> bytes of its instance and attribute table
_file_type = []            # the type of an open file here, once calibrate() has seen one


def blocks(n):
    """Bytes of the heap blocks that hold n bytes."""
    return (n + BLOCK - 1) // BLOCK * BLOCK


def bytearray_bytes(b):
    """A bytearray here: the object and, if any, its bytes in a block of their own."""
    return BLOCK + (blocks(len(b)) if len(b) else 0)


def list_bytes(values):
    """A list made as [x] * n here: the object and room for n items (4 at least)."""
    return BLOCK + blocks(4 * max(len(values), 4))


def _store_bytes(v):
    return bytearray_bytes(v) if isinstance(v, bytearray) else list_bytes(v)


def firmware_bytes(obj):
    """What the firmware's object would hold in the heap (a Group: without its children's
    list), or None when obj is no object of the firmware sized here."""
    t = type(obj)
    if t is displayio.Group:
        return GROUP
    if t is displayio.TileGrid:
        n = len(obj._t)
        wide = obj._tiles > MANY_TILES
        if n <= (INLINE_TILES // 2 if wide else INLINE_TILES):
            return TILEGRID
        return TILEGRID + blocks(n * (2 if wide else 1))
    if t is displayio.Bitmap:
        words = (obj.width * obj.bits_per_value + 31) // 32
        return BITMAP + blocks(4 * words * obj.height)
    if t is displayio.Palette:
        return PALETTE + PALETTE_COLOUR * len(obj._colors)
    if t is displayio.ColorConverter:
        return COLOR_CONVERTER
    if t is displayio.OnDiskBitmap:
        return ON_DISK_BITMAP + (FILE + SEEK_MAP if obj._opened else 0)
    if t is vectorio.Rectangle:
        return RECTANGLE
    if t is keypad.ShiftRegisterKeys:
        return SHIFT_REGISTER_KEYS
    if t is keypad.EventQueue:
        return 0                           # in the keys' 608 B
    if t is keypad.Event:
        return EVENT
    if t is digitalio.DigitalInOut:
        return DIGITAL_IN_OUT
    if t is audioio.AudioOut:
        return AUDIO_OUT
    if t is audiocore.RawSample:
        return RAW_SAMPLE
    if _file_type and t is _file_type[0]:
        return FILE
    return None


def stand_in_bytes(obj):
    """What the stand-in object holds here (a Group: without its children's list), once
    calibrate() has measured its class."""
    t = type(obj)
    own = shells.get(t, 0)
    if t is displayio.TileGrid:
        return own + _store_bytes(obj._t)
    if t is displayio.Bitmap:
        return own + _store_bytes(obj._v)
    if t is displayio.Palette:
        return own + list_bytes(obj._colors) + bytearray_bytes(obj._clear)
    return own


def containers(obj):
    """Bytes of what a fresh stand-in made besides its shell (a Group: its empty list)."""
    t = type(obj)
    if t is displayio.Group:
        return EMPTY_LIST
    if t is displayio.OnDiskBitmap:
        return stand_in_bytes(obj.pixel_shader)     # counted on its own
    if t is keypad.ShiftRegisterKeys or t is keypad.Event or t is digitalio.DigitalInOut or \
            t is audioio.AudioOut or t is audiocore.RawSample or t is displayio.ColorConverter or \
            t is vectorio.Rectangle:
        return 0                           # measured whole, with all it made
    if _file_type and t is _file_type[0]:
        return 0
    return stand_in_bytes(obj) - shells.get(t, 0)


def _makers(board, path):
    """(class name, maker, objects at a time) of the samples calibrate() measures."""
    tiles = displayio.Bitmap(8, 4, 2)
    ink = displayio.Palette(2)
    out = [("Group", displayio.Group, SAMPLES),
           ("Bitmap", lambda: displayio.Bitmap(3, 2, 4), SAMPLES),
           ("Palette", lambda: displayio.Palette(3), SAMPLES),
           ("TileGrid", lambda: displayio.TileGrid(tiles, pixel_shader=ink, width=5, height=1,
                                                  tile_width=4, tile_height=4), SAMPLES),
           ("ColorConverter", displayio.ColorConverter, SAMPLES),
           ("Rectangle", lambda: vectorio.Rectangle(pixel_shader=ink, width=3, height=2), SAMPLES),
           ("Event", keypad.Event, SAMPLES),
           ("RawSample", lambda: audiocore.RawSample(bytearray(4)), SAMPLES)]
    if path:
        out.append(("file", lambda: open(path, "rb"), SAMPLES))
        out.append(("OnDiskBitmap", lambda: displayio.OnDiskBitmap(path), SAMPLES))
    pins = [getattr(board, name, None) for name in
            ("BUTTON_CLOCK", "BUTTON_OUT", "BUTTON_LATCH", "SPEAKER_ENABLE", "SPEAKER")]
    if None not in pins:       # one object at a time: each holds a pin until let go
        out.append(("ShiftRegisterKeys", lambda: keypad.ShiftRegisterKeys(
            clock=pins[0], data=pins[1], latch=pins[2], key_count=8, value_when_pressed=True), 1))
        out.append(("DigitalInOut", lambda: digitalio.DigitalInOut(pins[3]), 1))
        out.append(("AudioOut", lambda: audioio.AudioOut(pins[4]), 1))
    return out


def _fill(hold, maker, count):
    for i in range(count):
        hold[i] = maker()


def _let_go(hold, count, name):
    t = type(hold[0])
    if name == "file" and not _file_type:
        _file_type.append(t)
    left = containers(hold[0])
    for i in range(count):
        for method in ("deinit", "close"):
            f = getattr(hold[i], method, None)
            if f is not None:
                f()
        hold[i] = None
    return t, left


def calibrate(board, path=None):
    """Measure the shell of each stand-in class: a generator that yields 1 whenever the heap
    is to be collected before it goes on (MicroPython's WASI build must collect only where
    no Python frame holds anything: its caller does, between steps). Each class is measured
    over SAMPLES objects at once, or, bound to a pin, one object 5 times (the median).
    path: a BMP file, to open (an open file) and to show (OnDiskBitmap), or None."""
    if not hasattr(gc, "mem_alloc"):
        return
    rows = _makers(board, path)
    hold = [None] * SAMPLES
    took = [0] * 5
    k = 0
    while k < len(rows):
        count = rows[k][2]
        tries = 1 if count > 1 else 5
        j = 0
        while j < tries:
            yield 1
            before = gc.mem_alloc()
            _fill(hold, rows[k][1], count)
            yield 1
            took[j] = gc.mem_alloc() - before
            t, left = _let_go(hold, count, rows[k][0])
            j += 1
        each = sorted(took[:tries])[tries // 2] // count
        shells[t] = each - left
        k += 1


def _stand_ins(roots):
    """(id, object, firmware bytes) of each stand-in object reachable from roots through
    lists, tuples, sets, dicts and the attributes of objects, modules and classes, once."""
    seen = set()
    stack = list(roots)
    while stack:
        o = stack.pop()
        i = id(o)
        if i in seen:
            continue
        seen.add(i)
        t = type(o)
        if t is int or t is str or t is bytes or t is bytearray or t is bool or o is None:
            continue
        if t is list or t is tuple or t is set or t is frozenset:
            stack.extend(o)
            continue
        if t is dict:
            stack.extend(o.values())
            continue
        n = firmware_bytes(o)
        if n is not None:
            yield i, o, n
        d = getattr(o, "__dict__", None)
        if type(d) is dict:
            stack.extend(d.values())
    # Freed here, not left to the collector: a stale word that happens to hold their address
    # would keep these tables (8 KB in a game) alive at the next reading, counted as the app's.
    seen.clear()
    stack.clear()


def census(roots, skip=()):
    """(firmware bytes, stand-in bytes, objects) of the stand-in objects reachable from roots;
    those whose id() is in skip are left out (the firmware's own, made before the app)."""
    real = own = count = 0
    for i, o, n in _stand_ins(roots):
        if i not in skip:
            real += n
            own += stand_in_bytes(o)
            count += 1
    return real, own, count


def firmware_objects(modules):
    """The ids of the stand-in objects the firmware modules hold (the terminal font's
    bitmap, ...): on a board they are in flash, not in the heap."""
    out = set()
    for i, _, _ in _stand_ins(modules):
        out.add(i)
    return out
