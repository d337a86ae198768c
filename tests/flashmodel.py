"""Flash as each board's CircuitPython writes it, for the saves' tests: erases and page
programs one by one, a power cut after any of them, erase cycles counted per unit.

What each stands for (CircuitPython 10, read from its sources):

  Samd51Nvm   microcontroller.nvm on a PyBadge or PyGamer: the last 8 KB block of the
              SAMD51's flash. Every assignment goes through ASF4 flash_write
              (hpl_nvmctrl.c _flash_write): the block is read into a buffer, erased whole,
              then programmed again as 16 pages of 512 bytes, in order.
  Rp2040Nvm   microcontroller.nvm on an RP2040: one 4 KB sector after the firmware. If the
              bytes assigned are all 0xFF now, their 256-byte pages are programmed alone;
              otherwise the sector is erased and programmed whole (common-hal/nvm).
  Esp32Nvm    microcontroller.nvm on an ESP32-S3: one 8 KB blob "data" in ESP-IDF's NVS.
              Every assignment reads the blob, erases all the namespace's keys, sets the
              blob anew and commits (common-hal/nvm/ByteArray.c): from the erase until the
              blob's index entry is written the blob is missing, and nvm reads as zeros.
              NVS appends entries (32 bytes, 126 to a 4 KB page) over its 20 KB partition
              (partitions-4MB.csv: 5 pages) and erases a page before it reuses it.
  Drive       the CIRCUITPY drive, a FAT file system in flash with 4 KB erase sectors,
              programmed in 256-byte pages. A file's 512-byte blocks lie anywhere: here a
              run of them starting `offset` blocks into a sector, between other files'
              blocks (kept to check that no cut of ours ever touches them). Drivers:
                "external"  PyBadge/PyGamer (external_flash.c): one sector cached in RAM;
                            written back (erase, then 16 pages) when another sector is
                            written, the same block again, os.sync(), or a second after
                            the last write. Except: a block written where the cache would
                            be (re)loaded goes straight to the flash, past the cache, when
                            the flash block's first 4 bytes read blank (page_erased(): its
                            check of the other 508 bytes reads past a 4-byte array, which
                            GCC drops), so a later block can reach the flash before an
                            earlier one still in RAM (`shortcut`, on by default).
                            `scratch`: the 4 KB RAM cache could not be allocated; the
                            sector is staged in the flash's last sector instead (erased
                            when a new sector is staged; at write-back the untouched
                            blocks are copied there, the sector erased, all 8 copied back).
                "rp2040"    internal_flash.c: the same, also written back before any read.
                "esp32"     internal_flash.c: every block written erases and programs its
                            sector at once.

A cut is a PowerCut raised before step number `cut` of a Power shared by the devices
(an erase is two steps: half done, the unit's bits partly set, then done). Every step is
also logged, so a test can replay the first k steps of a save onto a copy of the images.
"""

BLANK = 0xFF


class PowerCut(Exception):
    pass


class Power:
    """Counts the steps of every device; cuts before step `cut` (None: never); logs them."""

    def __init__(self):
        self.n = 0
        self.cut = None
        self.log = None             # a list to append (device, op, args) to, or None

    def step(self, dev, op, *args):
        if self.cut is not None and self.n >= self.cut:
            raise PowerCut()
        self.n += 1
        if self.log is not None:
            self.log.append((dev, op, args))


_MASKS = {}


def half_erased(data, seed):
    """Bytes of an erase cut half way: some bits already 1, the rest as they were."""
    n = len(data)
    mask = _MASKS.get((n, seed))
    if mask is None:
        x = (seed * 2654435761 + 12345) & 0xFFFFFFFF
        m = bytearray(n)
        for i in range(n):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            m[i] = (x >> 16) & 0xFF
        mask = _MASKS[(n, seed)] = int.from_bytes(m, "little")
    return (int.from_bytes(data, "little") | mask).to_bytes(n, "little")


