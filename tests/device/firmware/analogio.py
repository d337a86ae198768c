"""Stand-in for CircuitPython's analogio module (see _hw.py): AnalogIn, reading the value
_hw gives its pin (a joystick axis rests at 32768). (Not here: AnalogOut.)"""

import _hw


class AnalogIn(_hw.Native):
    def __init__(self, pin):
        self._keep("_pin", _hw.claim(pin, "pin"))
        self._keep("reference_voltage", 3.3)

    @property
    def value(self):
        if self._pin is None:
            raise _hw.refuse(ValueError("Object has been deinitialized and can no longer be used."))
        return _hw.analog(self._pin._name)

    def deinit(self):
        if self._pin is not None:
            _hw.release(self._pin)
            self._keep("_pin", None)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
