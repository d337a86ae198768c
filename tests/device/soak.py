"""The soak: AI against AI for many deals, the game saved after every action, under
MicroPython (python -m tools soak) or any Python (micropython tests/device/soak.py [deals]).

Each action is saved the way the app saves it (binocle.store's journal, in a file held in
RAM standing in for the drive's); every save is read back and must equal the record, and a mirror
state built only from what was read back must match the live game after every action; at
the end of each deal the whole record is replayed from scratch and compared too. After each
deal the heap is collected and gc.mem_alloc() noted: its median must not grow (CPython has
no gc.mem_alloc(): there the heap is not measured).

The loop runs at module level, holding everything in globals: MicroPython's WASI build
loses objects that only the frames of calling functions hold when it collects, so the
collections happen here, where no such frame exists.
"""

import gc
import sys

if "." not in sys.path:
    sys.path.insert(0, ".")
if "lib" not in sys.path:
    sys.path.append("lib")

from engine import record                              # noqa: E402
from engine.rules import new_game, RULE_SETS as RULES   # noqa: E402
from engine.state import PH_BETWEEN                    # noqa: E402
from engine.ai import new_player                       # noqa: E402
from binocle import saveload, store as nvstore         # noqa: E402
from binocle.settings import Settings                  # noqa: E402
from binocle.stats import Stats                        # noqa: E402
from tests.device.helpers import fingerprint           # noqa: E402

LEVELS = ("easy", "normal")


class RamFile:
    """The journal's file in RAM: the calls the journal makes."""

    def __init__(self):
        self.data = bytearray(b"\xff" * nvstore.SIZE)
        self.pos = 0

    def seek(self, pos):
        self.pos = pos
        return pos

    def write(self, b):
        self.data[self.pos:self.pos + len(b)] = b
        self.pos += len(b)
        return len(b)

    def readinto(self, buf):
        buf[:] = self.data[self.pos:self.pos + len(buf)]
        self.pos += len(buf)
        return len(buf)


def new_seats(state, rules, level, seed):
    seats = []
    for p in range(state.PLAYERS):
        seats.append(new_player(rules, p, level, seed * 16 + p, state.options))
    return seats


def play_one(state, seats, saves, mirror):
    """One action of the player to move, saved, read back, replayed onto the mirror."""
    p = state.current_player()
    obs = state.observation(p)
    action = obs.legal[0] if state.phase == PH_BETWEEN else seats[p].choose(obs)
    state.apply(action)
    data = record.encode(state)
    if not saves.save(SETTINGS, STATS.b, data[:7], state.history):
        raise AssertionError("save refused at %d actions (%d bytes)" % (state.nactions, len(data)))
    back = saveload.read_entry(drive, saves.seq)
    if back is None or back.record != data or back.notes:
        raise AssertionError("save %d read back differently" % state.nactions)
    back = back.record
    moves = record.decode_actions(back)
    while mirror.nactions < len(moves):
        mirror.apply(moves[mirror.nactions])
    if fingerprint(mirror) != fingerprint(state):
        raise AssertionError("the state rebuilt from save %d differs" % state.nactions)


def finish_deal(state, seats, saves, mirror):
    """Play to the end of the deal (or game); then replay the saved record from scratch."""
    number = state.deal_number
    while not state.is_game_over() and (state.deal_number == number and state.phase != PH_BETWEEN):
        play_one(state, seats, saves, mirror)
    again = record.replay(saveload.read_entry(drive, saves.seq).record)
    if fingerprint(again) != fingerprint(state):
        raise AssertionError("the replayed record differs at the end of deal %d" % number)
    if state.phase == PH_BETWEEN:
        play_one(state, seats, saves, mirror)          # deal the next hand
    return len(record.encode(state))


deals_wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 200
drive = RamFile()
saves = nvstore.Journal(drive)
SETTINGS = Settings().to_bytes()
STATS = Stats()
heap = []
mem_alloc = getattr(gc, "mem_alloc", None)           # MicroPython's and CircuitPython's
longest = 0
actions_done = 0
deals = 0
game = 0
state = None
while deals < deals_wanted:
    if state is None or state.is_game_over():
        rules = RULES[game % 3]
        level = LEVELS[(game // 3) % 2]
        state = new_game(rules, 1000 + game)
        mirror = new_game(rules, 1000 + game)
        seats = new_seats(state, rules, level, 1000 + game)
        saves.new_game()
        game += 1
    before = state.nactions
    size = finish_deal(state, seats, saves, mirror)
    actions_done += state.nactions - before
    longest = max(longest, size)
    deals += 1
    gc.collect()
    if mem_alloc is not None:
        heap.append(mem_alloc())

# Within a game the heap follows its record and the AI's tables, so single readings swing
# by 10 KB or more, and the same run differs from run to run by 1-2 KB (the WASI build's
# collector). A leak lifts every reading: compare the medians of the two halves. 4 KB over
# 100 deals is 40 bytes a deal; keeping one byte per action already gives about 5 KB.
print("soak: %d deals, %d games, %d actions saved and reloaded, longest record %d bytes"
      % (deals, game, actions_done, longest))
grew = 0
if heap:
    first = sorted(heap[:len(heap) // 2])[len(heap) // 4]
    last = sorted(heap[len(heap) // 2:])[(len(heap) - len(heap) // 2) // 2]
    print("soak: heap after collect: median of the first half %d, of the second half %d, min %d, max %d, final %d"
          % (first, last, min(heap), max(heap), heap[-1]))
    grew = last - first
    print("soak: growth %d bytes" % grew)
else:
    print("soak: heap not measured (this Python has no gc.mem_alloc)")
print("soak: %s" % ("ok" if grew <= 4096 else "FAILED: the heap grows"))
