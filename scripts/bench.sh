#!/usr/bin/env bash
# Times the release binary on the benchmark cases, checks the figure each must print, and
# prints wall time, CPU time and peak memory against the targets.
#   scripts/bench.sh [extra options appended to every case, e.g. --threads 1]
#   BENCH_TABLES=1 scripts/bench.sh   also times the issue-3 tables (about 5 minutes more)
#   BENCH_MINMOVES=1 scripts/bench.sh the fewest-moves cases of issues 4 and 64 (tri:9: about 2
#                                     minutes on 2 cores)
#   BENCH_DISK=1 scripts/bench.sh     the research-scale sweeps of issue 19 (tri:8 and the french
#                                     table: hours; each in a temporary work directory)
#   BENCH_PEER='COMMAND' scripts/bench.sh
#                                     times issue 21's peer first, as the reference for english d4:
#                                     COMMAND (any shell command, run as given; pegsol does not
#                                     ship or build the peer) must print english's 1,679,072
#                                     solvable positions up to symmetry, and the d4 case's target
#                                     becomes half its wall time ("twice as fast as the peer").
#                                     BENCH_PEER_COUNT='COMMAND' times one that also counts the
#                                     40,861,647,040,079,968 winning sequences, for comparison.
#   scripts/bench.sh --mpi            cluster runs (issue 20) instead: english centre and the tri:7
#                                     table on 1 rank x 2 threads and 2 ranks x 1 thread, with wall
#                                     time, peak memory of each rank and bytes exchanged (needs
#                                     OpenMPI; builds with --features mpi)
#   scripts/bench.sh --against OLD [ROUNDS]
#                                     the engine's speed against an older pegsol binary OLD (for
#                                     example one built from an earlier commit): the five cases of
#                                     issue 66, old and new in alternating runs, ROUNDS (default 3)
#                                     of each, with each run's wall time, the medians and new/old
#   scripts/bench.sh --random [ROUNDS]
#                                     the cost of issue 67's statistics: count english and the
#                                     tri:7 table without and with --random, alternating
# Works from any directory. Timings on a shared machine are noisy: the load average and the
# CPU time are printed too. Exit code 1 when a case prints a wrong figure (slow is only
# marked). Without /usr/bin/time, wall time and peak memory come from the "wall time ...,
# peak memory ..." line `pegsol count` prints (other commands: wall time only).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# ---- Benchmark cases: one per line, fields separated by '|':
#      label | pegsol arguments | max wall s | max peak MiB (empty: none) | text the output must contain
#      A max wall of the form "3x:LABEL" is relative: 3 times the wall time of case LABEL,
#      measured earlier in the same run. A label starting with "peer" runs its arguments as a
#      shell command instead of pegsol (BENCH_PEER, below).
# Later issues: add cases here.
CASES=()
# issue 21's reference, when given: the peer's solvable set (and count), measured in this run.
d4_target=0.25
if [[ "${BENCH_PEER:-}${BENCH_PEER_COUNT:-}" == *'|'* ]]; then
  echo "bench: BENCH_PEER and BENCH_PEER_COUNT cannot hold '|' (the cases' separator); put the pipeline in a script" >&2
  exit 2
fi
if [ -n "${BENCH_PEER:-}" ]; then
  CASES+=("peer english solvable|$BENCH_PEER|||1679072|1,679,072")
  d4_target="0.5x:peer english solvable"
fi
if [ -n "${BENCH_PEER_COUNT:-}" ]; then
  CASES+=("peer english + sequences|$BENCH_PEER_COUNT|||40861647040079968|40,861,647,040,079,968")
