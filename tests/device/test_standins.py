"""The firmware stand-ins (tests/device/firmware) refuse what CircuitPython's firmware lacks
and take what it takes, under MicroPython too: the scene test (test_screens.py) can only
trust what they let through."""

from tools.checks import standins


def refused(call, kind):
    """call() must raise `kind`; the refusal is noted in _hw.refused (or is Python's own
    signature check, for a keyword the constructor does not have)."""
    try:
        call()
    except kind:
        return
    raise AssertionError("%s was not refused with %s" % (call, kind.__name__))


def on(board="pybadge"):
    """Decorate a test: it runs with the stand-ins of that board in, and they go after."""
    def wrap(test):
        def run():
            hw = standins.install(board)
            try:
                if standins.active():
                    test(hw)
                else:
                    print("  (not here: this interpreter has the firmware's own modules built in)")
            finally:
                standins.remove()
        return run
    return wrap


@on()
def test_bitmaps_take_three_positional_arguments_and_values_below_value_count(hw):
    import displayio
    b = displayio.Bitmap(4, 3, 5)
    assert (b.width, b.height, b.bits_per_value) == (4, 3, 4)
    b[3, 2] = 4
    b[0] = 1
    assert b[11] == 4 and b[0, 0] == 1
    refused(lambda: displayio.Bitmap(4, 3, value_count=5), TypeError)
    refused(lambda: displayio.Bitmap(4, 3), TypeError)
    refused(lambda: displayio.Bitmap(4, 3, 0), ValueError)
    refused(lambda: b.__setitem__(0, 5), ValueError)          # value_count 5: 0..4
    refused(lambda: b.__setitem__((4, 0), 1), IndexError)
    refused(lambda: b[12], IndexError)
    refused(lambda: b[-1], IndexError)
    refused(lambda: b[0:2], NotImplementedError)
    refused(lambda: setattr(b, "width", 8), AttributeError)
    assert len(hw.refused) >= 8


@on()
def test_palettes(hw):
    import displayio
    p = displayio.Palette(3)
    p[0] = 0x102030
    p[1] = b"\x01\x02\x03"
    p[2] = (4, 5, 6)
    assert (p[0], p[1], p[-1], len(p)) == (0x102030, 0x010203, 0x040506, 3)
    p.make_transparent(2)
    assert p.is_transparent(2) and not p.is_transparent(0)
    refused(lambda: p.__setitem__(3, 0), IndexError)
    refused(lambda: p.__setitem__(0, 0x1000000), TypeError)
    refused(lambda: p.__setitem__(0, "red"), TypeError)
    refused(lambda: p.make_transparent(3), ValueError)
    refused(lambda: displayio.Palette(0), ValueError)
    refused(lambda: displayio.Palette(2, colors=2), TypeError)


@on()
def test_tile_grids_take_the_firmwares_keywords_and_tiles_of_their_bitmap(hw):
    import displayio
    sheet = displayio.Bitmap(40, 28, 16)
    ink = displayio.Palette(16)
    t = displayio.TileGrid(sheet, pixel_shader=ink, width=3, height=1, tile_width=20, tile_height=28,
                           default_tile=1, x=-5, y=7)
    assert (t[0], t[2], t.width, t.tile_width, t.x) == (1, 1, 3, 20, -5)
    t[2] = 0
    t[0, 0] = 0
    t.x, t.hidden = 30, True
    t.pixel_shader = displayio.Palette(2)
    refused(lambda: displayio.TileGrid(sheet, ink), TypeError)                 # pixel_shader: keyword
    refused(lambda: displayio.TileGrid(sheet, pixel_shader=ink, colour=1), TypeError)
    refused(lambda: displayio.TileGrid(sheet, pixel_shader=ink, tile_width=15), ValueError)
    refused(lambda: displayio.TileGrid(sheet, pixel_shader=ink, tile_width=20, default_tile=2), ValueError)
    refused(lambda: displayio.TileGrid(sheet, pixel_shader=None), TypeError)
    refused(lambda: displayio.TileGrid(ink, pixel_shader=ink), TypeError)
    refused(lambda: t.__setitem__(0, 2), ValueError)                           # two tiles: 0, 1
    refused(lambda: t.__setitem__(3, 0), IndexError)
    refused(lambda: t[-1], IndexError)
    refused(lambda: setattr(t, "width", 4), AttributeError)
    refused(lambda: setattr(t, "pixel_shader", 3), TypeError)
    refused(lambda: setattr(t, "colour", 3), AttributeError)
    refused(lambda: setattr(t, "bitmap", displayio.Bitmap(20, 28, 2)), ValueError)
    refused(lambda: t.anchored_position, AttributeError)                      # a library's, not the firmware's


