#!/bin/sh
# Records tests/data/peers/resultformat/: cutechess-cli 1.5.1's -resultformat. Run in a folder
# holding openings.epd (tests/data/peers/knockout/), kqk.epd (this folder), ./shannon and ./faulty
# (this repository's shannon and shannon-faulty-engine, the test-release build). Each case's
# CASE.cutechess-cli-1.5.1.txt is what cutechess-cli prints on stdout (its PGN is not kept).
set -e
SEEDED="-engine cmd=./shannon name=alpha option.Seed=11 tc=inf nodes=1000 -engine cmd=./shannon name=beta option.Seed=22 tc=inf nodes=1000"
# -each's keys override an engine's own: each engine has its time control.
EACH="-each proto=uci -concurrency 1"
BOOK="-openings file=openings.epd format=epd order=sequential"
# Four random movers, round robin, 24 games: mates, stalemates, draws by material, by the
# fifty-move rule, and by -maxmoves.
RR="$SEEDED -engine cmd=./shannon name=gamma option.Seed=33 tc=inf nodes=1000 -engine cmd=./shannon name=delta option.Seed=44 tc=inf nodes=1000"
RR="$RR $EACH $BOOK -games 2 -rounds 2 -repeat -maxmoves 220"
# Two random movers and three faulty engines (from their third go on: overruns its 1+0.1 clock,
# answers an illegal move, exits; -recover restarts it), 20 games.
FAULTS="$SEEDED -engine cmd=./faulty name=slow arg=--fault arg=overrun tc=1+0.1"
FAULTS="$FAULTS -engine cmd=./faulty name=illegal arg=--fault arg=illegal-move tc=inf nodes=1000"
FAULTS="$FAULTS -engine cmd=./faulty name=crash arg=--fault arg=crash tc=inf nodes=1000 $EACH $BOOK -games 2 -repeat -recover"
# King and queen against king: the faulty engine overruns its clock at every move; with the
# queen its loss on time is a draw (the other side cannot mate).
KQK="$SEEDED -engine cmd=./faulty name=slow arg=--fault arg=overrun arg=--after arg=1 tc=1+0.1"
KQK="$KQK $EACH -openings file=kqk.epd format=epd -games 2 -rounds 2"
cutechess() { # case, then the options
  case_name=$1; shift
  cutechess-cli "$@" -pgnout "$case_name.pgn" min > "$case_name.cutechess-cli-1.5.1.txt"
  rm -f "$case_name.pgn"
}
for FORMAT in default short wide3 per-color term draws ordo minimal; do
  cutechess "rr-$FORMAT" $RR -resultformat $FORMAT
done
cutechess rr-custom $RR -resultformat Rank,Name,Bogus,WLDStats,LOS,wElo,Games,,TC,RegulW,RegulL,DCount
cutechess faults-wide3 $FAULTS -resultformat wide3
cutechess faults-custom $FAULTS -resultformat Name,Terminations,RegulW,RegulL,OtherW,TC
cutechess kqk-draws $KQK -resultformat draws
cutechess kqk-term $KQK -resultformat Rank,Name,Games,W,L,D,Terminations,OtherW,DrawStats
# cutechess-cli prints its formats, fields and groups and exits with status 1.
cutechess-cli -resultformat help > help.cutechess-cli-1.5.1.txt || echo "exit status $?" > help.cutechess-cli-1.5.1.status