fi
CASES+=(
  # issue 2: count
  "count english centre|count --quiet --board english|4.5|1024|577,116,156,815,309,849,672"
  "count tri:7 a1|count --quiet --board tri:7 --hole a1|5||15,329,604,581,324,902,942"
  # issue 19: the same english sweep with its layers forced to disk by a 64 MiB budget
  "count english on disk|count --quiet --board english --max-memory 64M|3x:count english centre|256|577,116,156,815,309,849,672"
  # issue 5: solvable, line
  "line --pegs 1 --to 30|line --pegs 1 --to 30|10||7 pegs: 16 configurations reducible to one peg, 8 up to reversal"
  # issue 21: solvable by meeting in the middle, hint, solve
  "solvable english d4|solvable --board english --finish d4 -q|$d4_target||solvable up to symmetry     1,679,072"
  "solvable english any|solvable --board english --finish any -q|2||solvable up to symmetry     1,679,073"
  # nothing to solve: the rows still run to the longest game, found by quick searches (no
  # target; a forward sweep of every reachable position took 17 s and 48 s before)
  "solvable english to c1|solvable --board english --finish c1 -q|||   31              0              0"
  "solvable french centre|solvable --board french -q|||   34              0              0"
  # hint without a cache: from the start it is a whole solvable (no target of its own: the
  # issue's 0.3 s is met through the cache below, its second approach); mid-game, 0.3 s.
  "hint english start|hint --board english --finish d4 -q --position d4|||32 pegs, finish d4: 40,861,647,040,079,968 winning jump sequences"
  "hint english mid-game|hint --board english --finish d4 -q --position=--...--/--...--/oooo.oo/o.o.ooo/o.ooooo/--...--/--...--|0.3||17 pegs, finish d4: 69,160 winning jump sequences"
  # the same two hints from a cache of the start's solvable set (issue 21's second approach):
  # the first case builds the file (no target), the next two read it. @CACHE is one
  # directory for the whole run.
  "hint english cache build|hint --board english --finish d4 -q --position d4 --cache @CACHE/english-d4|||32 pegs, finish d4: 40,861,647,040,079,968 winning jump sequences"
  "hint start, cached|hint --board english --finish d4 -q --position d4 --cache @CACHE/english-d4|0.3||32 pegs, finish d4: 40,861,647,040,079,968 winning jump sequences"
  "hint mid-game, cached|hint --board english --finish d4 -q --position=--...--/--...--/oooo.oo/o.o.ooo/o.ooooo/--...--/--...--  --cache @CACHE/english-d4|0.3||17 pegs, finish d4: 69,160 winning jump sequences"
  "solve french d2 to d6|solve --board french --hole d2 --finish d6|1||a solution from d2 to one peg d6"
  "solve wiegleb centre to centre|solve --board wiegleb --finish e5|60||a solution from e5 to one peg e5"
  # extremes on count's engine, stopped at the first dead end (no target: the plain
  # breadth-first sweep it replaced refused french after 208 s at 17.1 GB)
  "extremes french centre|extremes --board french -q|||shortest game (Fool's solitaire): 15 jumps, 133,736,880 games"
)
# issue 3: whole tables (4 minutes together), with BENCH_TABLES=1. @DIR is a fresh directory.
if [ -n "${BENCH_TABLES:-}" ]; then
  CASES+=(
    "table tri:7 all starts|table --board tri:7 --starts all -q --csv @DIR|12||tri:7      all       28    893,134,943,977,510,843,032"
    # the same table with its layers on disk from layer 10 or 11 (ten lanes, 44-byte entries)
    "table tri:7 on disk|table --board tri:7 --starts all -q --max-memory 160M --csv @DIR|3x:table tri:7 all starts|256|tri:7      all       28    893,134,943,977,510,843,032"
    "table english all starts|table --board english --starts all -q --csv @DIR|60|2048|english    all       33 95,288,799,582,273,817,897,272"
  )
fi
# issues 4 and 64: fewest moves (tri:8 seconds, tri:9 about 2 minutes on 2 cores and 0.5 GB),
# with BENCH_MINMOVES=1.
if [ -n "${BENCH_MINMOVES:-}" ]; then
  CASES+=(
    "min-moves tri:6 all|solve --board tri:6 --min-moves --all-starts|10||fewest moves from any single vacancy to one peg anywhere: 9"
    "min-moves english d4|solve --board english --finish d4 --min-moves|60||fewest moves from d4 to one peg d4: 18"
    "min-moves table tri:6|solve --board tri:6 --min-moves --table|60||tri:6,b4,,9"
    "min-moves tri:8 all|solve --board tri:8 --min-moves --all-starts --max-memory 8GiB|600|8192|fewest moves from any single vacancy to one peg anywhere: 13"
    # issue 64's target: tri:9 within one hour (128 s on 2 cores, 493 MiB, 4 December 2026)
    "min-moves tri:9 all|solve --board tri:9 --min-moves --all-starts --max-memory 20G|3600|20480|fewest moves from any single vacancy to one peg anywhere: 16"
  )
