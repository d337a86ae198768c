"""The statistics as the versions before layout 3 saved them (stats.py), read once after an
update and then forgotten: a game never keeps this code.

    layout 2, 212 bytes: the layout (2), then one cell per (rule set, level) of the three
              rule sets, 9 cells of 22 bytes: layout 3's fields, but the winning streak now
              and the longest one 2 bytes each (at 18 and 20); then at 199 the game being
              counted and at 208 the backup mark, as layout 3 keeps them after its layout byte
    layout 1, 199 bytes: layout 2's first 199 bytes alone
"""

_OLD_CELL = 22


def read(b, data, cells, cell, key):
    """Copy the counts of an old layout's data into b, a layout 3 of the three rule sets
    (cells: where its cells start, cell: their size, key: where the game being counted is);
    a streak above 255 is kept as 255."""
    for c in range(9):
        o = cells + c * cell
        old = 1 + c * _OLD_CELL
        b[o:o + 18] = data[old:old + 18]
        b[o + 18] = min(255, data[old + 18] | data[old + 19] << 8)
        b[o + 19] = min(255, data[old + 20] | data[old + 21] << 8)
    if len(data) == 212:
        b[key:cells] = data[199:212]
