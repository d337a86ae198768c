"""The device suite on an interpreter whose firmware modules are built in, as displayio is in
CircuitPython on a PyBadge: there the firmware stand-ins (tests/device/firmware) cannot stand
in, and every test that needs them says so and passes instead of failing.

CPython has no built-in displayio, and the device runner under CPython finds the stand-ins
first even with Blinka's displayio installed (standins.install() forgets it and puts the
stand-ins' folder first on sys.path). So a fresh CPython is given one the way CircuitPython
has it: a finder in front of sys.meta_path that serves the firmware's module names as modules
with no file, whatever sys.path says. The runner then runs the device modules that use the
stand-ins."""

import os
import subprocess
import sys

from tools.checks import standins

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = '''
import importlib.abc
import importlib.util
import sys

BUILT_IN = %r


class Firmware(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The firmware's modules, built in: found before any folder of sys.path, no __file__."""

    def find_spec(self, name, path=None, target=None):
        if name in BUILT_IN:
            return importlib.util.spec_from_loader(name, self, origin="built-in")
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.BUILT_IN = True


sys.meta_path.insert(0, Firmware())
sys.path.insert(0, ".")
from tests.device import run
sys.exit(1 if run.run("", ("tests.device.test_standins", "tests.device.test_screens")) else 0)
'''


def test_the_stand_in_tests_pass_where_the_firmware_is_built_in():
    built_in = tuple(n for n in standins.FIRMWARE if n != "_hw")
    done = subprocess.run([sys.executable, "-c", DRIVER % (built_in,)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines[-1] == "17 passed, 0 failed", done.stdout + done.stderr
    skipped = [line for line in lines if "not here: this interpreter has the firmware's own modules" in line]
    assert len(skipped) == 16, done.stdout       # every one of them found the firmware built in
    assert not [line for line in lines if line.startswith("FAIL")]
