"""python-chess drives the Shannon engine as a real UCI client would.

Usage: python3 tests/uci_python.py PATH_TO_SHANNON DATA_DIR

- 20 full games engine against engine (10 standard, 10 Chess960 with UCI_Chess960), played
  through chess.engine.SimpleEngine.popen_uci until python-chess says the game is over; every
  move must be legal by python-chess's own rules (it refuses illegal bestmoves itself, and we
  check again);
- `analyse` with an infinite limit, stopped by the client;
- `go perft` output equal to python-chess's own perft on 10 suite positions;
- with `Seed` 0, python-chess's usual loop (`engine.play` without `game=`, so `ucinewgame` only
  once) gives different games: every `go` is a fresh draw.

Prints one line per check and a closing "N passed, N failed"; exits 1 on any failure.
"""

import subprocess
import sys
import time

import chess
import chess.engine

ENGINE, DATA = sys.argv[1], sys.argv[2]
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name} {detail}")


def play_game(number, chess960):
    if chess960:
        board = chess.Board.from_chess960_pos((number * 97) % 960)
    else:
        board = chess.Board()
    white = chess.engine.SimpleEngine.popen_uci(ENGINE)
    black = chess.engine.SimpleEngine.popen_uci(ENGINE)
    try:
        white.configure({"Seed": 1000 + number})
        black.configure({"Seed": 2000 + number})
        plies = 0
        while not board.is_game_over():
            engine = white if board.turn == chess.WHITE else black
            result = engine.play(board, chess.engine.Limit(time=0.1))
            if result.move is None or result.move not in board.legal_moves:
                check(f"game {number}", False, f"illegal move {result.move} in {board.fen()}")
                return
            board.push(result.move)
            plies += 1
        kind = "chess960" if chess960 else "standard"
        check(f"game {number} ({kind}): {plies} plies, {board.outcome().termination.name}", True)
    finally:
        white.quit()
        black.quit()


def analyse_infinite():
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE)
    try:
        check("id name", engine.id.get("name", "").startswith("Shannon"), str(engine.id))
        board = chess.Board()
        board.push_uci("e2e4")
        with engine.analysis(board) as analysis:
            info = analysis.get()
            while "pv" not in info:  # `info string seed N` comes first with Seed 0
                info = analysis.get()
            time.sleep(0.2)
            analysis.stop()
            best = analysis.wait()
        check(
            "analyse infinite + stop",
            info.get("depth") == 1 and best.move in board.legal_moves,
            f"{info} {best}",
        )
        engine.ping()
        check("ping (isready) after the analysis", True)
    finally:
        engine.quit()


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def suite_positions():
    positions = []
    with open(f"{DATA}/cpw.epd") as f:
        for line in f:
            fields = line.split(";")
            if line.strip() and not line.startswith("#"):
                counts = {int(p.split()[0][1:]): int(p.split()[1]) for p in fields[1:] if p.strip()}
                positions.append((fields[0].strip(), counts, False))
    standard = positions[:6]
    chess960 = []
    fen, counts = None, {}
    with open(f"{DATA}/chess960.perft") as f:
        for line in f.read().splitlines() + ["id end"]:
            words = line.split()
            if line.startswith("epd "):
                fen, counts = line[4:].strip(), {}
            elif line.startswith("perft ") and fen:
                counts[int(words[1])] = int(words[2])
            elif line.startswith("id ") and fen:
                chess960.append((fen, counts, True))
                fen = None
    return standard + chess960[:10 - len(standard)]


def engine_divide(fen, depth, chess960):
    # Input stays open until the answer is in: the end of input abandons a running count.
    engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    engine.stdin.write(f"setoption name UCI_Chess960 value {str(chess960).lower()}\n")
    engine.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    engine.stdin.flush()
    divide, total = {}, None
    for line in engine.stdout:
        line = line.strip()
        if line.startswith("Nodes searched: "):
            total = int(line.split(": ")[1])
            break
        elif ": " in line and not line.startswith("info"):
            move, count = line.split(": ")
            divide[move] = int(count)
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait(timeout=60)
    return divide, total


def seed_zero_games_differ():
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE)
    try:
        games = []
        for _ in range(3):
            board = chess.Board()
            for _ in range(12):
                board.push(engine.play(board, chess.engine.Limit(time=0.1)).move)
            games.append(" ".join(m.uci() for m in board.move_stack))
        check("Seed 0: three games in one engine.play loop differ", len(set(games)) == 3, str(games))
    finally:
        engine.quit()


def perft_suite():
    for fen, counts, chess960 in suite_positions():
        # The deepest depth python-chess counts in about a second.
        depth = max(d for d, n in counts.items() if n <= 20000 or d == 1)
        board = chess.Board(fen, chess960=chess960)
        expected = {}
        for move in list(board.legal_moves):
            uci = board.uci(move, chess960=chess960)
            board.push(move)
            expected[uci] = perft(board, depth - 1)
            board.pop()
        divide, total = engine_divide(fen, depth, chess960)
        ok = divide == expected and total == sum(expected.values()) == counts[depth]
        check(f"go perft {depth} = python-chess perft: {fen}", ok, f"{divide} != {expected}")


def main():
    print(f"python-chess {chess.__version__}")
    analyse_infinite()
    perft_suite()
    seed_zero_games_differ()
    for number in range(20):
        play_game(number, chess960=number >= 10)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
