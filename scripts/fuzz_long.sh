#!/usr/bin/env bash
# The opt-in long fuzzing run (not part of CI): every target of
# tests/fuzz.rs with many more cases and a fresh random seed, known faults
# run too (SATURATE_FUZZ_KNOWN=run: reported, not failing); writes a
# findings report and exits non-zero on any finding that is not a known
# fault.
#
#   scripts/fuzz_long.sh [CASES] [REPORT]
#
# CASES: cases per target (default 20000; the child-process targets draw
# CASES/100 cases each, at least 20, since each case runs a process; for
# the hostile answers that is per config);
# REPORT: the report file (default fuzz-report-<UTC time>.txt).
# SATURATE_FUZZ_SEED=<n> replays a run (the seed is in the report).
set -uo pipefail
cd "$(dirname "$0")/.."
CASES=${1:-20000}
REPORT=${2:-fuzz-report-$(date -u +%Y%m%dT%H%M%SZ).txt}
SEED=${SATURATE_FUZZ_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
SLOW=$(( CASES / 100 > 20 ? CASES / 100 : 20 ))
cargo test --release --test fuzz --no-run -q || exit 2
{
  echo "saturate fuzz_long: $(date -u) seed=$SEED cases=$CASES (child-process targets: $SLOW)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
} > "$REPORT"
status=0
run() { # run <cases> <test names...>
  local n=$1; shift
  for t in "$@"; do
    echo "== $t ($n cases)" >> "$REPORT"
    SATURATE_FUZZ_CASES=$n SATURATE_FUZZ_SEED=$SEED SATURATE_FUZZ_KNOWN=run \
      cargo test --release -q --test fuzz -- --exact "$t" --nocapture --test-threads 1 \
      >> "$REPORT" 2>&1 || status=1
  done
}
run "$CASES" fuzz_tptp_reader fuzz_certificate_checker fuzz_config_reader fuzz_answer_scorers
run "$(( CASES / 10 ))" fuzz_parquet_reader
run "$SLOW" fuzz_hostile_answers fuzz_prove_huge_clauses fuzz_output_siblings
if [ $status -ne 0 ]; then
  echo "FINDINGS: see the failing targets above (minimal inputs after 'minimal input' / 'finding(s)')" >> "$REPORT"
else
  echo "no findings (known faults, if any, are listed per target)" >> "$REPORT"
fi
echo "report: $REPORT" >&2
grep -E "^fuzz |finding|known faults|skipped|^config|^[a-z_0-9]+ +[0-9]+ +[0-9.]+s" "$REPORT" >&2
exit $status
