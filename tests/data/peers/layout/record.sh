#!/bin/sh
# Records tests/data/peers/layout/: run in a folder holding openings.epd and ./shannon.
PAIR="-engine cmd=./shannon name=alpha option.Seed=11 -engine cmd=./shannon name=beta option.Seed=22"
THREE="$PAIR -engine cmd=./shannon name=gamma option.Seed=33"
FOUR="$PAIR -engine cmd=./shannon name=gamma option.Seed=33 -engine cmd=./shannon name=delta option.Seed=44"
EACH="-each proto=uci tc=inf nodes=1000 -concurrency 1"
BOOK="-openings file=openings.epd format=epd order=sequential"
cutechess() { # case, then the options: cutechess-cli's reading only
  case_name=$1; shift
  cutechess-cli "$@" -pgnout "$case_name.cutechess-cli-1.5.1.pgn" min > /dev/null
}
fastchess_only() { # case, then the options: fastchess's form only
  case_name=$1; shift
  fastchess "$@" -pgnout "file=$case_name.fastchess-1.8.2-alpha.pgn" min=true > /dev/null
}
run() { # case, then the options
  case_name=$1; shift
  cutechess-cli "$@" -pgnout "$case_name.cutechess-cli-1.5.1.pgn" min > /dev/null
  fastchess "$@" -pgnout "file=$case_name.fastchess-1.8.2-alpha.pgn" min=true > /dev/null
}
run reverse $PAIR $EACH $BOOK -games 2 -repeat -rounds 3 -reverse
run reverse-noswap $PAIR $EACH $BOOK -games 2 -repeat -rounds 2 -reverse -noswap
run seeds $FOUR $EACH -tournament gauntlet -seeds 2 -games 2 -repeat -rounds 1
# cutechess-cli's -repeat N above 2, no -repeat with a book, an odd number of games
cutechess repeat3 $PAIR $EACH $BOOK -games 2 -rounds 4 -repeat 3
cutechess repeat4-reverse $PAIR $EACH $BOOK -games 9 -repeat 4 -reverse
cutechess no-repeat $PAIR $EACH $BOOK -rounds 5
cutechess odd-repeat-noswap $PAIR $EACH $BOOK -games 5 -repeat -noswap
# cutechess-cli's tournaments: its round-robin order, each encounter its own openings
cutechess round-robin-reverse $FOUR $EACH $BOOK -tournament round-robin -games 2 -repeat -rounds 2 -reverse
cutechess round-robin-odd $THREE $EACH $BOOK -tournament round-robin -games 3 -repeat -rounds 2
cutechess gauntlet-repeat3 $FOUR $EACH $BOOK -tournament gauntlet -games 4 -repeat 3 -rounds 2
# fastchess's tournament: each encounter the next of the book's first -rounds openings
fastchess_only roundrobin-reverse $FOUR $EACH $BOOK -tournament roundrobin -games 2 -repeat -rounds 2 -reverse