@on()
def test_groups(hw):
    import displayio
    g = displayio.Group(scale=2, x=3, y=-4)
    other = displayio.Group()
    t = displayio.TileGrid(displayio.Bitmap(1, 1, 1), pixel_shader=displayio.Palette(1))
    g.append(t)
    g.insert(0, displayio.Group())
    assert len(g) == 2 and g[1] is t and g[-1] is t and g.index(t) == 1 and t in g and g
    refused(lambda: other.append(t), ValueError)                              # already in a group
    refused(lambda: g.append("text"), ValueError)
    refused(lambda: displayio.Group(2), TypeError)                            # options by keyword
    refused(lambda: displayio.Group(scale=0), ValueError)
    refused(lambda: displayio.Group(max_size=4), TypeError)                   # gone since CircuitPython 7
    refused(lambda: other.remove(t), ValueError)
    refused(lambda: g[0:1], NotImplementedError)
    refused(lambda: setattr(g, "width", 3), AttributeError)
    assert g.pop() is t
    other.append(t)                                                           # free again
    del g[0]
    assert len(g) == 0 and not g


@on()
def test_the_display_takes_a_root_group_and_nothing_from_before_circuitpython_9(hw):
    import board
    import busdisplay
    import displayio
    d = board.DISPLAY
    assert (d.width, d.height) == (160, 128)
    g = displayio.Group()
    d.root_group = g
    assert d.refresh() is True and d.refresh(target_frames_per_second=30, minimum_frames_per_second=0)
    refused(lambda: displayio.Group().append(g), ValueError)                  # shown: in use
    refused(lambda: d.show(g), AttributeError)
    refused(lambda: d.refresh(fps=30), TypeError)
    refused(lambda: setattr(d, "width", 240), AttributeError)
    refused(lambda: displayio.Display, AttributeError)
    refused(lambda: displayio.FourWire, AttributeError)
    refused(lambda: busdisplay.BusDisplay(None, b""), RuntimeError)           # the only display slot is taken
    d.root_group = None
    displayio.Group().append(g)


@on()
def test_the_terminal_font(hw):
    import displayio
    import terminalio
    font = terminalio.FONT
    assert font.get_bounding_box() == (6, 12)
    assert isinstance(font.bitmap, displayio.Bitmap) and font.bitmap.height == 12
    glyph = font.get_glyph(ord("A"))
    assert glyph.tile_index == 33 and glyph.bitmap is font.bitmap and glyph.width == 6
    assert font.get_glyph(0x4E00) is None
    refused(lambda: terminalio.Terminal, AttributeError)
    refused(lambda: font.ascent, AttributeError)


@on("adafruit_feather_esp32s3_reverse_tft")
def test_keys_read_the_buttons_as_wired(hw):
    import board
    import keypad
    low = keypad.Keys((board.D0,), value_when_pressed=False, pull=True)
    wrong = keypad.Keys((board.D1,), value_when_pressed=False)                # D1 reads high when pressed
    event = keypad.Event()
    assert not low.events.get_into(event)
    hw.press("D0")
    assert low.events.get_into(event) and event.key_number == 0 and event.pressed
    hw.press("D0", False)
    assert low.events.get() == keypad.Event(0, False)
    hw.press("D1")
    assert not wrong.events                       # the pull-up and the button both read high: no press
    refused(lambda: keypad.Keys((board.D0,), value_when_pressed=False), ValueError)   # D0 in use
    refused(lambda: keypad.Keys((board.D2,)), TypeError)                      # value_when_pressed needed
    refused(lambda: keypad.EventQueue(), TypeError)
    refused(lambda: low.events.get_into(None), TypeError)
    refused(lambda: board.BUTTON_CLOCK, AttributeError)                       # not on this board
    low.deinit()
    refused(lambda: low.events.get(), ValueError)
    keypad.Keys((board.D0,), value_when_pressed=False)                        # free again


