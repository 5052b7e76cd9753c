#!/bin/sh
# fastchess 1.8.2-alpha's compliance check (`fastchess --compliance ENGINE [ARGS]`) of five
# engines, run in a folder holding ./shannon (this repository's engine) and ./faulty (its
# shannon-faulty-engine), both the test-release build, with Stockfish at /usr/games/stockfish:
#   shannon:   ./shannon
#   stockfish: /usr/games/stockfish
#   none:      ./faulty "--fault none"                 (the first legal move, well answered)
#   crash:     ./faulty "--fault crash --after 1"      (exits at its first `go`)
#   no-uciok:  ./faulty "--fault no-uciok"             (never answers `uci`)
# Each case's CASE.txt is what fastchess printed on stdout, CASE.err on stderr, CASE.status its
# exit status.
for CASE in ${CASES:-shannon stockfish none crash no-uciok}; do
  case $CASE in
    shannon) set -- ./shannon ;;
    stockfish) set -- /usr/games/stockfish ;;
    none) set -- ./faulty "--fault none" ;;
    crash) set -- ./faulty "--fault crash --after 1" ;;
    no-uciok) set -- ./faulty "--fault no-uciok" ;;
  esac
  STATUS=0
  fastchess --compliance "$@" > $CASE.txt 2> $CASE.err || STATUS=$?
  echo $STATUS > $CASE.status
done
