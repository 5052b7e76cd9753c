#!/bin/sh
# Games an engine loses by misbehaving, each case played by cutechess-cli 1.5.1 and fastchess
# 1.8.2-alpha, in a folder holding openings.epd (tests/data/peers/sprt/), ./shannon (this
# repository's engine) and ./faulty (its shannon-faulty-engine), both the test-release build.
# The faulty engine plays the first legal move and misbehaves at its third `go` (`--after 3`):
#   illegal: answers a move that is not legal (`--fault illegal-move`);
#   crash:   exits without answering (`--fault crash`), with -recover;
#   hang:    never answers, still reading and answering `isready` (`--fault hang`), with -recover.
# Each case's CASE.TOOL.pgn is the tool's PGN and CASE.TOOL.txt what it printed.
set -e
COMMON="-engine cmd=./shannon name=good option.Seed=11 -each proto=uci tc=1+0.1 -openings file=openings.epd format=epd order=sequential -games 2 -rounds 1 -repeat -concurrency 1"
for CASE in ${CASES:-illegal crash hang}; do
  case $CASE in
    illegal) FAULT=illegal-move; RECOVER= ;;
    crash) FAULT=crash; RECOVER=-recover ;;
    hang) FAULT=hang; RECOVER=-recover ;;
  esac
  CUTE=$CASE.cutechess-cli-1.5.1
  FAST=$CASE.fastchess-1.8.2-alpha
  cutechess-cli -engine cmd=./faulty name=bad arg=--fault arg=$FAULT arg=--after arg=3 $COMMON $RECOVER -pgnout $CUTE.pgn > $CUTE.txt
  fastchess -engine cmd=./faulty name=bad "args=--fault $FAULT --after 3" $COMMON $RECOVER -pgnout file=$FAST.pgn > $FAST.txt
done
rm -f config.json
