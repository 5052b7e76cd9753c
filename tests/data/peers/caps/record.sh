#!/bin/sh
# Per-move caps beside a clock or a time per move, each case played by cutechess-cli 1.5.1 and
# fastchess 1.8.2-alpha, in a folder holding openings.epd (tests/data/peers/sprt/) and ./shannon
# (this repository's engine, the test-release build). Each case's CASE.TOOL.pgn is the tool's
# PGN, CASE.TOOL.txt what it printed (cutechess-cli's without its -debug lines), CASE.TOOL.go.txt
# the `go` lines its engines received, `ENGINE: go ...`, taken from cutechess-cli's -debug lines
# and fastchess's engine log.
set -e
SF="cmd=/usr/games/stockfish option.Threads=1 option.Hash=16"
case_words() {
  case "$1" in
    clock) echo "-engine $SF name=sf tc=20+0.2 nodes=5000 -engine cmd=./shannon name=random option.Seed=7 tc=20+0.2 depth=8" ;;
    stockfish) echo "-engine $SF name=sf-a tc=40/20+0.2 nodes=3000 depth=9 -engine $SF name=sf-b tc=20+0.2 depth=6 -maxmoves 100" ;;
    movetime) echo "-engine $SF name=sf st=1 nodes=4000 -engine cmd=./shannon name=random option.Seed=7 st=0.5 depth=4" ;;
  esac
}
COMMON="-each proto=uci -openings file=openings.epd format=epd order=sequential -games 2 -rounds 3 -repeat -concurrency 1"
for CASE in ${CASES:-clock stockfish movetime}; do
  ENGINES=$(case_words $CASE)
  CUTE=$CASE.cutechess-cli-1.5.1
  FAST=$CASE.fastchess-1.8.2-alpha
  cutechess-cli $ENGINES $COMMON -debug all -pgnout $CUTE.pgn > $CUTE.debug
  grep -v '^[0-9]* [<>]' $CUTE.debug > $CUTE.txt
  grep -o '>[^(]*([0-9]*): go .*' $CUTE.debug | sed 's/^>\([^(]*\)([0-9]*): /\1: /' > $CUTE.go.txt
  fastchess $ENGINES $COMMON -log file=$FAST.log level=warn engine=true -pgnout file=$FAST.pgn > $FAST.txt
  grep -o ' [^ ]* <--- go .*' $FAST.log | sed 's/^ \(.*\) <--- /\1: /' > $FAST.go.txt
  rm $CUTE.debug $FAST.log
done
rm -f config.json