class Flash:
    """A flash array: erase units of `unit` bytes, program pages of `page` bytes."""

    def __init__(self, name, size, unit, page, power):
        self.name = name
        self.data = bytearray([BLANK]) * size
        self.unit = unit
        self.page = page
        self.power = power
        self.erases = [0] * (size // unit)

    def erase(self, u):
        self.power.step(self, "half", u)
        apply(self.data, "half", (u, self.unit))
        self.power.step(self, "erase", u)
        apply(self.data, "erase", (u, self.unit))
        self.erases[u] += 1

    def program(self, addr, data):
        for p in range(0, len(data), self.page):
            chunk = bytes(data[p:p + self.page])
            self.power.step(self, "prog", addr + p, chunk)
            apply(self.data, "prog", (addr + p, chunk))


def apply(data, op, args):
    """One logged step onto a flash image (a bytearray)."""
    if op == "half":
        u, unit = args
        data[u * unit:(u + 1) * unit] = half_erased(data[u * unit:(u + 1) * unit], u + len(data))
    elif op == "erase":
        u, unit = args
        data[u * unit:(u + 1) * unit] = bytes([BLANK]) * unit
    elif op == "prog":
        addr, chunk = args
        n = len(chunk)                      # NOR flash: programming only clears bits
        old = int.from_bytes(data[addr:addr + n], "little")
        data[addr:addr + n] = (old & int.from_bytes(chunk, "little")).to_bytes(n, "little")
    elif op == "nvs":
        blob = args[0]
        data[:] = (bytes([1]) + blob) if blob is not None else bytes([0]) * len(data)
    else:
        raise ValueError(op)


def replay(images, log, k):
    """The images after the first k logged steps (images: {device: bytearray}, copied)."""
    out = {dev: bytearray(img) for dev, img in images.items()}
    for dev, op, args in log[:k]:
        if op in ("half", "erase"):
            args = (args[0], dev.unit)
        apply(out[dev], op, args)
    return out


# -- microcontroller.nvm ------------------------------------------------------------------

class _Nvm:
    """The bytearray-like face of microcontroller.nvm over a flash model."""

    def __len__(self):
        return self.size

    def __getitem__(self, key):
        return self.read()[key]

    def read(self):
        return bytes(self.flash.data)

    def __setitem__(self, key, value):
        image = bytearray(self.read())
        if isinstance(key, slice):
            start, stop, _ = key.indices(self.size)
            if len(value) != stop - start:
                raise ValueError("nvm slices keep their length")
            image[start:stop] = value
        else:
            start, stop = key, key + 1
            image[key] = value
        self.write(image, start, stop)

    def images(self):
        return {self.flash: self.flash.data}

    def units(self):
        """{unit name: erase cycles} of the flash behind it."""
        return {"%s %d" % (self.flash.name, u): n for u, n in enumerate(self.flash.erases)}


class Samd51Nvm(_Nvm):
    size = 8192

    def __init__(self, power):
        self.flash = Flash("nvm block", 8192, 8192, 512, power)

    def write(self, image, start, stop):
        self.flash.erase(0)
        self.flash.program(0, image)


class Rp2040Nvm(_Nvm):
    size = 4096

    def __init__(self, power):
        self.flash = Flash("nvm sector", 4096, 4096, 256, power)

    def write(self, image, start, stop):
        now = self.flash.data
        if all(b == BLANK for b in now[start:stop]):
            first = start - start % 256
            for p in range(first, stop, 256):
                self.flash.program(p, image[p:p + 256])
        else:
            self.flash.erase(0)
            self.flash.program(0, image)


class Esp32Nvm(_Nvm):
    """The blob in NVS. Its image: byte 0 is 1 when the blob is there, then the blob."""
    size = 8192
    PAGES = 5
    ENTRIES = 126                   # 32-byte entries on a 4 KB page, after its header

    def __init__(self, power):
        self.flash = Flash("nvs", 1 + 8192, 1 + 8192, 1, power)   # the blob's state, not flash
        self.flash.data[0] = 0
        self.power = power
        self.page_erases = [0] * self.PAGES
        self.used = [0] * self.PAGES        # entries written on each page since its erase
        self.active = 0

    def read(self):
        d = self.flash.data
        return bytes(d[1:]) if d[0] == 1 else bytes(self.size)

    def write(self, image, start, stop):
        self.power.step(self.flash, "nvs", None)            # nvs_erase_all: the blob is gone
        apply(self.flash.data, "nvs", (None,))
        entries = 2 + (self.size + 31) // 32 + 2            # two chunks and their headers, index
        for _ in range(entries):
            self._entry()
        self.power.step(self.flash, "nvs", bytes(image))    # the index entry, then commit
        apply(self.flash.data, "nvs", (bytes(image),))

    def _entry(self):
        """Append one entry; a page is erased before it is written again."""
        if self.used[self.active] == self.ENTRIES:
            self.active = (self.active + 1) % self.PAGES
            if self.used[self.active]:
                self.page_erases[self.active] += 1
                self.used[self.active] = 0
        self.used[self.active] += 1

    def units(self):
        return {"nvs page %d" % p: n for p, n in enumerate(self.page_erases)}


NVMS = {"samd51": Samd51Nvm, "rp2040": Rp2040Nvm, "esp32s3": Esp32Nvm}


# -- the drive ----------------------------------------------------------------------------

SECTOR = 4096
BLOCK = 512
PER = SECTOR // BLOCK


class Drive:
    """A file of `blocks` 512-byte blocks on a drive, starting `offset` blocks into a sector,
    with other files' blocks around it. The file API the journal uses: seek, write,
    readinto (whole blocks), close."""

    def __init__(self, driver, blocks, offset, power, name="drive sector", shortcut=True,
                 scratch=False):
        self.driver = driver
        self.shortcut = shortcut and driver == "external"
        self.scratch = Flash("scratch sector", SECTOR, SECTOR, 256, power) if scratch else None
        self.blocks = blocks
        self.offset = offset
        self.power = power
        sectors = (offset + blocks + 2 * PER + PER - 1) // PER
        self.flash = Flash(name, sectors * SECTOR, SECTOR, 256, power)
        self.first = PER + offset                   # the file's first block on the flash
        for b in range(sectors * PER):              # other files' bytes all around
            if not self.first <= b < self.first + blocks:
                self.flash.data[b * BLOCK:(b + 1) * BLOCK] = bytes([(b * 7 + 3) & 0xFF]) * BLOCK
        self.foreign = bytes(self.flash.data[:self.first * BLOCK]), \
            bytes(self.flash.data[(self.first + blocks) * BLOCK:])
        self.pos = 0
        self.cached = None                          # the sector in RAM, its bytes, dirty blocks
        self.closes = 0
        self.syncs = 0
        self.blocks_written = 0

    # the file
    def seek(self, pos):
        self.pos = pos
        return pos

    def write(self, buf):
        assert self.pos % BLOCK == 0 and len(buf) == BLOCK, "the journal writes whole blocks"
        self._write_block(self.first + self.pos // BLOCK, bytes(buf))
        self.blocks_written += 1
        self.pos += BLOCK
        return BLOCK

    def readinto(self, buf):
        assert self.pos % BLOCK == 0 and len(buf) == BLOCK
        b = self.first + self.pos // BLOCK
        c = self.cached
        if self.driver == "rp2040" or (c is not None and c[0] == b // PER and b in c[2]):
            buf[:] = self._read_block(b)
        else:
            buf[:] = memoryview(self.flash.data)[b * BLOCK:(b + 1) * BLOCK]
        self.pos += BLOCK
        return BLOCK

    def close(self):
        """FatFs writes the file's directory entry (FA_MODIFIED): another file's sector."""
        self.closes += 1

    # the driver
    def _write_block(self, b, data):
        s = b // PER
        if self.driver == "esp32":
            image = bytearray(self.flash.data[s * SECTOR:(s + 1) * SECTOR])
            image[(b % PER) * BLOCK:(b % PER + 1) * BLOCK] = data
            self.flash.erase(s)
            self.flash.program(s * SECTOR, image)
            return
        c = self.cached
        if c is None or c[0] != s or b in c[2]:
            if self.shortcut and self.flash.data[b * BLOCK:b * BLOCK + 4] == b"\xff\xff\xff\xff":
                self.flash.program(b * BLOCK, data)         # past the cache, which stays
                return
            self.idle()
            if self.scratch is not None:
                self.scratch.erase(0)
                self.cached = (s, None, set())
            else:
                self.cached = (s, bytearray(self.flash.data[s * SECTOR:(s + 1) * SECTOR]), set())
        i = b % PER
        if self.scratch is not None:
            self.scratch.program(i * BLOCK, data)
        else:
            self.cached[1][i * BLOCK:(i + 1) * BLOCK] = data
        self.cached[2].add(b)

    def _read_block(self, b):
        if self.driver == "rp2040":
            self.idle()
        c = self.cached
        if c is not None and c[0] == b // PER and b in c[2]:
            return bytes(self._staged(c)[(b % PER) * BLOCK:(b % PER + 1) * BLOCK])
        return bytes(self.flash.data[b * BLOCK:(b + 1) * BLOCK])

    def _staged(self, c):
        """The staged sector's bytes: the RAM cache's, or the scratch sector's."""
        return c[1] if self.scratch is None else self.scratch.data

    def idle(self):
        """The write-back a second after the last write (or before another sector's)."""
        c = self.cached
        if c is None:
            return
        self.cached = None
        s = c[0]
        if self.scratch is not None:
            for i in range(PER):                    # the untouched blocks join the staged ones
                if s * PER + i not in c[2]:
                    self.scratch.program(i * BLOCK, self.flash.data[(s * PER + i) * BLOCK:
                                                                   (s * PER + i + 1) * BLOCK])
            image = bytes(self.scratch.data)
        else:
            image = c[1]
        self.flash.erase(s)
        self.flash.program(s * SECTOR, image)

    def sync(self):
        """os.sync(): CircuitPython writes the cached sector back (supervisor_flash_flush)."""
        self.syncs += 1
        self.idle()

    def lose_cache(self):
        """A power cut: what only RAM held is gone."""
        self.cached = None

    def intact(self):
        """True if no other file's byte changed."""
        d = self.flash.data
        return bytes(d[:self.first * BLOCK]) == self.foreign[0] and \
            bytes(d[(self.first + self.blocks) * BLOCK:]) == self.foreign[1]

    def images(self):
        out = {self.flash: self.flash.data}
        if self.scratch is not None:
            out[self.scratch] = self.scratch.data
        return out

    def units(self):
        out = {"%s %d" % (self.flash.name, u): n for u, n in enumerate(self.flash.erases)}
        if self.scratch is not None:
            out["scratch sector"] = self.scratch.erases[0]
        return out


DRIVERS = {"samd51": "external", "rp2040": "rp2040", "esp32s3": "esp32"}
BOARDS = ("samd51", "rp2040", "esp32s3")
