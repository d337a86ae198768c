"""The Binocle engine: rules, records and AI, in plain Python for CPython and CircuitPython.

Start at engine/rules.py (new_game) and engine/state.py (the game-state API).
"""
