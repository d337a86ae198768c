# Runs before USB starts (CircuitPython). Names the drive BINOCLE and decides who may write it:
#   a normal start: the game may write the drive, the computer sees it read-only, so nothing
#   on the computer can damage the game files by accident;
#   update mode (hold SELECT, or D2 on the Feather ESP32-S3 Reverse TFT, while the board starts):
#   the computer may write the drive as usual, for `python -m tools deploy`.
# Any error leaves CircuitPython's default (the computer writes the drive): never unable to update.
import board
import storage
import time

LABEL = "BINOCLE"


def update_button_held():
    """True when the update button is down at start (unknown boards: True, the safe side)."""
    board_id = board.board_id
    import keypad
    if board_id in ("pybadge", "edgebadge", "pygamer"):
        keys = keypad.ShiftRegisterKeys(clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT,
                                        latch=board.BUTTON_LATCH, key_count=8, value_when_pressed=True)
        select = 3
    elif board_id == "adafruit_feather_esp32s3_reverse_tft":
        keys = keypad.Keys((board.D2,), value_when_pressed=True, pull=True)
        select = 0
    else:
        return True
    time.sleep(0.1)                      # a few scans: a held key shows up as a press
    event = keys.events.get()
    held = False
    while event:
        if event.key_number == select and event.pressed:
            held = True
        event = keys.events.get()
    keys.deinit()
    return held


try:
    update_mode = update_button_held()
    mount = storage.getmount("/")
    if mount.label != LABEL:
        storage.remount("/", readonly=False)
        mount.label = LABEL
    storage.remount("/", readonly=update_mode)
except Exception as e:                   # keep the default: the computer can always fix things
    print("boot.py:", e)
