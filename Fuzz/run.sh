#!/bin/sh
# Builds the libFuzzer targets and runs each for SECONDS (default 60): the input path (keys), the
# configuration file reader (config), and the requests other programs hand the prompt (requests: an ask file
# and the CRYPTTAB_* environment of --cryptsetup).
# Usage: Fuzz/run.sh [SECONDS] [input|config|requests|all]   (from anywhere; needs a Swift toolchain with -sanitize=fuzzer)
# New inputs go to .build-fuzz/NAME-corpus; Fuzz/corpus, Fuzz/config-corpus and Fuzz/request-corpus
# (committed seeds) are only read.
set -eu
seconds="${1:-60}"
target="${2:-all}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build-fuzz"
mkdir -p "$out"
# libFuzzer reports crashes itself; Swift's backtracer would race AddressSanitizer and linger.
export SWIFT_BACKTRACE=enable=no
fuzz() { # NAME SEEDS DICTIONARY('' for none) SOURCES...
    name="$1"; seeds="$2"; dictionary="$3"; shift 3
    mkdir -p "$out/$name-corpus"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name OTCPromptFuzz "$@" -o "$out/$name-fuzz"
    "$out/$name-fuzz" "$out/$name-corpus" "$seeds" ${dictionary:+-dict="$dictionary"} \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="$out/$name-" -print_final_stats=1
}
if [ "$target" = input ] || [ "$target" = all ]; then
    fuzz input "$root/Fuzz/corpus" "$root/Fuzz/input.dict" \
        "$root/Fuzz/FuzzInput.swift" $(find "$root/Sources/OTCPromptCore" -name "*.swift" | sort)
fi
if [ "$target" = config ] || [ "$target" = all ]; then
    fuzz config "$root/Fuzz/config-corpus" "" "$root/Fuzz/ConfigFuzz.swift" \
        "$root"/Sources/OTCPromptSettings/ConfigFile/ConfigReader*.swift
fi
if [ "$target" = requests ] || [ "$target" = all ]; then
    fuzz requests "$root/Fuzz/request-corpus" "" \
        "$root/Fuzz/RequestFuzz.swift" $(find "$root/Sources/OTCPromptCore" -name "*.swift" | sort)
fi
