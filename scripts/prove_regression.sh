#!/usr/bin/env bash
# Verdict regression of the built-in prover against the `% Status` lines of
# the TPTP problems, side by side with E prover (`eprover --auto`) under the
# same processed-clause limit.
#
#   scripts/prove_regression.sh [MAX_PROCESSED] [E_CPU_SECONDS] [PROBLEM_DIR]
#
# Defaults: 2000 given clauses, E's safety CPU cap 30 s, $TPTP/Problems.
# Prints one row per problem, then: solved by each, by both, by one only, and
# disagreements with `% Status` (any disagreement of ours exits 1). Every
# verdict of ours has already passed the independent certificate checker
# inside `saturate prove` (a certificate that does not check aborts it).
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${1:-2000}
ECPU=${2:-30}
export TPTP=${TPTP:-../shared/tptp}
DIR=${3:-$TPTP/Problems}
command -v eprover >/dev/null || { echo "eprover not found (apt-get install -y eprover)" >&2; exit 2; }
# SATURATE=path uses that binary instead of building one.
if [ -z "${SATURATE:-}" ]; then cargo build --release -q; fi
BIN=${SATURATE:-target/release/saturate}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

status_of() { grep -m1 -E '^% Status' "$1" | awk '{print $4}'; }

printf '%-18s %-14s %-14s %-14s %9s %9s\n' problem expected ours eprover ours_s e_s
ours_n=0; e_n=0; both=0; ours_only=0; e_only=0; bad_ours=0; bad_e=0; total=0
while IFS= read -r f; do
  total=$((total + 1))
  name=$(basename "$f" .p)
  exp=$(status_of "$f"); exp=${exp:-Unknown}
  t0=$(date +%s.%N)
  set +e
  "$BIN" prove "$f" --max-processed "$LIMIT" -q >"$TMP/ours" 2>"$TMP/ours.err"
  rc=$?
  set -e
  t1=$(date +%s.%N)
  ours=$(grep -m1 '^% SZS status' "$TMP/ours" | awk '{print $4}')
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    ours="ERROR($rc)"
    sed 's/^/    /' "$TMP/ours.err" | head -3 >&2
  fi
  set +e
  eprover --auto --processed-clauses-limit="$LIMIT" --cpu-limit="$ECPU" -s "$f" >"$TMP/e" 2>&1
  set -e
  t2=$(date +%s.%N)
  e=$(grep -m1 'SZS status' "$TMP/e" | awk '{print $4}'); e=${e:-none}
  printf '%-18s %-14s %-14s %-14s %9.3f %9.3f\n' "$name" "$exp" "$ours" "$e" \
    "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
  solved_ours=0; solved_e=0
  case "$ours" in Unsatisfiable|Satisfiable|Theorem|CounterSatisfiable) solved_ours=1 ;; esac
  case "$e" in Unsatisfiable|Satisfiable|Theorem|CounterSatisfiable) solved_e=1 ;; esac
  if [ $solved_ours = 1 ] && [ "$ours" != "$exp" ]; then bad_ours=$((bad_ours + 1)); fi
  case "$ours" in ERROR*) bad_ours=$((bad_ours + 1)) ;; esac
  if [ $solved_e = 1 ] && [ "$e" != "$exp" ]; then bad_e=$((bad_e + 1)); fi
  ours_n=$((ours_n + solved_ours)); e_n=$((e_n + solved_e))
  if [ $solved_ours = 1 ] && [ $solved_e = 1 ]; then both=$((both + 1)); fi
  if [ $solved_ours = 1 ] && [ $solved_e = 0 ]; then ours_only=$((ours_only + 1)); fi
  if [ $solved_ours = 0 ] && [ $solved_e = 1 ]; then e_only=$((e_only + 1)); fi
done < <(find "$DIR" -name '*.p' | sort)

echo
echo "problems: $total   limit: $LIMIT processed clauses (E also capped at ${ECPU}s CPU)"
echo "solved: saturate $ours_n, eprover $e_n; both $both, saturate only $ours_only, eprover only $e_only"
echo "disagreements with % Status: saturate $bad_ours, eprover $bad_e"
[ "$bad_ours" -eq 0 ]
