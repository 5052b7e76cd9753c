"""python-chess's Syzygy prober, the independent peer of Shannon's (src/tablebase/).

Usage: python3 tests/syzygy_python.py DIR[:DIR...] [--time] [--dtz]

Reads FENs from stdin, one per line, and prints one line per FEN: the WDL value for the side
to move as python-chess's `Tablebase.probe_wdl` gives it (-2 loss, -1 blessed loss, 0 draw,
1 cursed win, 2 win), or with --dtz the distance to zeroing `Tablebase.probe_dtz` gives, or
`error: ...` when it refuses. With --time, every FEN is read and made
into a board first, then the probes alone are timed, and two last lines, `seconds S` and
`cpu-seconds C`, say how long they took by the clock and in CPU time of the thread (for
`shannon bench tablebase`).
"""

import os
import sys
import time

import chess
import chess.syzygy


def main():
    timed = "--time" in sys.argv[2:]
    dtz = "--dtz" in sys.argv[2:]
    tablebase = chess.syzygy.Tablebase()
    for folder in sys.argv[1].split(os.pathsep):
        tablebase.add_directory(folder)
    boards = [chess.Board(line.strip()) for line in sys.stdin if line.strip()]
    answers = []
    started = time.perf_counter()
    cpu_started = time.thread_time()
    for board in boards:
        try:
            value = tablebase.probe_dtz(board) if dtz else tablebase.probe_wdl(board)
            answers.append(str(value))
        except KeyError as e:
            answers.append(f"error: {e}")
    seconds = time.perf_counter() - started
    cpu_seconds = time.thread_time() - cpu_started
    out = sys.stdout
    out.write("\n".join(answers))
    out.write("\n")
    if timed:
        out.write(f"seconds {seconds:.6f}\n")
        out.write(f"cpu-seconds {cpu_seconds:.6f}\n")


if __name__ == "__main__":
    main()
