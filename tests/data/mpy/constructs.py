"""Every construct the game's modules use, in one module (tests/test_mpy_golden.py checks the
game uses none that is missing here): its .mpy from the bundle must equal CircuitPython's own."""

import sys
from micropython import const

_SMALL = const(12)
_MASK = const(0x3FFFFFFF)
BIG = 0x7FFFFFFF * 3          # a long int: beyond a 31-bit small int
RATE = 1.5
NAMES = ("ace", "ten")
RAW = b"\x00\x01\xff"
NOTHING = None
YES, NO = True, False
counter = 0


class Base:
    KIND = 1

    def __init__(self, *args, **kw):
        self.args = args
        self.kw = kw


class Child(Base):
    @staticmethod
    def make(a, b=2, *rest, key=None, **more):
        return Child(a, b, *rest, key=key, **more)

    @property
    def size(self):
        return len(self.args)


def arithmetic(a, b):
    x = a + b - a * b
    x += a // (b or 1) + a % 7 + a / 2
    x = (a & b) | (a ^ b) | (~a) | (a << 2) | (b >> 1) | -a
    return x if a > b else x - 1


def comparisons(a, b, seq):
    return (a < b, a <= b, a == b, a != b, a >= b, a > b, a in seq, a not in seq,
            a is None, b is not None, not a, a and b, a or b)


def loops(n):
    total = 0
    for i in range(n):
        if i == 3:
            continue
        if i > 40:
            break
        total += i
    else:
        total -= 1
    while total > 100:
        total //= 2
    else:
        total += 1
    return total


def collections(rows):
    squares = [r * r for r in rows if r]
    pairs = sum(r for r in rows)
    head, *tail = rows
    data = [1, 2, 3]
    data[1:2] = [9]
    part = data[1:]
    del data[0]
    return squares, pairs, head, tail, part, data[-1], {"k": rows}


def generator(n):
    for i in range(n):
        yield i * 2


def closure(step):
    def add(x):
        return x + step
    return add


def errors(path):
    global counter
    try:
        with open(path, "rb") as f:
            counter += 1
            return f.read(4)
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (path, e))
    except (KeyError, IndexError):
        pass
    finally:
        counter -= 1


def imports():
    import gc
    gc.collect()
    return sys.platform, _SMALL & _MASK
