"""python-chess's random games, for tests/it/random_games.rs.

Usage: python3 tests/random_games.py GAMES SEED

Plays GAMES games from the standard start, each move drawn uniformly from
`list(board.legal_moves)` with one `random.Random(SEED)`, under the `claims` rules of
`shannon random-games`, checked after every move in Shannon's order (the first that applies ends
the game):

1. no legal move: checkmate (the side not to move wins) or stalemate;
2. `board.is_insufficient_material()`: insufficient material;
3. `board.is_repetition(3)`: threefold repetition;
4. `board.halfmove_clock >= 100`: the 50-move rule.

Material is only looked at after a capture or promotion, and repetitions only once the halfmove
clock allows one (8 plies): elsewhere neither can have changed or apply.

At every position where material is looked at, python-chess's `is_insufficient_material()` is
also compared with FIDE's dead positions by material written out here from the pieces (K v K,
K + one minor v K, kings and bishops only with every bishop on one colour, which is Shannon's
rule); the number of positions where they disagree is printed as `insufficient_disagreements`.

Prints one JSON object: the games, the count per ending (Shannon's JSON keys), and the sum and sum
of squares of the game lengths in plies.
"""

import json
import random
import sys

import chess


def fide_dead_by_material(board):
    """K v K, K + one minor v K, or kings and bishops only, all bishops on one colour."""
    if board.pawns | board.rooks | board.queens:
        return False
    minors = board.knights | board.bishops
    if chess.popcount(minors) <= 1:
        return True
    if board.knights:
        return False
    return not (board.bishops & chess.BB_LIGHT_SQUARES) or not (
        board.bishops & chess.BB_DARK_SQUARES
    )


def play(rng, stats):
    """One random game: (ending key, plies)."""
    board = chess.Board()
    plies = 0
    material_changed = True
    while True:
        moves = list(board.legal_moves)
        if not moves:
            if board.is_check():
                return ("mate-black" if board.turn == chess.WHITE else "mate-white"), plies
            return "stalemate", plies
        if material_changed:
            theirs = board.is_insufficient_material()
            if theirs != fide_dead_by_material(board):
                stats["insufficient_disagreements"] += 1
            if theirs:
                return "insufficient-material", plies
        if board.halfmove_clock >= 8 and board.is_repetition(3):
            return "threefold", plies
        if board.halfmove_clock >= 100:
            return "fifty-move", plies
        move = rng.choice(moves)
        material_changed = move.promotion is not None or board.is_capture(move)
        board.push(move)
        plies += 1


def main():
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    stats = {"insufficient_disagreements": 0}
    counts = {
        key: 0
        for key in [
            "mate-white",
            "mate-black",
            "stalemate",
            "insufficient-material",
            "fifty-move",
            "threefold",
        ]
    }
    total = total_squares = 0
    for _ in range(games):
        ending, plies = play(rng, stats)
        counts[ending] += 1
        total += plies
        total_squares += plies * plies
    print(
        json.dumps(
            {
                "games": games,
                "seed": seed,
                "counts": counts,
                "plies": total,
                "plies_squared": total_squares,
                "insufficient_disagreements": stats["insufficient_disagreements"],
            }
        )
    )


if __name__ == "__main__":
    main()
