#!/bin/sh
# Builds the libFuzzer target for the input path and runs it for SECONDS (default 60).
# Usage: Fuzz/run.sh [SECONDS]   (from anywhere; needs a Swift toolchain with -sanitize=fuzzer)
# New inputs go to .build-fuzz/corpus; Fuzz/corpus (committed seeds) is only read.
set -eu
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build-fuzz"
mkdir -p "$out/corpus"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name OTCPromptFuzz \
    "$root/Fuzz/FuzzInput.swift" "$root"/Sources/OTCPromptCore/*.swift \
    -o "$out/otc-prompt-fuzz"
# libFuzzer reports crashes itself; Swift's backtracer would race AddressSanitizer and linger.
SWIFT_BACKTRACE=enable=no exec "$out/otc-prompt-fuzz" "$out/corpus" "$root/Fuzz/corpus" \
    -dict="$root/Fuzz/input.dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$out/" -print_final_stats=1
