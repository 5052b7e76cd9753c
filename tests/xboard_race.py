"""An xboard engine that misses `protover 2` at every other start, as GNU Chess 6.2.7 does when
`xboard` and `protover 2` arrive in one read (a race it wins or loses by the timing of its reads).

Usage: python3 tests/xboard_race.py PATH_TO_SHANNON COUNT_FILE

Each start adds one to the number in COUNT_FILE; at even starts the first `protover 2` line is
not passed on to Shannon (which then sees a protocol 1 client), at odd starts every line is.
Shannon's output goes straight to ours; we exit when it does, with its status.
"""

import subprocess
import sys
import threading


def main():
    shannon, count_file = sys.argv[1], sys.argv[2]
    try:
        with open(count_file) as f:
            count = int(f.read().strip() or "0")
    except FileNotFoundError:
        count = 0
    count += 1
    with open(count_file, "w") as f:
        f.write(str(count))
    child = subprocess.Popen([shannon], stdin=subprocess.PIPE)

    def pump():
        drop = count % 2 == 0
        for line in sys.stdin.buffer:
            if drop and line.strip() == b"protover 2":
                drop = False
                continue
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except (BrokenPipeError, ValueError):
                return
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass

    threading.Thread(target=pump, daemon=True).start()
    sys.exit(child.wait())


main()
