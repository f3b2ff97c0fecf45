#!/usr/bin/env bash
# Runs the speech benchmarks: engine only, then through a private PulseAudio null sink
# (its own runtime directory and socket, so other processes keep seeing no audio server),
# with espeak_Cancel in PLAYBACK mode as the anchor. Usage: Benchmarks/run.sh [REPETITIONS]
set -euo pipefail
cd "$(dirname "$0")"
repetitions=${1:-200}
swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "espeak-ng: $(espeak-ng --version | head -1)"
"$bin/speech-benchmark" --repetitions "$repetitions"

runtime=$(mktemp -d /tmp/otc-bench-pulse-XXXXXX)
export PULSE_RUNTIME_PATH=$runtime PULSE_SERVER=unix:$runtime/native
stop_pulse() { HOME=$runtime pulseaudio -k 2>/dev/null || true; rm -rf "$runtime"; }
trap stop_pulse EXIT
HOME=$runtime pulseaudio --daemonize=yes --exit-idle-time=-1 -n --use-pid-file=yes \
    --load="module-null-sink sink_name=otc" --load="module-native-protocol-unix socket=$runtime/native" \
    >/dev/null 2>&1
for _ in $(seq 50); do [ -S "$runtime/native" ] && break; sleep 0.1; done
"$bin/speech-benchmark" --device --repetitions "$repetitions"
echo "anchor: espeak_Cancel in AUDIO_OUTPUT_PLAYBACK while speaking (ms, one per line):"
"$bin/espeak-cancel-anchor" 5
