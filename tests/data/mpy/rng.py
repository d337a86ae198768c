"""The engine's own seeded generator: the same numbers on CPython and on the board.

Marsaglia's xorshift32 (shifts 13, 17, 5), kept as two 16-bit halves so that
no intermediate value reaches 2**30 (CircuitPython's small-int limit):

    state = hi << 16 | lo        hi, lo: 0..0xFFFF, never both zero

CircuitPython's own `random` is another generator than CPython's, so nothing
in the engine uses `random`.
"""

_MIX_ROUNDS = 8  # steps taken after seeding so that small seeds spread out


class Rng:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed, stream=0):
        """Seed with an int 0 <= seed < 2**32; stream 0..0xFFFF picks one of the seed's streams
        (an AI seat draws from one stream a deal, engine/ai/player.py)."""
        if seed < 0 or seed >= 0x100000000:
            raise ValueError("seed must be between 0 and 4294967295")
        if stream < 0 or stream > 0xFFFF:
            raise ValueError("stream must be between 0 and 65535")
        # Spread the seed so that consecutive seeds give unrelated streams.
        self.hi = ((seed >> 16) & 0xFFFF) ^ 0x9E37 ^ ((stream * 0x9E3) & 0xFFFF)
        self.lo = (seed & 0xFFFF) ^ 0x79B9 ^ stream
        if self.hi == 0 and self.lo == 0:
            self.lo = 1
        for _ in range(_MIX_ROUNDS):
            self.next16()

    def seed_deal(self, seed, deal):
        """Seed for deal number `deal` (1, 2, ...): deal 1 draws from the seed's own stream,
        deal n from stream n - 1 (modulo 2**16)."""
        self.seed(seed, (deal - 1) & 0xFFFF)

    def get_state(self):
        return (self.hi, self.lo)

    def set_state(self, state):
        self.hi, self.lo = state

    def next16(self):
        """Advance one xorshift32 step; return the 16 high bits."""
        hi = self.hi
        lo = self.lo
        # x ^= x << 13
        hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
        lo ^= (lo << 13) & 0xFFFF
        # x ^= x >> 17
        lo ^= hi >> 1
        # x ^= x << 5
        hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
        lo ^= (lo << 5) & 0xFFFF
        self.hi = hi
        self.lo = lo
        return hi

    def below(self, n):
        """Uniform int in 0..n-1 for 1 <= n <= 32768, without bias (rejection)."""
        if n < 1 or n > 32768:
            raise ValueError("below(n) needs 1 <= n <= 32768")
        limit = 32768 - 32768 % n
        while True:
            v = self.next16() >> 1
            if v < limit:
                return v % n

    def shuffle(self, items):
        """Fisher-Yates shuffle of a list or bytearray, in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
