"""Binocle for CircuitPython handhelds: the device app."""
