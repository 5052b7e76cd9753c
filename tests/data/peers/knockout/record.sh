#!/bin/sh
# Records tests/data/peers/knockout/: cutechess-cli 1.5.1's -tournament knockout. Run in a folder
# holding openings.epd and ./shannon (the seeded players; /usr/games/stockfish for the last case).
# Each case writes its PGN and what cutechess-cli prints on stdout (the bracket at the end).
PLAYERS="-engine cmd=./shannon name=alpha option.Seed=11 -engine cmd=./shannon name=beta option.Seed=22"
PLAYERS="$PLAYERS -engine cmd=./shannon name=gamma option.Seed=33 -engine cmd=./shannon name=delta option.Seed=44"
PLAYERS="$PLAYERS -engine cmd=./shannon name=eps option.Seed=55 -engine cmd=./shannon name=zeta option.Seed=66"
PLAYERS="$PLAYERS -engine cmd=./shannon name=eta option.Seed=77 -engine cmd=./shannon name=theta option.Seed=88"
EACH="-each proto=uci tc=inf nodes=1000 -concurrency 1"
BOOK="-openings file=openings.epd format=epd order=sequential"
# The first N players.
first() { echo "$PLAYERS" | awk -v n="$1" '{ for (i = 1; i <= 4 * n; i++) printf "%s ", $i }'; }
cutechess() { # case, then the options
  case_name=$1; shift
  cutechess-cli "$@" -pgnout "$case_name.cutechess-cli-1.5.1.pgn" min > "$case_name.cutechess-cli-1.5.1.txt"
}
cutechess two $(first 2) $EACH $BOOK -tournament knockout -games 1 -srand 1
cutechess three $(first 3) $EACH $BOOK -tournament knockout -games 1 -srand 5
cutechess four-seeds $(first 4) $EACH $BOOK -tournament knockout -games 2 -repeat -seeds 2 -srand 3
cutechess five $(first 5) $EACH $BOOK -tournament knockout -games 2 -srand 7
cutechess six-reverse $(first 6) $EACH $BOOK -tournament knockout -games 3 -reverse -srand 11
cutechess eight-repeat $(first 8) $EACH $BOOK -tournament knockout -games 2 -repeat -srand 13
cutechess four-noswap $(first 4) $EACH $BOOK -tournament knockout -games 3 -repeat 3 -noswap -srand 17
cutechess stockfish $(first 3) -engine cmd=/usr/games/stockfish name=sf option.Threads=1 option.Hash=16 $EACH \
  $BOOK -tournament knockout -games 2 -srand 19
