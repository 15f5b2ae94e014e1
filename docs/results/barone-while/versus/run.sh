#!/usr/bin/env bash
# Barone & While's players against the project's other players at ten seats (a bot measured
# against the others with CIs): 2 copies of the player + 8 of one opponent, duplicate deals, seed 1, as
# Loki-2's evidence (docs/results/loki2-evidence/). The players: A (the starting point of experiments 2-3,
# frozen) and A^tight / A^loose evolved by `pokerlab experiment bw-2 --runs 3 --seed 1` (seed 1's file).
# `summarize.py` pools the copies per deal and writes summary.json, summary.csv and sb-per-hand.png here.
# Usage: bash docs/results/barone-while/versus/run.sh [RUNS] [DEALS]
set -euo pipefail
RUNS=${1:-runs/bw-versus}
DEALS=${2:-100}     # ten-seat deals per match-up (x10 hands)
SEED=1
EVOLVED=docs/results/barone-while/bw2-full/evolved-A-seed1.npz
OPPONENTS="loki1 loki2-triples loose-passive loose-aggressive tight-passive tight-aggressive call raise"
mkdir -p "$RUNS"
[ -f "$RUNS/player-a.npz" ] || python -c "
from pokerlab.programs.barone_while.agent import EvolvingAgent
EvolvingAgent(start='player_a').save('$RUNS/player-a.npz')"
declare -A PLAYERS=([A]="bw:$RUNS/player-a.npz" [Atight]="bw:$EVOLVED@tight-passive" [Aloose]="bw:$EVOLVED@loose-aggressive")
for name in A Atight Aloose; do
  for opp in $OPPONENTS; do
    folder="$RUNS/ten-$name-$opp"
    [ -f "$folder/summary.json" ] && continue
    p=${PLAYERS[$name]}
    pokerlab match --agents "$p,$p$(printf ",$opp%.0s" 1 2 3 4 5 6 7 8)" --duplicate --deals "$DEALS" \
      --seed "$SEED" --workers 1 --no-progress --out "$folder" > /dev/null
    rm -f "$folder/hands.sqlite"
  done
done