fi
# issue 19: sweeps past memory, on disk (hours), with BENCH_DISK=1. The figures they must print
# are the ones committed in results/ by these same commands.
if [ -n "${BENCH_DISK:-}" ]; then
  CASES+=(
    "count tri:8 a1 on 12G|count --quiet --board tri:8 --max-memory 12G --work-dir @DIR|2700|12288|wins                7,735,090,461,854,962,949,522,016,786"
    "table french on 16G|table --board french --starts all -q --max-memory 16G --csv @DIR||16384|french     all       37 409,029,894,202,654,893,923,007,408 167,686,106,580,208,348,209,728"
  )
fi
# ---- end of cases

# verdict STATUS OUTPUT EXPECTED [OR_THIS]: sets `result` (ok, FAILED or WRONG) and `fail`
# when not ok.
verdict() {
  result=ok
  if [ "$1" -ne 0 ]; then
    result="FAILED (exit $1)"
    fail=1
  elif ! grep -qF -- "$3" "$2" && { [ -z "${4:-}" ] || ! grep -qF -- "$4" "$2"; }; then
    result="WRONG (expected '$3')"
    fail=1
  fi
}

# ---- Cluster runs (issue 20): scripts/bench.sh --mpi
#      label | pegsol arguments | text the output must contain
MPI_CASES=(
  "count english centre|count --quiet --board english|577,116,156,815,309,849,672"
  "table tri:7 all starts|table --board tri:7 --starts all -q --csv @DIR|tri:7      all       28    893,134,943,977,510,843,032"
)
# ranks x threads per rank
MPI_SHAPES=("1 2" "2 1")
if [ "${1:-}" = "--mpi" ]; then
  shift
  command -v mpirun >/dev/null || { echo "bench: --mpi needs OpenMPI's mpirun" >&2; exit 2; }
  cargo build --release --quiet --features mpi
  bin=$PWD/target/release/pegsol
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "pegsol $(git rev-parse --short HEAD 2>/dev/null || echo '?') --features mpi, $(nproc) cores, load average:$(uptime | sed 's/.*load average[s]*://')"
  printf '%-24s %-14s %9s %-22s %16s %s\n' case ranks wall 'peak memory per rank' 'bytes exchanged' result
  fail=0
  for case in "${MPI_CASES[@]}"; do
    IFS='|' read -r label args expect <<<"$case"
    for shape in "${MPI_SHAPES[@]}"; do
      read -r ranks threads <<<"$shape"
      dir=$(mktemp -d -p "$work")
      a=${args//@DIR/$dir}
      status=0
      begin=$(date +%s.%N)
      # --bind-to none: mpirun binds each rank to one core by default, which would leave a
      # rank of two threads one core. Each rank under /usr/bin/time, into its own file; PEGSOL_TRACE's per-layer lines
      # (rank 0's) carry the bytes all ranks sent in the layer.
      # shellcheck disable=SC2086 # the arguments are meant to be split
      PEGSOL_TRACE=1 mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$ranks" \
        sh -c 'exec /usr/bin/time -f "%e %M" -o "$0.${OMPI_COMM_WORLD_RANK:-0}" "$@"' \
        "$work/time" "$bin" $a --threads "$threads" "$@" >"$work/out" 2>"$work/err" ||
        status=$?
      secs=$(awk -v b="$begin" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - b }')
      peaks=$(for r in $(seq 0 $((ranks - 1))); do
        awk '{ printf "%.0f", $2 / 1024 }' "$work/time.$r" 2>/dev/null || printf '?'
        printf ' '
      done)
      bytes=$({ grep -oE 'sent [0-9]+ bytes' "$work/err" || true; } | awk '{ s += $2 } END { printf "%.0f", s }')
      verdict "$status" "$work/out" "$expect"
      printf '%-24s %-14s %7s s %-22s %16s %s\n' "$label" "$ranks x $threads" "$secs" \
        "${peaks% } MiB" "$bytes" "$result"
      rm -rf "$dir" "$work"/time.*
    done
  done
  exit $fail
fi

# ---- Old against new (issue 66): scripts/bench.sh --against OLD [ROUNDS]
#      label | pegsol arguments | text the output must contain
AGAINST_CASES=(
  "count english centre|count --quiet --board english|577,116,156,815,309,849,672"
  "table tri:7 all starts|table --board tri:7 --starts all -q --csv @DIR|tri:7      all       28    893,134,943,977,510,843,032"
  "table english all starts|table --board english --starts all -q --csv @DIR|english    all       33 95,288,799,582,273,817,897,272"
  "count english on disk|count --quiet --board english --max-memory 64M|577,116,156,815,309,849,672"
  "solvable english d4|solvable --board english --finish d4 -q|solvable up to symmetry     1,679,072"
)
RANDOM_CASES=(
  "count english centre|count --quiet --board english|577,116,156,815,309,849,672"
  "table tri:7 all starts|table --board tri:7 --starts all -q --csv @DIR|tri:7      all       28    893,134,943,977,510,843,032"
)
# race OLD NEW EXTRA ROUNDS CASES...: each case run by OLD and by NEW (NEW with EXTRA options
# appended) in alternating runs, ROUNDS of each; prints each run's wall time, the medians and
# NEW/OLD. Sets fail=1 when a run prints a wrong figure.
race() {
  local old=$1 new=$2 extra=$3 rounds=$4
  shift 4
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  printf '%-26s %-28s %-28s %8s %8s %6s %s\n' case 'old runs (s)' 'new runs (s)' 'old med' 'new med' new/old result
  fail=0
  for case in "$@"; do
    IFS='|' read -r label args expect <<<"$case"
    olds=()
    news=()
    wrong=0
    for _ in $(seq "$rounds"); do
      for which in old new; do
        bin=$old
        more=""
        [ "$which" = old ] || { bin=$new; more=$extra; }
        dir=$(mktemp -d -p "$work")
        begin=$(date +%s.%N)
        status=0
        # shellcheck disable=SC2086 # the arguments are meant to be split
        "$bin" ${args//@DIR/$dir} $more >"$work/out" 2>/dev/null || status=$?
        secs=$(awk -v b="$begin" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - b }')
        rm -rf "$dir"
        verdict "$status" "$work/out" "$expect"
        [ "$result" = ok ] || { echo "$label ($which): $result" >&2; wrong=1; fail=1; }
        if [ "$which" = old ]; then olds+=("$secs"); else news+=("$secs"); fi
      done
    done
    median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    mo=$(median "${olds[@]}")
    mn=$(median "${news[@]}")
    printf '%-26s %-28s %-28s %8s %8s %6s %s\n' "$label" "${olds[*]}" "${news[*]}" "$mo" "$mn" \
      "$(awk -v a="$mo" -v b="$mn" 'BEGIN { printf "%.2f", b / a }')" "$([ "$wrong" = 0 ] && echo ok || echo WRONG)"
  done
  echo "load average after:$(uptime | sed 's/.*load average[s]*://')"
}
if [ "${1:-}" = "--against" ]; then
  old=${2:?"bench: --against needs the old binary"}
  rounds=${3:-3}
  [ -x "$old" ] || { echo "bench: $old is not an executable" >&2; exit 2; }
  cargo build --release --quiet
  echo "pegsol $(git rev-parse --short HEAD 2>/dev/null || echo '?') against $old, $(nproc) cores, load average:$(uptime | sed 's/.*load average[s]*://')"
  race "$old" target/release/pegsol "" "$rounds" "${AGAINST_CASES[@]}"
  exit $fail
fi
# ---- The cost of the random player's statistics (issue 67): scripts/bench.sh --random [ROUNDS]
if [ "${1:-}" = "--random" ]; then
  rounds=${2:-3}
  cargo build --release --quiet
  echo "pegsol $(git rev-parse --short HEAD 2>/dev/null || echo '?'): without (old) and with (new) --random, $(nproc) cores, load average:$(uptime | sed 's/.*load average[s]*://')"
  race target/release/pegsol target/release/pegsol --random "$rounds" "${RANDOM_CASES[@]}"
  exit $fail
fi

cargo build --release --quiet
bin=target/release/pegsol
out=$(mktemp)
timing=$(mktemp)
errs=$(mktemp)
cache=$(mktemp -d)
trap 'rm -rf "$out" "$timing" "$errs" "$cache"' EXIT

echo "pegsol $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (src modified)'), $(nproc) cores, load average:$(uptime | sed 's/.*load average[s]*://')"
printf '%-24s %9s %-13s %8s %11s %-15s %s\n' case wall target cpu 'peak memory' target result

# mark VALUE LIMIT: PASS or over ("-" without a limit)
mark() {
  if [ -z "$2" ]; then echo "-"; else awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l ? "PASS" : "over") }'; fi
}

