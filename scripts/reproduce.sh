#!/usr/bin/env bash
# Regenerates results/ into a temporary directory with the commands of results/README.md
# and compares it with the committed copy. Exit 0 when every file is identical (runs.csv:
# its board and start columns; the others are times, dates and provenance; scaling.svg, drawn
# from those times, only exists), 1 on any
# difference, 2 when a command fails.
#
# Usage: scripts/reproduce.sh [--threads N] [--keep DIR] [--full]
#   --keep DIR  regenerate into DIR (created; kept afterwards, e.g. to read its runs.csv
#               timings) instead of a temporary directory
#   --full      also recount tri:8's committed classes (a1, a2, a3, a4, b3, b4, c5, d7; on disk within 12 to 18 GiB,
#               one sweep a class) and french, every start
#               (within 16 GiB): hours on 2 cores; each resumes from ./pegsol-work when
#               interrupted. Without it the tri:8 and french rows are carried over from
#               results/ into the regenerated table (only the report that draws on them is
#               redone), and the script says so. --full also recomputes the fewest moves
#               per start of the tri:7 and tri:8 classes in results/min_moves.csv.
# Takes as long as the table run itself (see results/README.md for measured times).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
threads=0
keep=""
full=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threads) threads=${2:?--threads needs a number}; shift 2 ;;
    --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
    --full) full=1; shift ;;
    *) echo "usage: $0 [--threads N] [--keep DIR] [--full]" >&2; exit 2 ;;
  esac
done

cargo build --release --quiet || exit 2
bin=target/release/pegsol
if [[ -n "$keep" ]]; then
  mkdir -p "$keep" || exit 2
  tmp=$keep
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
fi

echo "regenerating into $tmp ..." >&2
# Boards whose rows take hours to recount: tri:8 from a1 and french, every start.
if [[ -z "$full" ]]; then
  # Their committed rows seed the regenerated table as they are; the table command below
  # keeps them and writes every file in its sorted order.
  echo "tri:8 and french rows carried over from results/ (--full recounts them)" >&2
  for f in summary pegs_left finish depth runs; do
    { head -n 1 "results/$f.csv"; grep -E '^(tri:8|french),' "results/$f.csv"; } > "$tmp/$f.csv"
  done
fi
"$bin" table --board tri:4..7 --board english --starts all --random --csv "$tmp" --threads "$threads" --quiet \
  > /dev/null || exit 2
if [[ -n "$full" ]]; then
  # One sweep a class, each within the budget it was made with (results/README.md).
  for class in a1:12G a2:18G a3:18G a4:18G b3:16G b4:18G c5:16G d7:16G; do
    "$bin" table --board tri:8 --starts "${class%:*}" --max-memory "${class#*:}" --csv "$tmp" \
      --threads "$threads" --quiet > /dev/null || exit 2
  done
  "$bin" table --board french --starts all --max-memory 16G --csv "$tmp" --threads "$threads" \
    --quiet > /dev/null || exit 2
fi
# The fewest moves per start (results/min_moves.csv): tri:4 to tri:6 always; the tri:7 and
# tri:8 start classes committed (hours on 2 cores) only with --full, carried over otherwise.
if [[ -z "$full" ]]; then
  echo "min_moves.csv: tri:7 and tri:8 rows carried over from results/ (--full recomputes them)" >&2
  { head -n 1 results/min_moves.csv; grep -E '^tri:(7|8),' results/min_moves.csv; } > "$tmp/min_moves.csv"
fi
for n in 4 5 6; do
  "$bin" solve --board "tri:$n" --min-moves --table --csv "$tmp" --threads "$threads" > /dev/null || exit 2
done
if [[ -n "$full" ]]; then
  for pair in $(grep -E '^tri:(7|8),' results/min_moves.csv | cut -d, -f1,2 | sort -u); do
    "$bin" solve --board "${pair%,*}" --min-moves --table --hole "${pair#*,}" --csv "$tmp" \
      --threads "$threads" > /dev/null || exit 2
  done
fi
"$bin" report "$tmp" --board tri:5..8 > /dev/null || exit 2

status=0
for committed in results/*; do
  name=$(basename "$committed")
  [[ "$name" == README.md ]] && continue
  fresh="$tmp/$name"
  if [[ ! -f "$fresh" ]]; then
    echo "DIFFERS: $name is committed but was not regenerated"
    status=1
  elif [[ "$name" == scaling.svg ]]; then
    : # drawn from runs.csv's timings, which differ from run to run
  elif [[ "$name" == runs.csv ]]; then
    if ! diff <(cut -d, -f1,2 "$committed") <(cut -d, -f1,2 "$fresh") > /dev/null; then
      echo "DIFFERS: $name (board, start columns)"
      diff <(cut -d, -f1,2 "$committed") <(cut -d, -f1,2 "$fresh") | head -20
      status=1
    fi
  elif ! cmp -s "$committed" "$fresh"; then
    echo "DIFFERS: $name"
    diff "$committed" "$fresh" | head -20
    status=1
  fi
done
for fresh in "$tmp"/*; do
  name=$(basename "$fresh")
  if [[ ! -f "results/$name" ]]; then
    echo "DIFFERS: $name was regenerated but is not committed"
    status=1
  fi
done
if [[ $status == 0 ]]; then echo "results/ reproduced: every file identical"; fi
exit $status
