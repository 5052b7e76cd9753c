#!/bin/sh
# A move without any limit (`tc=inf` alone) beside one with a node cap, in a folder holding
# openings.epd (tests/data/peers/sprt/) and ./shannon (this repository's engine, the test-release
# build). cutechess-cli 1.5.1 sends `go infinite`, which an engine that keeps to UCI answers only
# after a `stop` that cutechess-cli never sends: the run is interrupted (SIGINT) once that line
# was sent. infinite.cutechess-cli-1.5.1.go.txt holds the `go` lines its engines received,
# infinite.cutechess-cli-1.5.1.pgn its PGN then; fastchess 1.8.2-alpha refuses the command line,
# and infinite.fastchess-1.8.2-alpha.txt is what it printed.
set -e
ENGINES="-engine cmd=./shannon name=alpha option.Seed=11 tc=inf nodes=1000 -engine cmd=./shannon name=beta option.Seed=22 tc=inf"
COMMON="-each proto=uci -openings file=openings.epd format=epd order=sequential -games 2 -rounds 1 -repeat -concurrency 1"
CUTE=infinite.cutechess-cli-1.5.1
cutechess-cli $ENGINES $COMMON -debug all -pgnout $CUTE.pgn > $CUTE.debug &
PID=$!
until grep -q 'go infinite' $CUTE.debug; do sleep 0.2; done
sleep 1
kill -INT $PID
wait $PID
grep -o '>[^(]*([0-9]*): go .*' $CUTE.debug | sed 's/^>\([^(]*\)([0-9]*): /\1: /' > $CUTE.go.txt
rm $CUTE.debug
fastchess $ENGINES $COMMON -pgnout file=infinite.fastchess-1.8.2-alpha.pgn > infinite.fastchess-1.8.2-alpha.txt || true
rm -f infinite.fastchess-1.8.2-alpha.pgn config.json
