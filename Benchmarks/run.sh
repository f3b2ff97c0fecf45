#!/usr/bin/env bash
# `make bench`: every figure in one run, side by side with its anchor, on a
# private PulseAudio daemon with a null sink (its own runtime directory and socket, stopped at the
# end, so other processes keep seeing no audio server). Release builds only.
# Usage: Benchmarks/run.sh [REPETITIONS]   (whole-process runs per figure, default 15; ~8 minutes)
# OTC_BENCH_PARTS selects parts (comma-separated; default all): ready, keys, listen, memory
# (whole_process.py), footprint (footprint.py: size, --version, the floor, peak RSS; the footprint and start-up targets),
# inprocess (package-benchmark and speech-benchmark), speechd (speechd.py), esc (esc_exit.py: Esc and
# Ctrl-C -> exit, a command typed after Esc, keys that never cancel), agent (agent.py: the password agent beside
# systemd-tty-ask-password-agent; as root), openings (openings.py: each opening's first sentence in seconds of audio,
# beside the whole opening; its agent rows as root), braille (braille.py: key -> cells written to BrlAPI and shown by
# a real brltty, start-up with braille off), polkit (polkit.py: the polkit agent beside pkttyagent, pkexec answered
# in a private polkit; as root).
set -euo pipefail
cd "$(dirname "$0")"
repetitions=${1:-15}
root=$(cd .. && pwd)
parts=${OTC_BENCH_PARTS:-ready,keys,listen,memory,footprint,inprocess,speechd,esc,agent,openings,braille,polkit}
export OTC_BENCH_PARTS=$parts
has() { [[ ",$parts," == *",$1,"* ]]; }

echo "== building (release)"
(cd "$root" && swift build -c release --product otc-prompt >/dev/null)
# Its objects lack make release's -function-sections: the next make release compiles again (Makefile).
rm -f "$root/.build/release-flags"
# The binary make install ships: the same sources, linked with make release's flags (the Swift runtime
# statically), in a scratch path of its own so that both builds stay up to date.
if has ready || has keys || has memory || has footprint || has agent || has braille || has polkit; then
    # make release first: it makes the link order that the flags name, profiled from the same sources.
    (cd "$root" && make -s release >/dev/null &&
        swift build -c release --product otc-prompt $(make -s release-flags) --scratch-path .build-static >/dev/null)
fi
if has inprocess || has openings; then swift build -c release >/dev/null; fi
prompt="$root/.build/release/otc-prompt"
export OTC_BENCH_STATIC="$root/.build-static/release/otc-prompt"
bin=$(swift build -c release --show-bin-path)

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); espeak-ng: $(espeak-ng --version | head -1)"
echo "swift: $(swift --version 2>&1 | head -1)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(git -C "$root" rev-parse --short HEAD)"

runtime=$(mktemp -d /tmp/otc-bench-pulse-XXXXXX)
export PULSE_RUNTIME_PATH=$runtime PULSE_SERVER=unix:$runtime/native
stop_pulse() { HOME=$runtime pulseaudio -k 2>/dev/null || true; rm -rf "$runtime"; }
trap stop_pulse EXIT
HOME=$runtime pulseaudio --daemonize=yes --exit-idle-time=-1 -n --use-pid-file=yes \
    --load="module-null-sink sink_name=otc" --load="module-native-protocol-unix socket=$runtime/native" \
    >/dev/null 2>&1
# The socket exists a moment before the daemon answers: a prompt started then finds no audio device.
for _ in $(seq 50); do [ -S "$runtime/native" ] && pactl info >/dev/null 2>&1 && break; sleep 0.1; done

if has ready; then
echo
echo "== process start-up floor (hyperfine; no terminal, no speech)"
hyperfine -N --style basic -w 3 -r 30 "$prompt --version" "$OTC_BENCH_STATIC --version" "espeak-ng -q x" 2>&1 |
    grep -E "^(Benchmark|  Time)"
fi

if has footprint; then
echo
echo "== footprint: size, --version and the first byte against the floor, peak RSS (Benchmarks/footprint.py)"
floor=$(mktemp -d /tmp/otc-bench-floor-XXXXXX)
gcc -static -O2 -o "$floor/tty-floor" tty_floor.c
python3 footprint.py "$OTC_BENCH_STATIC" "$repetitions" "$floor/tty-floor"
rm -rf "$floor"
fi

