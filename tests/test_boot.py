"""boot.py and code.py run with stand-ins for CircuitPython's modules: the drive's name, who
may write it (update mode while SELECT is held), and the start-up check's message."""

import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FakeMount:
    def __init__(self, label):
        self.label = label


class FakeEvent:
    def __init__(self, key, pressed):
        self.key_number = key
        self.pressed = pressed


class FakeKeys:
    held = ()

    def __init__(self, *args, **kwargs):
        self.events = self
        self._queue = [FakeEvent(k, True) for k in FakeKeys.held]

    def get(self):
        return self._queue.pop(0) if self._queue else None

    def deinit(self):
        pass


def run_boot(monkeypatch, board_id, held=(), label="CIRCUITPY", fail=False):
    """Run boot.py; the list of storage calls it made."""
    calls = []
    mount = FakeMount(label)
    storage = types.ModuleType("storage")

    def remount(path, readonly=False):
        if fail:
            raise OSError("flash busy")
        calls.append(("remount", path, readonly))
    storage.remount = remount
    storage.getmount = lambda path: mount
    board = types.SimpleNamespace(board_id=board_id, BUTTON_CLOCK=1, BUTTON_OUT=2, BUTTON_LATCH=3, D2=4)
    keypad = types.SimpleNamespace(ShiftRegisterKeys=FakeKeys, Keys=FakeKeys)
    FakeKeys.held = held
    for name, mod in (("board", board), ("storage", storage), ("keypad", keypad),
                      ("time", types.SimpleNamespace(sleep=lambda s: None))):
        monkeypatch.setitem(sys.modules, name, mod)
    with open(os.path.join(ROOT, "boot.py")) as fh:
        exec(compile(fh.read(), "boot.py", "exec"), {"__name__": "boot"})
    return calls, mount.label


def test_play_mode_names_the_drive_and_keeps_it_from_the_computer(monkeypatch):
    calls, label = run_boot(monkeypatch, "pybadge")
    assert label == "BINOCLE"
    assert calls == [("remount", "/", False), ("remount", "/", False)]


def test_holding_select_keeps_the_drive_writable_from_the_computer(monkeypatch):
    calls, label = run_boot(monkeypatch, "pygamer", held=(3,), label="BINOCLE")
    assert calls == [("remount", "/", True)]                 # already named: no rename


def test_the_feather_uses_d2_and_unknown_boards_stay_updatable(monkeypatch):
    assert run_boot(monkeypatch, "adafruit_feather_esp32s3_reverse_tft", held=(0,), label="BINOCLE")[0] == [
        ("remount", "/", True)]
    assert run_boot(monkeypatch, "some_other_board", label="BINOCLE")[0] == [("remount", "/", True)]


def test_any_error_leaves_the_default(monkeypatch, capsys):
    calls, label = run_boot(monkeypatch, "pybadge", fail=True)
    assert calls == [] and label == "CIRCUITPY"
    assert capsys.readouterr().out == "boot.py: flash busy\n"


def run_code_py(monkeypatch, capsys, check, main=None):
    """code.py as the board runs it, with stand-ins for binocle.startup (check) and
    binocle.app (main); the endless wait at the end raises SystemExit(3). Its printed lines."""
    startup = types.ModuleType("binocle.startup")
    startup.check = check
    binocle = types.ModuleType("binocle")
    binocle.startup = startup
    binocle.forget = lambda *names: None
    modules = [("binocle", binocle), ("binocle.startup", startup)]
    if main is not None:
        binocle.app = types.ModuleType("binocle.app")
        binocle.app.main = main
        modules.append(("binocle.app", binocle.app))
    for name, module in modules:
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(name="circuitpython"))
    source = open(os.path.join(ROOT, "code.py")).read().replace("while True:\n            pass",
                                                                "raise SystemExit(3)")
    try:
        exec(compile(source, "code.py", "exec"), {"__name__": "__main__"})
    except SystemExit as e:
        assert e.code == 3
    return capsys.readouterr().out.splitlines()


def test_code_py_stops_at_an_unfinished_update_with_a_message(monkeypatch, capsys):
    out = run_code_py(monkeypatch, capsys, lambda root: ["missing lib/binocle/app.py"])
    assert out == ["The last update did not finish.", "missing lib/binocle/app.py",
                   "Hold SELECT and press reset,", "connect the board, then run", "python -m tools deploy"]


def test_code_py_says_when_the_board_runs_out_of_memory(monkeypatch, capsys):
    def main():
        raise MemoryError("memory allocation failed, allocating 1024 bytes")
    out = run_code_py(monkeypatch, capsys, lambda root: [], main)
    assert out[0] == "Out of memory: this" and out[-1] == "Every move was saved."
    assert max(len(line) for line in out) <= 26          # the console's width on a 160 px screen
