#!/bin/sh
# cutechess-cli 1.5.1's engine key `initstr`, in a folder holding ./shannon (this repository's
# engine, the test-release build): engine a is given `initstr=debug off\nisready` (two lines, the
# `\n` typed as backslash and n); two games at 1000 nodes adjudicated after 5 moves, with `-debug all` so every line sent to
# and read from each engine is printed. cutechess-cli-1.5.1.txt is what it printed,
# cutechess-cli-1.5.1.pgn its PGN.
set -e
cutechess-cli -engine cmd=./shannon name=a option.Seed=1 'initstr=debug off\nisready' -engine cmd=./shannon name=b option.Seed=2 -each proto=uci tc=inf nodes=1000 -games 2 -maxmoves 5 -debug all -pgnout cutechess-cli-1.5.1.pgn > cutechess-cli-1.5.1.txt
