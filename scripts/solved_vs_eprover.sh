#!/usr/bin/env bash
# Problems solved at equal limits: `saturate prove` under each strategy (a
# config file per strategy) side by side with `eprover --auto`, all at the
# same processed-clause limit, over every *.p file of a problem folder.
#
#   scripts/solved_vs_eprover.sh [LIMIT] [PROBLEM_DIR]
#
# Defaults: 2000 processed clauses, $TPTP/Problems (TPTP default ../shared/tptp).
# Env:  STRATEGIES  space-separated NAME=CONFIG pairs; NAME=- is the built-in
#                   configuration. Default: "default=-" then every
#                   configs/strategies/*.toml (NAME = the file's stem).
#       ECPU        E's safety CPU cap in seconds (default 30; E's
#                   processed-clause limit is the real limit).
#       SATURATE    a saturate binary to use instead of building one.
#       OUT         where to write the report (default out/bench/solved_vs_eprover.md).
#
# A verdict counts as solved when it is an SZS success status; it is wrong
# when it disagrees with the file's `% Status` line (each of ours has already
# passed the independent certificate checker inside `saturate prove`). The
# report names, per strategy, the problems E solves and that strategy does
# not. Exit 1 when any strategy gives a wrong verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${1:-2000}
export TPTP=${TPTP:-../shared/tptp}
DIR=${2:-$TPTP/Problems}
ECPU=${ECPU:-30}
OUT=${OUT:-out/bench/solved_vs_eprover.md}
command -v eprover >/dev/null || { echo "eprover not found (apt-get install -y eprover)" >&2; exit 2; }
if [ -z "${SATURATE:-}" ]; then cargo build --release -q; fi
BIN=${SATURATE:-${CARGO_TARGET_DIR:-target}/release/saturate}
if [ -z "${STRATEGIES:-}" ]; then
  STRATEGIES="default=-"
  for c in configs/strategies/*.toml; do
    [ -f "$c" ] && STRATEGIES="$STRATEGIES $(basename "$c" .toml)=$c"
  done
fi
read -r -a STRATS <<<"$STRATEGIES"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$(dirname "$OUT")"

solved() { case "$1" in Unsatisfiable|Satisfiable|Theorem|CounterSatisfiable) return 0 ;; *) return 1 ;; esac; }
# /usr/bin/time writes "Command exited with non-zero status N" first on failure.
cpu_of() { tail -1 "$1" | awk '{printf "%.2f", $1 + $2}'; }
add() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a + b}'; }

mapfile -t PROBLEMS < <(find "$DIR" -name '*.p' | sort)
declare -A SOLVED WRONG CPU MISSED
E_SOLVED=0; E_WRONG=0; E_CPU=0
for s in "${STRATS[@]}"; do n=${s%%=*}; SOLVED[$n]=0; WRONG[$n]=0; CPU[$n]=0; MISSED[$n]=""; done

{
  printf '| problem | expected | E --auto |'
  for s in "${STRATS[@]}"; do printf ' %s |' "${s%%=*}"; done
  printf '\n|---|---|---|'
  for _ in "${STRATS[@]}"; do printf -- '---|'; done
  printf '\n'
} > "$TMP/table"

for f in "${PROBLEMS[@]}"; do
  name=$(basename "$f" .p)
  exp=$(grep -m1 -E '^% Status' "$f" | awk '{print $4}'); exp=${exp:-Unknown}
  set +e
  /usr/bin/time -f '%U %S' -o "$TMP/e.time" \
    eprover --auto --processed-clauses-limit="$LIMIT" --cpu-limit="$ECPU" -s "$f" >"$TMP/e" 2>&1
  set -e
  e=$(grep -m1 'SZS status' "$TMP/e" | awk '{print $4}'); e=${e:-none}
  E_CPU=$(add "$E_CPU" "$(cpu_of "$TMP/e.time")")
  if solved "$e"; then
    E_SOLVED=$((E_SOLVED + 1))
    [ "$e" = "$exp" ] || E_WRONG=$((E_WRONG + 1))
  fi
  row="| $name | $exp | $e |"
  for s in "${STRATS[@]}"; do
    n=${s%%=*}; cfg=${s#*=}
    args=(prove "$f" --max-processed "$LIMIT" -q)
    [ "$cfg" = "-" ] || args+=(--config "$cfg")
    set +e
    /usr/bin/time -f '%U %S' -o "$TMP/o.time" "$BIN" "${args[@]}" >"$TMP/o" 2>"$TMP/o.err"
    rc=$?
    set -e
    o=$(grep -m1 '^% SZS status' "$TMP/o" | awk '{print $4}'); o=${o:-none}
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then o="ERROR($rc)"; fi
    CPU[$n]=$(add "${CPU[$n]}" "$(cpu_of "$TMP/o.time")")
    if solved "$o"; then
      SOLVED[$n]=$((SOLVED[$n] + 1))
      [ "$o" = "$exp" ] || WRONG[$n]=$((WRONG[$n] + 1))
    else
      case "$o" in ERROR*) WRONG[$n]=$((WRONG[$n] + 1)) ;; esac
      if solved "$e"; then MISSED[$n]="${MISSED[$n]} $name"; fi
    fi
    row="$row $o |"
  done
  echo "$row" >> "$TMP/table"
  echo "$row" >&2
done

{
  echo "# Problems solved: saturate vs E at $LIMIT processed clauses"
  echo
  echo "$(date -u +%Y-%m-%d), ${#PROBLEMS[@]} problems from \`$DIR\`; E: \`eprover --auto --processed-clauses-limit=$LIMIT --cpu-limit=$ECPU\`;"
  echo "ours: \`saturate prove FILE --max-processed $LIMIT [--config C]\`. CPU is user+sys seconds over all problems."
  echo
  echo "| solver | solved | wrong | CPU s | E solves, this does not |"
  echo "|---|---:|---:|---:|---|"
  echo "| E --auto | $E_SOLVED | $E_WRONG | $E_CPU | |"
  for s in "${STRATS[@]}"; do
    n=${s%%=*}
    echo "| $n (\`${s#*=}\`) | ${SOLVED[$n]} | ${WRONG[$n]} | ${CPU[$n]} |${MISSED[$n]:- (none)} |"
  done
  echo
  cat "$TMP/table"
} > "$OUT"
grep -E '^\| (E --auto|[a-z_0-9-]+ \(`)' "$OUT"
echo "report: $OUT"
bad=0
for s in "${STRATS[@]}"; do [ "${WRONG[${s%%=*}]}" -eq 0 ] || bad=1; done
[ "$bad" -eq 0 ]
