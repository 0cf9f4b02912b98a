#!/usr/bin/env bash
# On-demand, larger-scale soundness check of saturate against E prover.
#
# Usage: scripts/check_soundness.sh [--samples N] [--max-processed N] [--strict] [FILE.ax ...]
#   Without files: the shared TPTP sample's CNF axiom files and every project
#   axiom file. Other options are passed to scripts/soundness.py (see --help
#   there: --jobs, --cpu-limit, --e-generated, --keep DIR, --no-schedule).
#
# Builds the release binary, installs eprover (Debian) if it is missing, then
# for N sampled derived clauses per file asks E to refute the clause's
# premises plus its Skolemised negation. Prints "checked N, failed M,
# unknown U" and the failing cases; exits non-zero when any case failed.
set -euo pipefail

cd "$(dirname "$0")/.."

die() { echo "check_soundness: $*" >&2; exit 2; }

if ! command -v eprover > /dev/null 2>&1; then
  echo "installing eprover (Debian) ..." >&2
  (apt-get update -qq && apt-get install -y -qq eprover) > /dev/null \
    || die "could not install eprover (run as root, or install it yourself)"
fi
command -v python3 > /dev/null 2>&1 || die "python3 is needed"

opts=()
files=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --samples | --max-processed | --jobs | --cpu-limit | --e-generated | --keep | --tptp)
      [ "$#" -ge 2 ] || die "$1 needs a value"
      opts+=("$1" "$2")
      shift 2
      ;;
    --strict | --no-schedule)
      opts+=("$1")
      shift
      ;;
    -h | --help)
      sed -n '2,13p' "$0"
      exit 0
      ;;
    -*)
      die "unknown option $1"
      ;;
    *)
      [ -f "$1" ] || die "no such file: $1"
      files+=("$1")
      shift
      ;;
  esac
done

if [ "${#files[@]}" -eq 0 ]; then
  tptp=${TPTP:-../shared/tptp}
  if [ -d "$tptp/Axioms" ]; then
    for f in "$tptp"/Axioms/*-*.ax; do
      grep -qE '^[[:space:]]*(fof|tff|thf|tcf)\(' "$f" || files+=("$f")
    done
  else
    echo "note: no TPTP axioms at $tptp/Axioms; checking the project axioms only" >&2
  fi
  for f in axioms/*/*.ax; do
    files+=("$f")
  done
fi
[ "${#files[@]}" -gt 0 ] || die "no axiom files to check"

echo "building the release binary ..." >&2
cargo build --release --quiet || die "cargo build --release failed"
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/saturate"
[ -x "$bin" ] || die "no binary at $bin"

# Defaults for a larger run than the test suite's (15 samples at 300).
has() { local o; for o in "${opts[@]+"${opts[@]}"}"; do [ "$o" = "$1" ] && return 0; done; return 1; }
has --samples || opts+=(--samples 50)
has --max-processed || opts+=(--max-processed 1000)

exec python3 scripts/soundness.py --bin "$bin" "${opts[@]}" "${files[@]}"