@on("pygamer")
def test_the_shift_register_and_the_stick(hw):
    import analogio
    import board
    import keypad
    keys = keypad.ShiftRegisterKeys(clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT, latch=board.BUTTON_LATCH,
                                    key_count=4, value_when_pressed=True)
    hw.press("START")
    e = keys.events.get()
    assert (e.key_number, e.pressed, e.timestamp) == (2, True, hw.now)
    x = analogio.AnalogIn(board.JOYSTICK_X)
    assert x.value == 32768
    hw.press("stick left")
    assert x.value == 0
    refused(lambda: keypad.ShiftRegisterKeys(board.BUTTON_CLOCK, board.BUTTON_OUT, board.BUTTON_LATCH, 4, True),
            TypeError)                                                        # keywords only
    refused(lambda: analogio.AnalogIn(board.JOYSTICK_X), ValueError)          # in use
    refused(lambda: setattr(x, "value", 3), AttributeError)


@on()
def test_microcontroller_nvm_and_supervisor(hw):
    import microcontroller
    import supervisor
    nvm = microcontroller.nvm
    assert len(nvm) == 8192 and nvm[0] == 0xFF and nvm[0:2] == bytearray(b"\xff\xff")
    nvm[0:3] = b"abc"
    assert nvm[1] == ord("b") and bytes(b ^ hw.NVM_FLIP for b in hw.nvm[0:3]) == b"abc"

    def shorter():
        nvm[0:3] = b"ab"
    refused(shorter, ValueError)
    refused(lambda: nvm[0:4:2], NotImplementedError)
    refused(lambda: microcontroller.Pin(), TypeError)
    refused(lambda: microcontroller.on_next_reset("UF2"), TypeError)
    microcontroller.on_next_reset(microcontroller.RunMode.UF2)
    microcontroller.reset()
    assert hw.resets == [microcontroller.RunMode.UF2]
    hw.now = (1 << 29) + 5
    assert supervisor.ticks_ms() == 5
    refused(lambda: supervisor.ticks_ms_wrapped, AttributeError)


@on()
def test_the_speaker(hw):
    import array
    import audiocore
    import audioio
    import board
    import digitalio
    enable = digitalio.DigitalInOut(board.SPEAKER_ENABLE)
    refused(lambda: setattr(enable, "value", True), AttributeError)          # an input yet
    enable.switch_to_output(value=True)
    assert enable.value is True
    out = audioio.AudioOut(board.SPEAKER)
    sample = audiocore.RawSample(array.array("H", [0, 65535]), sample_rate=8000)
    out.play(sample, loop=True)
    out.stop()
    assert hw.played == [(8000, True)]
    refused(lambda: audiocore.RawSample([0, 1]), ValueError)
    refused(lambda: audiocore.RawSample(bytearray(2), 1, 8000), TypeError)    # options by keyword
    refused(lambda: out.play(bytearray(4)), TypeError)
    refused(lambda: audioio.AudioOut(board.SPEAKER), ValueError)              # in use


@on()
def test_the_card_sheet_opens_as_an_on_disk_bitmap(hw):
    import displayio
    sheet = displayio.OnDiskBitmap("assets/cards.bmp")
    assert (sheet.width, sheet.height) == (160, 140) and len(sheet.pixel_shader) <= 16
    card = displayio.TileGrid(sheet, pixel_shader=sheet.pixel_shader, tile_width=20, tile_height=28)
    card[0] = 39                                        # 8 x 5 tiles
    refused(lambda: card.__setitem__(0, 40), ValueError)
    assert standins.foreign() == []


@on()
def test_a_vectorio_rectangle_takes_the_firmwares_arguments(hw):
    import displayio
    import vectorio
    p = displayio.Palette(1)
    r = vectorio.Rectangle(pixel_shader=p, width=152, height=90, x=4, y=14)
    r.width, r.height, r.y = 150, 12, 30
    g = displayio.Group()
    g.append(r)
    refused(lambda: g.append(r), ValueError)                       # already in a group
    refused(lambda: vectorio.Rectangle(pixel_shader=p, width=0, height=5), ValueError)
    refused(lambda: vectorio.Rectangle(p, 5, 5), TypeError)         # keywords only
    refused(lambda: setattr(r, "scale", 2), AttributeError)
    assert standins.foreign() == []


def test_the_stand_ins_go_away_after():
    import sys
    hw = standins.install("pybadge")
    import displayio
    here = standins.active()
    standins.remove()
    assert "_hw" not in sys.modules and standins.folder() not in sys.path and hw.board_id == "pybadge"
    if here:
        assert sys.modules.get("displayio") is not displayio
    else:
        print("  (not here: this interpreter has the firmware's own modules built in)")
