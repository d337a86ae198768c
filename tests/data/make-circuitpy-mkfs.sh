#!/bin/sh
# Makes circuitpy-mkfs.img.gz: a fresh 2 MB CircuitPython drive made the ordinary way, with
# Debian's dosfstools 4.2 and mtools 4.0.32 (mtools keeps lower-case 8.3 names as upper-case
# short entries with the NT case bits, as FatFs and Windows do).
# Run from anywhere: ./tests/data/make-circuitpy-mkfs.sh (the same bytes every time).
set -e
export SOURCE_DATE_EPOCH=1732104000      # mtools' times for the folder lib
out=$(cd "$(dirname "$0")" && pwd)/circuitpy-mkfs.img.gz
work=$(mktemp -d)
cd "$work"
printf 'Adafruit CircuitPython 9.2.1 on 2024-11-20; Adafruit PyBadge with samd51j19\r\nBoard ID:pybadge\r\nUID:A1B2C3D4E5F6\r\n' > boot_out.txt
printf 'print("Hello World!")\n' > code.py
printf '# settings of your own\n' > settings.toml
touch -d '2024-11-20 12:00:00' boot_out.txt code.py settings.toml
mkfs.fat --invariant -i 12345678 -C -F 12 -n CIRCUITPY -S 512 -s 1 img 2048 >/dev/null
mcopy -m -i img boot_out.txt code.py settings.toml ::/
mmd -i img ::/lib
gzip -9 -n -c img > "$out"
cd / && rm -r "$work"
