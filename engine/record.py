"""A game as bytes: rule set, options, seed and actions. Replaying it rebuilds every state.

    byte 0      format version (FORMAT_VERSION)
    byte 1      rule set id (engine/rules.py: 0 hoyle, 1 french, 2 binokel)
    byte 2      option bits (engine/rules.py)
    bytes 3..6  seed, unsigned 32-bit little-endian
    bytes 7..   the actions, each an unsigned LEB128 varint: 7 bits per byte,
                low bits first, high bit set on every byte but the last.
                Card plays and most decisions take 1 byte, melds 3.
"""

from engine import rules

FORMAT_VERSION = 1
HEADER_SIZE = 7


class RecordError(ValueError):
    """Bytes that are not a game record this version can read."""


def encode(state):
    """The record of a game so far (bytes)."""
    if state.stacked:
        raise RecordError("a game with a stacked deck has no seed to record")
    head = bytearray(HEADER_SIZE)
    head[0] = FORMAT_VERSION
    head[1] = rules.RULE_SETS.index(state.RULES)
    head[2] = state.options
    seed = state.seed
    for i in range(4):
        head[3 + i] = (seed >> (8 * i)) & 0xFF
    return bytes(head) + bytes(state.history)


def decode_actions(data, start=HEADER_SIZE):
    """The action ints of a record body; RecordError on a cut varint."""
    out = []
    n = 0
    shift = 0
    for i in range(start, len(data)):
        b = data[i]
        n |= (b & 0x7F) << shift
        if b & 0x80:
            shift += 7
            if shift > 21:
                raise RecordError("action %d is too long" % len(out))
        else:
            out.append(n)
            n = 0
            shift = 0
    if shift:
        raise RecordError("the record ends inside an action")
    return out


def read_header(data):
    """(rules name, options, seed) of a record; RecordError if it is not one."""
    if len(data) < HEADER_SIZE:
        raise RecordError("too short to be a game record (%d bytes)" % len(data))
    if data[0] != FORMAT_VERSION:
        raise RecordError("record format %d; this version reads format %d" % (data[0], FORMAT_VERSION))
    if data[1] >= len(rules.RULE_SETS):
        raise RecordError("unknown rule set id %d" % data[1])
    name = rules.RULE_SETS[data[1]]
    seed = data[3] | data[4] << 8 | data[5] << 16 | data[6] << 24
    return name, data[2], seed


def replay(data, upto=None):
    """The state a record describes (after its first `upto` actions if given)."""
    name, options, seed = read_header(data)
    state = rules.new_game(name, seed, options)
    acts = decode_actions(data)
    if upto is not None:
        acts = acts[:upto]
    for i in range(len(acts)):
        try:
            state.apply(acts[i])
        except ValueError as e:
            raise RecordError("action %d of the record is not legal: %s" % (i, e))
    return state
