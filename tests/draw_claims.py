"""python-chess's view of draw claims along games sent by tests/it/draw_claims_python.rs.

Usage: python3 tests/draw_claims.py GAMES_FILE

GAMES_FILE holds one game a line, as UCI moves from the standard start position. For every
position before each game's last move, prints one character: `T` when python-chess's
`can_claim_threefold_repetition()` is true, `F` when `can_claim_fifty_moves()` is, `B` for both,
`.` for neither; one line per game. Both functions include a claim made by announcing the next
move (FIDE 9.2.1 and 9.3.1). They are only asked where the halfmove clock allows a claim at all
(at least 6 for repetition, 98 for the 50-move rule), which keeps the run short.
"""

import sys

import chess

with open(sys.argv[1]) as games:
    for line in games:
        board = chess.Board()
        marks = []
        for uci in line.split():
            three = board.halfmove_clock >= 6 and board.can_claim_threefold_repetition()
            fifty = board.halfmove_clock >= 98 and board.can_claim_fifty_moves()
            marks.append("B" if three and fifty else "T" if three else "F" if fifty else ".")
            board.push_uci(uci)
        print("".join(marks))
