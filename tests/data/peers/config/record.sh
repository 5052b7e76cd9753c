#!/bin/sh
# Records tests/data/peers/config/ with the real fastchess: run in a copy of this folder holding
# openings.epd and ./shannon (this repository's, test-release). Each case's files:
#   CASE.first.json    the config.json fastchess saved when the first run ended (or was interrupted)
#   CASE.first.pgn     the PGN then (interrupted only: the resumed run starts from these two)
#   CASE.resumed.txt   the standard output of `fastchess -config file=config.json ...`
#   CASE.pgn           the PGN at the end (the first run's games, then the resumed run's)
#   CASE.final.json    the config.json at the end
set -e
LINE="-engine cmd=./shannon name=alpha option.Seed=11 -engine cmd=./shannon name=beta option.Seed=22 -each proto=uci tc=inf nodes=1000 -concurrency 1 -openings file=openings.epd format=epd order=sequential -games 2 -repeat -srand 5"
rm -f config.json more-rounds.pgn interrupted.pgn
# A finished run of 3 rounds continued to 5: `-config file=` then `-rounds 5`.
fastchess $LINE -rounds 3 -pgnout file=more-rounds.pgn min=true > /dev/null
cp config.json more-rounds.first.json
fastchess -config file=config.json -rounds 5 > more-rounds.resumed.txt
cp config.json more-rounds.final.json
rm config.json
# A run of 20 rounds interrupted (SIGINT) once its PGN holds 9 games (fastchess saves the
# complete pairs: 8 games), continued with `-config file=config.json`.
fastchess $LINE -rounds 20 -pgnout file=interrupted.pgn min=true > /dev/null &
pid=$!
games() { n=$(grep -c '^\[Event ' interrupted.pgn 2>/dev/null); echo "${n:-0}"; }
until [ "$(games)" -ge 9 ]; do sleep 0.01; done
kill -INT $pid
wait $pid || true
cp config.json interrupted.first.json
cp interrupted.pgn interrupted.first.pgn
fastchess -config file=config.json > interrupted.resumed.txt
cp config.json interrupted.final.json
rm config.json
