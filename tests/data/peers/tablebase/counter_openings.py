"""Write counter-openings.pgn: 24 positions of four and five pieces, each with a fifty-move
counter between 40 and 95, drawn with python-chess (1.11.2) from seed 44.

Usage (in this folder): python3 counter_openings.py > counter-openings.pgn

Each position is random (the pieces of a material taken in turn from MATERIALS, on random
squares, pawns off the first and last ranks, a random side to move), kept when python-chess
calls it valid and not over; no castling rights. Played on with the counter already high, a
won position is a win or a cursed win by its distance to zeroing and the counter.
"""

import random

import chess

MATERIALS = ["KRvKP", "KQvKR", "KBNvK", "KPvKP", "KRvKB", "KQvKP", "KRPvKR", "KQvKRP"]


def random_position(rng, material):
    while True:
        board = chess.Board(None)
        white, black = material.split("v")
        for pieces, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in pieces:
                piece = chess.Piece.from_symbol(letter if color else letter.lower())
                squares = [s for s in chess.SQUARES if board.piece_at(s) is None]
                if piece.piece_type == chess.PAWN:
                    squares = [s for s in squares if 8 <= s < 56]
                board.set_piece_at(rng.choice(squares), piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_game_over():
            return board


def main():
    rng = random.Random(44)
    for i in range(24):
        board = random_position(rng, MATERIALS[i % len(MATERIALS)])
        board.halfmove_clock = rng.randint(40, 95)
        board.fullmove_number = 60
        print(f'[Event "counter opening {i + 1}"]')
        print('[SetUp "1"]')
        print(f'[FEN "{board.fen()}"]')
        print()
        print("*")
        print()


if __name__ == "__main__":
    main()
