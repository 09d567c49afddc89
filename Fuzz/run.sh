#!/usr/bin/env bash
# Builds the predicate fuzzer and runs it for N inputs (default 100000):
#   bash Fuzz/run.sh 1000000
# The target (Fuzz/PredicateFuzzTarget.swift) is compiled directly from
# Sources/ObjectGraph/Predicates/*.swift with libFuzzer. The working corpus lives in
# .build/fuzz/corpus (never committed); Fuzz/corpus-seed holds a few small seeds.
# A crash, a hang or a round-trip mismatch stops the run and leaves the input in .build/fuzz.
set -euo pipefail
runs="${1:-100000}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/fuzz"
mkdir -p "$out/corpus"
# Compile a snapshot of the sources, so that editing them during the build does no harm.
rm -rf "$out/src" && mkdir -p "$out/src"
cp "$root"/Sources/ObjectGraph/Predicates/*.swift "$root/Sources/ObjectGraph/Support/Lock.swift" \
    "$root/Sources/ObjectGraph/Support/RaisingAsApple.swift" \
    "$root/Fuzz/PredicateFuzzTarget.swift" "$out/src/"
swiftc -O -sanitize=fuzzer -parse-as-library -swift-version 6 -module-name PredicateFuzz -package-name ObjectGraph \
    "$out"/src/*.swift -o "$out/predicate-fuzz"
cd "$out"
start=$(date +%s)
./predicate-fuzz -runs="$runs" -max_len=256 -timeout=10 -rss_limit_mb=4096 \
    -dict="$root/Fuzz/predicate.dict" -artifact_prefix="$out/" -print_final_stats=1 \
    corpus "$root/Fuzz/corpus-seed"
echo "fuzz: $runs inputs in $(( $(date +%s) - start )) s, no crash"
