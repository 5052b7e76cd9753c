"""python-chess drives the Shannon engine as an xboard (CECP v2) engine.

Usage: python3 tests/xboard_python.py PATH_TO_SHANNON

- python-chess's xboard client (chess.engine.SimpleEngine.popen_xboard) starts the engine,
  negotiates the features (it requires ping and setboard) and reads the Seed option;
- 6 full games engine against engine (3 standard, 3 Chess960 through `variant fischerandom`),
  each move legal by python-chess's rules, until python-chess says the game is over (claims
  included) or the engine claims the end, and then its claim must agree with python-chess;
- the same seeds replay the same game;
- `send_game_result` and `ping` are answered.

Prints one line per check and a closing "N passed, N failed"; exits 1 on any failure.
"""

import sys

import chess
import chess.engine

ENGINE = sys.argv[1]
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
    board = chess.Board.from_chess960_pos((number * 131) % 960) if chess960 else chess.Board()
    board.chess960 = chess960
    white = chess.engine.SimpleEngine.popen_xboard(ENGINE)
    black = chess.engine.SimpleEngine.popen_xboard(ENGINE)
    try:
        white.configure({"Seed": 3000 + number})
        black.configure({"Seed": 4000 + number})
        game = object()
        while not board.is_game_over(claim_draw=True):
            engine = white if board.turn == chess.WHITE else black
            result = engine.play(board, chess.engine.Limit(time=0.05), game=game)
            if result.move is None:
                # The engine claimed the end instead of moving: only a claimable draw can be.
                if not board.can_claim_draw():
                    check(f"game {number}", False, f"no move and no claim in {board.fen()}")
                    return None
                break
            if result.move not in board.legal_moves:
                check(f"game {number}", False, f"illegal move {result.move} in {board.fen()}")
                return None
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        for engine in (white, black):
            engine.send_game_result(board)
        white.ping()
        black.ping()
        kind = "chess960" if chess960 else "standard"
        check(f"game {number} ({kind}): {len(board.move_stack)} plies, {outcome.termination.name}", True)
        return [m.uci() for m in board.move_stack]
    finally:
        white.quit()
        black.quit()


def features():
    engine = chess.engine.SimpleEngine.popen_xboard(ENGINE)
    try:
        name = engine.id.get("name", "")
        check("myname is Shannon", name.startswith("Shannon "), name)
        check("Seed is an option", "Seed" in engine.options, str(list(engine.options)))
        check("ping and setboard declared",
              engine.protocol.features.get("ping") == 1 and engine.protocol.features.get("setboard") == 1)
        # A mated position: the engine claims instead of moving.
        board = chess.Board("6k1/6Q1/6K1/8/8/8/8/8 b - - 0 1")
        result = engine.play(board, chess.engine.Limit(time=0.05))
        check("mated engine makes no move", result.move is None, str(result))
        board = chess.Board()
        engine.play(board, chess.engine.Limit(time=0.05))
        engine.ping()
        check("ping after play", True)
    finally:
        engine.quit()


features()
games = [play_game(n, n >= 3) for n in range(6)]
replay = play_game(0, False)
check("the same seeds replay the same game", games[0] is not None and replay == games[0])
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
