#!/bin/sh
# A run interrupted by Ctrl-C (SIGINT), played by cutechess-cli 1.5.1 and fastchess 1.8.2-alpha,
# in a folder holding openings.epd (tests/data/peers/sprt/), ./shannon (this repository's engine) and
# ./faulty (its shannon-faulty-engine), both the test-release build. The faulty engine plays the
# first legal move and, from its 150th `go` (in game 2), thinks until `stop`
# (`--fault think-until-stop`); no clock runs (`tc=inf nodes=1000`), so the run waits there
# until the tool is interrupted: one second after game 2 started, SIGINT. Each tool's TOOL.pgn
# is its PGN, TOOL.txt what it printed on stdout, TOOL.status its exit status.
set -e
COMMON="-engine cmd=./shannon name=good option.Seed=11 -each proto=uci tc=inf nodes=1000 -openings file=openings.epd format=epd order=sequential -games 2 -rounds 3 -repeat -concurrency 1"
interrupt() {
  NAME=$1; shift
  "$@" > $NAME.txt &
  PID=$!
  until grep -q "Started game 2 " $NAME.txt; do sleep 0.1; done
  sleep 1
  kill -INT $PID
  STATUS=0
  wait $PID || STATUS=$?
  echo $STATUS > $NAME.status
}
interrupt cutechess-cli-1.5.1 cutechess-cli -engine cmd=./faulty name=bad arg=--fault arg=think-until-stop arg=--after arg=150 $COMMON -pgnout cutechess-cli-1.5.1.pgn
interrupt fastchess-1.8.2-alpha fastchess -engine cmd=./faulty name=bad "args=--fault think-until-stop --after 150" $COMMON -pgnout file=fastchess-1.8.2-alpha.pgn
rm -f config.json
