#!/usr/bin/env bash
# Clause counts of saturate's clausifier against E's clause normal form
# (`eprover --cnf --no-preprocessing`) on every FOF file of a TPTP root
# (default ../shared/tptp-fof): Axioms/*+*.ax and Problems/*/*+*.p.
# Prints one row per file and the totals. Needs eprover on PATH and a
# release build (cargo build --release).
set -euo pipefail
root=${1:-../shared/tptp-fof}
bin=${SATURATE:-target/release/saturate}
export TPTP=$root
printf '%-28s %8s %8s %8s\n' file saturate eprover ratio
tot_s=0
tot_e=0
for f in "$root"/Axioms/*+*.ax "$root"/Problems/*/*+*.p; do
  [ -f "$f" ] || continue
  # With no given clause processed, every cnf line of the derivation is an
  # input clause (the fof lines before them are the clausification steps).
  s=$("$bin" derive -q --max-processed 0 --tptp "$root" "$f" | grep -c '^cnf(' || true)
  e=$(timeout 60 eprover --cnf --no-preprocessing --tptp-in -s "$f" 2>/dev/null | grep -c '^cnf(' || true)
  tot_s=$((tot_s + s))
  tot_e=$((tot_e + e))
  printf '%-28s %8d %8d %8s\n' "$(basename "$f")" "$s" "$e" "$(awk -v a="$s" -v b="$e" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "-" }')"
done
printf '%-28s %8d %8d %8s\n' TOTAL "$tot_s" "$tot_e" "$(awk -v a="$tot_s" -v b="$tot_e" 'BEGIN{ if (b>0) printf "%.2f", a/b; else print "-" }')"
