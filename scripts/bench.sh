#!/usr/bin/env bash
# Times issue 5's targets with the release binary and checks the figures they must print.
#   scripts/bench.sh          english centre solvable set (<= 10 s), line --pegs 1 --to 30 (<= 10 s)
# Prints one line per target: command, wall time, peak memory, verdict. Timings on a shared
# machine are noisy: the CPU time is printed too.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/pegsol
fail=0
run() { # name, target seconds, expected text, command...
  local name=$1 target=$2 expect=$3
  shift 3
  local out
  out=$( { /usr/bin/time -f 'TIME %e %U %S %M' "$@" 2>&1 1>&3; } 3>&1 ) || true
  local t
  t=$(grep '^TIME' <<<"$out" | tail -1)
  read -r _ wall user sys rss <<<"$t"
  local verdict=ok
  if ! grep -qF -- "$expect" <<<"$out"; then verdict="WRONG (expected '$expect')"; fail=1; fi
  if awk -v w="$wall" -v t="$target" 'BEGIN{exit !(w > t)}'; then verdict="$verdict, SLOW (> $target s)"; fi
  printf '%-48s wall %6.2f s  cpu %6.2f s  peak %5d MiB  %s\n' "$name" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$((rss / 1024))" "$verdict"
}
run "solvable --board english --finish d4" 10 "solvable up to symmetry     1,679,072" \
  "$bin" solvable --board english --finish d4 -q
run "line --pegs 1 --to 30" 10 "7 pegs: 16 configurations reducible to one peg, 8 up to reversal" \
  "$bin" line --pegs 1 --to 30
exit $fail