if has ready || has keys || has listen || has memory; then
echo
echo "== config file: --stdin with a 1 KiB and a 65 000-byte file (reading is linear: reading is linear)"
configs=$(mktemp -d /tmp/otc-bench-config-XXXXXX)
printf '123456\n' >"$configs/code"
python3 - "$configs" <<'PY'
import sys
root = sys.argv[1]
def write(name, size, line):
    text = 'rate = 300\n'
    while len(text) + len(line) <= size:
        text += line
    open(f"{root}/{name}", "w").write(text)
write("small", 1024, "# a comment line that pads the file\n")
write("comments", 65000, "# a comment line that pads the file\n")
keys = "rate = 300\n" + "".join(f"unknown{i} = 1\n" for i in range(5000))
open(f"{root}/unknown-keys", "w").write(keys[: keys.rindex("\n", 0, 65000) + 1])
PY
hyperfine --style basic -w 3 -r 20 \
    "OTC_PROMPT_CONFIG=$configs/small $OTC_BENCH_STATIC --stdin <$configs/code" \
    "OTC_PROMPT_CONFIG=$configs/comments $OTC_BENCH_STATIC --stdin <$configs/code" \
    "OTC_PROMPT_CONFIG=$configs/unknown-keys $OTC_BENCH_STATIC --stdin <$configs/code 2>/dev/null" 2>&1 |
    grep -E "^(Benchmark|  Time)"
rm -rf "$configs"

echo
echo "== whole process, on pseudo-terminals (Benchmarks/whole_process.py)"
python3 whole_process.py "$prompt" "$repetitions"
fi

if has esc; then
echo
echo "== Esc -> exit here and over a link beside Ctrl-C, and what the shell reads after Esc (Benchmarks/esc_exit.py)"
python3 esc_exit.py "$prompt" "$repetitions"
fi

if has inprocess; then
echo
echo "== in process: key -> first sample, key -> stopped (package-benchmark, null sink)"
swift package benchmark --target SpeechLatency --no-progress --format text 2>&1 |
    grep -v -E '^(Build|Building|\[[0-9]+/[0-9]+\]|Compiling|Write|Planning)' || true
echo
echo "== in process: the same without a device (engine + writer thread alone)"
env -u PULSE_SERVER swift package benchmark --target SpeechLatency --no-progress --format text 2>&1 |
    grep -v -E '^(Build|Building|\[[0-9]+/[0-9]+\]|Compiling|Write|Planning)' || true

echo
echo "== in process: burst, final readback, readback length (speech-benchmark --device)"
"$bin/speech-benchmark" --device --repetitions 50 | grep -v -E '^key ->'
echo "anchor: espeak_Cancel in AUDIO_OUTPUT_PLAYBACK while speaking (ms, one per line):"
"$bin/espeak-cancel-anchor" 3
fi

if has speechd; then
echo
echo "== through speech-dispatcher, beside spd-say and the direct backend (Benchmarks/speechd.py)"
python3 speechd.py "$prompt" "$repetitions"
fi

if has agent; then
echo
echo "== the password agent beside systemd's, in a private mount namespace (Benchmarks/agent.py; as root)"
python3 agent.py "$OTC_BENCH_STATIC" "$(( repetitions > 20 ? repetitions : 20 ))"
fi

if has openings; then
echo
echo "== the openings' first sentence, in seconds of audio at the default rate (Benchmarks/openings.py)"
python3 openings.py "$prompt" "$bin/speech-benchmark"
echo
echo "== each caller's opening as espeak-ng's own CLI says it, en and de (Benchmarks/openings_espeak.py)"
python3 openings_espeak.py "$prompt"
fi

if has braille; then
echo
echo "== braille: key -> cells written to BrlAPI and shown by brltty, start-up with braille off (Benchmarks/braille.py)"
python3 braille.py "$OTC_BENCH_STATIC" "$repetitions"
fi

if has polkit; then
echo
echo "== the polkit agent beside pkttyagent, pkexec in a private polkit (Benchmarks/polkit.py; as root)"
python3 polkit.py "$OTC_BENCH_STATIC" "$repetitions"
fi
