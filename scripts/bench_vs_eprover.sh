#!/usr/bin/env bash
# Side-by-side saturation speed: saturate vs E prover 2.6 on the same axiom
# files and processed-clause limits, in one run (the machines are shared and
# noisy, so only ratios measured together mean anything).
#
# Usage: scripts/bench_vs_eprover.sh [LIMIT...]      (default: 5000 20000)
# Env:   TPTP (default ../shared/tptp), FILES (default: the six sample axiom
#        files SET002-0 GRP001-0 GRP003-0 RNG001-0 BOO001-0 LAT001-0; a name
#        is $TPTP/Axioms/NAME.ax, a path is used as it is),
#        CONFIG (a saturate config file for our side, default: built-in),
#        SATURATE (a binary to use instead of building one),
#        CPU_CAP seconds per run (default 900; a run over it is reported as such).
# Output: a table on stdout and out/bench/bench_vs_eprover.csv. Ratios are
# ours/E of: generated clauses per CPU second; processed (selected given)
# clauses per CPU second; and useful given clauses per CPU second (ours:
# given clauses that became active; E: "remaining for further processing").
# E counts tautologies and subsumed duplicates it picks as processed, which
# saturate removes before they are ever queued, so the last ratio is the
# like-for-like one. mem× is our peak RSS over E's (lower is better; the
# other ratios: higher is better). The last line is the geometric mean of
# each ratio column.
set -euo pipefail
cd "$(dirname "$0")/.."
TPTP=${TPTP:-../shared/tptp}
FILES=${FILES:-"SET002-0 GRP001-0 GRP003-0 RNG001-0 BOO001-0 LAT001-0"}
CONFIG=${CONFIG:-}
CPU_CAP=${CPU_CAP:-900}
LIMITS=("$@")
[ ${#LIMITS[@]} -gt 0 ] || LIMITS=(5000 20000)

command -v eprover >/dev/null || { echo "installing eprover (Debian)"; apt-get update -qq && apt-get install -y -qq eprover >/dev/null; }
if [ -z "${SATURATE:-}" ]; then cargo build --release -q; fi
BIN=${SATURATE:-${CARGO_TARGET_DIR:-target}/release/saturate}
CFG=()
[ -z "$CONFIG" ] || CFG=(--config "$CONFIG")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p out/bench
CSV=${CSV:-out/bench/bench_vs_eprover.csv}
echo "file,limit,ours_status,ours_processed,ours_activated,ours_generated,ours_cpu_s,ours_peak_mib,e_status,e_processed,e_remaining,e_generated,e_cpu_s,e_peak_mib,gen_rate_ratio,proc_rate_ratio,useful_proc_rate_ratio,mem_ratio" > "$CSV"
printf "%-9s %6s | %-11s %7s %6s %9s %7s %6s | %-11s %7s %6s %9s %7s %6s | %6s %6s %6s %6s\n" \
  file limit ours proc activ gen cpu_s MiB E proc remain gen cpu_s MiB gen/s× proc/s× use/s× mem×

for f in $FILES; do
  if [ -f "$f" ]; then ax=$f; f=$(basename "$f" .ax); else ax="$TPTP/Axioms/$f.ax"; fi
  [ -f "$ax" ] || { echo "missing $ax" >&2; exit 2; }
  for n in "${LIMITS[@]}"; do
    # Ours: the full derivation is recorded and written (zstd dump).
    set +e
    ( ulimit -t "$CPU_CAP"; /usr/bin/time -f '%U %S %M' -o "$TMP/ours.time" \
        "$BIN" derive "$ax" "${CFG[@]}" --tptp "$TPTP" --max-processed "$n" --out "$TMP/dag.zst" --stats-json "$TMP/ours.json" -q >/dev/null ) 2>/dev/null
    rc=$?
    ( ulimit -t "$CPU_CAP"; /usr/bin/time -f '%U %S %M' -o "$TMP/e.time" \
        eprover --satauto --processed-clauses-limit="$n" --print-statistics -s "$ax" > "$TMP/e.out" 2>&1 )
    set -e
    read -r ou os om < <(tail -1 "$TMP/ours.time")
    read -r eu es em < <(tail -1 "$TMP/e.time")
    if [ $rc -eq 0 ]; then
      ostat=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["status"], d["processed"], d["counters"]["activated"], d["generated"])' "$TMP/ours.json")
    else
      ostat="CPUcap - - -"
    fi
    read -r ost op oa og <<<"$ostat"
    est=$(grep -oP 'SZS status \K\w+' "$TMP/e.out" || echo "?")
    ep=$(grep -oP '^# Processed clauses\s*:\s*\K\d+' "$TMP/e.out" || echo 0)
    eg=$(grep -oP '^# Generated clauses\s*:\s*\K\d+' "$TMP/e.out" || echo 0)
    er=$(grep -oP '^# \.\.\.remaining for further processing\s*:\s*\K\d+' "$TMP/e.out" || echo 0)
    read -r ocpu ecpu omib emib gr pr ur mr < <(python3 - "$ou" "$os" "$om" "$eu" "$es" "$em" "$op" "$og" "$ep" "$eg" "$oa" "$er" <<'PY'
import sys
ou, os_, om, eu, es, em = map(float, sys.argv[1:7])
op, og, ep, eg, oa, er = sys.argv[7:13]
oc, ec = max(ou + os_, 1e-3), max(eu + es, 1e-3)
def ratio(a, b):
    try:
        return f"{(float(a) / oc) / (float(b) / ec):.2f}"
    except (ValueError, ZeroDivisionError):
        return "-"
print(f"{oc:.2f} {ec:.2f} {om/1024:.0f} {em/1024:.0f} {ratio(og, eg)} {ratio(op, ep)} {ratio(oa, er)} {om / max(em, 1):.2f}")
PY
)
    printf "%-9s %6s | %-11s %7s %6s %9s %7s %6s | %-11s %7s %6s %9s %7s %6s | %6s %6s %6s %6s\n" \
      "$f" "$n" "$ost" "$op" "$oa" "$og" "$ocpu" "$omib" "$est" "$ep" "$er" "$eg" "$ecpu" "$emib" "$gr" "$pr" "$ur" "$mr"
    echo "$f,$n,$ost,$op,$oa,$og,$ocpu,$omib,$est,$ep,$er,$eg,$ecpu,$emib,$gr,$pr,$ur,$mr" >> "$CSV"
  done
done
python3 - "$CSV" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def gmean(col):
    xs = [float(r[col]) for r in rows if r[col] not in ("-", "")]
    return f"{math.exp(sum(map(math.log, xs)) / len(xs)):.2f}" if xs else "-"
cols = ["gen_rate_ratio", "proc_rate_ratio", "useful_proc_rate_ratio", "mem_ratio"]
print("geometric means  gen/s× proc/s× use/s× mem×: " + " ".join(gmean(c) for c in cols))
PY
echo "csv: $CSV"
