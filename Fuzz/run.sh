#!/usr/bin/env bash
# Fuzzes ObjectGraph's readers of outside bytes with libFuzzer (Fuzz/README.md):
#   bash Fuzz/run.sh list                 the readers
#   bash Fuzz/run.sh predicate 1000000    one reader, N inputs (default 100000)
#   bash Fuzz/run.sh all 1000000          every reader in turn
#   FUZZ_SECONDS=1800 bash Fuzz/run.sh model 1000000   stop after 30 minutes if not done by then
# Each reader's target (Fuzz/Targets/<reader>, calling its check in Fuzz/Readers) is built from
# the package's own sources: Package.swift declares the targets when OBJECTGRAPH_FUZZ=1, and
# `swift build -c release -Xswiftc -sanitize=fuzzer` instruments ObjectGraph and GRDB for
# coverage in a scratch folder of its own (.build-fuzz), so a normal build is left alone. The
# first build takes about as long as a release build of ObjectGraph; later ones only relink.
# Seeds: Fuzz/<reader>/seed (committed); the working corpus grows in .build-fuzz/fuzz/corpus/<reader>
# (never committed). libFuzzer's flags for a reader are in Fuzz/<reader>/options (-max_len,
# -dict). A crash, a finding (a wrong error, a round trip that differs), a timeout (-timeout),
# more memory than -rss_limit_mb or one allocation over -malloc_limit_mb stops the run and
# leaves the input in .build-fuzz/fuzz/artifacts/<reader>/.
set -euo pipefail
what="${1:-}"
runs="${2:-100000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
# The list in Package.swift, from `let fuzzedReaders = [` to its `]` (the formatter may wrap it).
readers=$(sed -n '/^let fuzzedReaders = \[/,/\]/p' "$root/Package.swift" | grep -o '"[a-z]*"' | tr -d '"' | tr '\n' ' ')
if [ -z "$what" ] || [ "$what" = list ]; then
    echo "readers: $readers"
    echo "usage: bash Fuzz/run.sh <reader|all> [inputs]"
    exit 0
fi
if [ "$what" = all ]; then selected="$readers"; else
    case " $readers " in *" $what "*) selected="$what" ;; *) echo "no reader named $what; readers: $readers" >&2; exit 2 ;; esac
fi
out="$root/.build-fuzz"
# Corpora, artifacts, logs and scratch folders under fuzz/: SwiftPM owns the rest of .build-fuzz
# (its artifacts/ folder is SwiftPM's own).
work="$out/fuzz"
# The checks write their input to a scratch folder in TMPDIR (one per process), and the store
# and mapping readers save what they read, with fsync. On a tmpfs (/dev/shm) fsync costs
# nothing: binarystore ran 1,389 inputs/s there against 302 on disk, on the same machine.
scratch="$work/tmp"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    scratch="/dev/shm/objectgraph-fuzz-$$"
    trap 'rm -rf "$scratch"' EXIT
fi
for reader in $selected; do
    echo "== building fuzz-$reader"
    # A failed build must stop the run: the binary of an earlier build would still be there,
    # and fuzzing it would test old code (the grep only hides the progress lines).
    status=0
    (cd "$root" && OBJECTGRAPH_FUZZ=1 swift build -c release --scratch-path "$out" --product "fuzz-$reader" \
        -Xswiftc -sanitize=fuzzer 2>&1) | { grep -v "^\[" || true; } || status=$?
    if [ "$status" -ne 0 ] || [ ! -x "$out/release/fuzz-$reader" ]; then
        echo "fuzz-$reader did not build (the sources changed during the build, or an error above)" >&2
        exit 1
    fi
done
for reader in $selected; do
    mkdir -p "$work/corpus/$reader" "$work/artifacts/$reader" "$scratch"
    echo "== fuzzing $reader: $runs inputs"
    start=$(date +%s)
    # SWIFT_BACKTRACE=enable=no: Swift's backtracer would take the crash signal before
    # libFuzzer's handler, which saves the input.
    (cd "$root/Fuzz/$reader" && TMPDIR="$scratch" SWIFT_BACKTRACE=enable=no "$out/release/fuzz-$reader" -runs="$runs" -max_total_time="${FUZZ_SECONDS:-0}" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=512 $(cat options) -artifact_prefix="$work/artifacts/$reader/" \
        -print_final_stats=1 "$work/corpus/$reader" seed 2>&1) | tee "$work/$reader.log" | grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" || true
    seconds=$(( $(date +%s) - start ))
    rm -rf "$scratch/objectgraph-fuzz-$reader-"*
    done_runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/$reader.log")
    if [ -z "$done_runs" ]; then
        echo "fuzz $reader: STOPPED after $seconds s; the input is in $work/artifacts/$reader/" | tee -a "$work/results.txt"
        exit 1
    fi
    echo "fuzz $reader: $done_runs inputs in $seconds s ($(( done_runs / (seconds > 0 ? seconds : 1) )) inputs/s), no crash" | tee -a "$work/results.txt"
done
