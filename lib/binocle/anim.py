"""Card slides: a sprite moves in a straight line over a few hundred milliseconds.

At most _MAX slides run at once; they live in preallocated slots so a frame
allocates nothing. Any button press finishes them at once (the app calls finish())."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from binocle.input import ticks_diff

_MAX = const(6)
# fields of one slot: x0, y0, x1, y1, start, duration
_F = const(6)


class Animator:
    def __init__(self):
        self.sprites = [None] * _MAX
        self.hide = bytearray(_MAX)      # 1: hide the sprite when it arrives
        self.v = [0] * (_MAX * _F)

    def busy(self):
        for s in self.sprites:
            if s is not None:
                return True
        return False

    def slide(self, sprite, x1, y1, now, duration, hide_after=False):
        """Move sprite from where it is to (x1, y1); duration 0 puts it there at once."""
        i = self._free()
        if duration <= 0 or i < 0:
            sprite.x, sprite.y = x1, y1
            sprite.hidden = hide_after
            return
        o = i * _F
        v = self.v
        v[o], v[o + 1], v[o + 2], v[o + 3], v[o + 4], v[o + 5] = sprite.x, sprite.y, x1, y1, now, duration
        self.sprites[i] = sprite
        self.hide[i] = 1 if hide_after else 0
        sprite.hidden = False

    def _free(self):
        for i in range(_MAX):
            if self.sprites[i] is None:
                return i
        return -1

    def update(self, now):
        v = self.v
        for i in range(_MAX):
            s = self.sprites[i]
            if s is None:
                continue
            o = i * _F
            t = ticks_diff(now, v[o + 4])
            d = v[o + 5]
            if t >= d:
                self._arrive(i)
            else:
                s.x = v[o] + (v[o + 2] - v[o]) * t // d
                s.y = v[o + 1] + (v[o + 3] - v[o + 1]) * t // d

    def _arrive(self, i):
        s = self.sprites[i]
        o = i * _F
        s.x, s.y = self.v[o + 2], self.v[o + 3]
        if self.hide[i]:
            s.hidden = True
        self.sprites[i] = None

    def finish(self):
        for i in range(_MAX):
            if self.sprites[i] is not None:
                self._arrive(i)