fail=0
declare -A walls
for case in "${CASES[@]}"; do
  IFS='|' read -r label args max_secs max_mib expect alt <<<"$case"
  if [[ "$max_secs" == *x:* ]]; then
    ref=${walls[${max_secs#*x:}]:-}
    max_secs=${ref:+$(awk -v f="${max_secs%%x:*}" -v r="$ref" 'BEGIN { printf "%.2f", f * r }')}
  fi
  dir=""
  args=${args//@CACHE/$cache}
  if [[ "$args" == *@DIR* ]]; then
    dir=$(mktemp -d)
    args=${args//@DIR/$dir}
  fi
  # The peer's command runs as given; pegsol's cases get the extra options too.
  # shellcheck disable=SC2086 # the arguments are meant to be split
  run=("$bin" $args "$@")
  [[ "$label" != peer* ]] || run=(sh -c "$args")
  status=0
  cpu="?"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%e %U %S %M' -o "$timing" "${run[@]}" >"$out" 2>"$errs" ||
      status=$?
    cat "$errs" >&2
    read -r secs user sys kib <"$timing"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f s", u + s }')
    mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
    # `table` resets the peak between (board, start) pairs, so the kernel's figure is only
    # the last pair's: take the largest pegsol itself reports on stderr.
    if own=$(grep -oE 'peak memory [0-9.]+ (KiB|MiB|GiB|TiB)' "$errs" | tail -1); then
      own=$(awk '{ f = ($4 == "KiB") ? 1 / 1024 : ($4 == "GiB") ? 1024 : ($4 == "TiB") ? 1048576 : 1; printf "%.1f", $3 * f }' <<<"$own")
      mib=$(awk -v a="$mib" -v b="$own" 'BEGIN { print (b > a) ? b : a }')
    fi
  else
    begin=$(date +%s.%N)
    "${run[@]}" >"$out" || status=$?
    secs=$(awk -v b="$begin" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - b }')
    mib="?"
    if line=$(grep '^wall time' "$out"); then
      secs=$(sed -E 's/^wall time ([0-9.]+) s.*/\1/' <<<"$line")
      mib=$(sed -E 's/.*peak memory ([0-9.]+) (B|KiB|MiB|GiB|TiB).*/\1 \2/' <<<"$line" |
        awk '{ f = ($2 == "B") ? 1 / 1048576 : ($2 == "KiB") ? 1 / 1024 : ($2 == "GiB") ? 1024 : ($2 == "TiB") ? 1048576 : 1; printf "%.1f", $1 * f }')
    fi
  fi
  [ -z "$dir" ] || rm -rf "$dir"
  walls[$label]=$secs
  verdict "$status" "$out" "$expect" "$alt"
  mem_mark="-"
  [ "$mib" = "?" ] || mem_mark=$(mark "$mib" "$max_mib")
  printf '%-24s %7s s %-13s %8s %7s MiB %-15s %s\n' "$label" "$secs" \
    "${max_secs:+<= ${max_secs} s }$(mark "$secs" "$max_secs")" "$cpu" "$mib" \
    "${max_mib:+<= $max_mib MiB }$mem_mark" "$result"
done
exit $fail
