"""The project's desktop tools: `python -m tools --help` lists the commands by room.

users/   what a player or a board owner runs: the simulator, the terminal game, bundle, deploy,
         firmware, and the drives they write
checks/  development checks: the device suite, screenshots, generated tables, fuzzing, soak, stack
lab/     measuring and tuning the game: arena, bench, ui-memory, the tuners
Shared by the rooms: cli (the commands' frame), mpy (MicroPython's WASI build), selfplay, opponents.
"""

try:
    from os.path import abspath, dirname
except ImportError:     # MicroPython: the device suite and the bench's guests import pieces of tools
    ROOT = "."
else:
    ROOT = dirname(dirname(abspath(__file__)))   # the repository: engine/, lib/, tools/
