"""The soak of the storage issue, run under MicroPython with collection on (tools/checks/soak.py)."""

import re

from tools.checks import soak


def test_two_hundred_deals_saved_after_every_action_and_a_steady_heap():
    ok, text, _seconds = soak.run(200, "4m")
    assert ok, text
    m = re.search(r"soak: (\d+) deals, (\d+) games, (\d+) actions saved and reloaded", text)
    assert m and int(m.group(1)) == 200
    assert int(m.group(3)) > 200 * 30                # every action of every deal went through
    growth = int(re.search(r"growth (-?\d+) bytes", text).group(1))
    assert growth <= 4096                            # medians of the halves: see tests/device/soak.py
