#!/bin/sh
# Pondering (cutechess-cli's engine key `ponder`), each case played by cutechess-cli 1.5.1 in a
# folder holding openings.epd (tests/data/peers/sprt/) and ./shannon (this repository's engine,
# the test-release build; its `Ponder` option names the reply its own seed would choose, so two
# engines of one seed always hit). CASE.cutechess-cli-1.5.1.pgn is its PGN, .txt what it printed
# without its -debug lines, .ponder.txt the lines its engines received that start, hit or stop
# a search, `ENGINE: go ...`, `ENGINE: ponderhit`, `ENGINE: stop`, in the order sent.
set -e
SF="cmd=/usr/games/stockfish option.Threads=1 option.Hash=16"
case_words() {
  case "$1" in
    hits) echo "-engine cmd=./shannon name=a option.Seed=7 ponder -engine cmd=./shannon name=b option.Seed=7 ponder -each tc=10+0.1" ;;
    misses) echo "-engine cmd=./shannon name=a option.Seed=7 ponder -engine cmd=./shannon name=b option.Seed=8 ponder -each st=0.2" ;;
    stockfish) echo "-maxmoves 60 -engine $SF name=sf nodes=2000 -engine cmd=./shannon name=random option.Seed=7 ponder -each tc=10+0.1" ;;
  esac
}
COMMON="proto=uci -openings file=openings.epd format=epd order=sequential -games 2 -rounds 2 -repeat -concurrency 1"
for CASE in ${CASES:-hits misses stockfish}; do
  CUTE=$CASE.cutechess-cli-1.5.1
  cutechess-cli $(case_words $CASE) $COMMON -debug all -pgnout $CUTE.pgn > $CUTE.debug
  grep -v '^[0-9]* [<>]' $CUTE.debug > $CUTE.txt
  grep -oE '>[^(]*\([0-9]*\): (go|ponderhit|stop).*' $CUTE.debug | sed 's/^>\([^(]*\)([0-9]*): /\1: /' > $CUTE.ponder.txt
  rm $CUTE.debug
done
