#!/usr/bin/env bash
# Loki-2 against Loki-1, the four stereotypes and the always-call / always-raise players, duplicate deals
# (each with a 95 % CI). Each match writes a results folder under $RUNS; `summarize.py` pools the copies of
# Loki-2 per deal and writes summary.json, summary.csv and sb-per-hand.png here.
# Usage: bash docs/results/loki2-evidence/run.sh [RUNS] [HEADS_UP_DEALS] [TABLE_DEALS] [FULL_TABLE_DEALS]
set -euo pipefail
RUNS=${1:-runs}
HU=${2:-100}        # heads-up deals per match-up for full loki2 (x2 hands); loki2-triples plays 5x as many
TABLE=${3:-100}     # ten-seat deals per match-up for loki2-triples (x10 hands)
FULL=${4:-100}      # ten-seat deals for full loki2 against each opponent (x10 hands)
SEED=1
OPPONENTS="loki1 loose-passive loose-aggressive tight-passive tight-aggressive call raise"
mkdir -p "$RUNS"
match() {  # name, deals, agents
  [ -f "$RUNS/$1/summary.json" ] && return
  pokerlab match --agents "$3" --duplicate --deals "$2" --seed "$SEED" --workers 1 --no-progress \
    --out "$RUNS/$1" --json > "$RUNS/$1.json"
  rm -f "$RUNS/$1/hands.sqlite"
}
for opp in $OPPONENTS; do
  match "hu-loki2-$opp" "$HU" "loki2,$opp"
  match "hu-loki2-triples-$opp" "$((5 * HU))" "loki2-triples,$opp"
  match "ten-loki2-triples-$opp" "$TABLE" "loki2-triples,loki2-triples$(printf ",$opp%.0s" 1 2 3 4 5 6 7 8)"
  match "ten-loki2-$opp" "$FULL" "loki2,loki2$(printf ",$opp%.0s" 1 2 3 4 5 6 7 8)"
done
