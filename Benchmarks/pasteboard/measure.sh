#!/bin/sh
# Measures the pasteboard's change-event latency between two nbridge processes and the CPU
# time of an idle watcher over 10 s, on the shared store and on X11 (a private Xvfb).
# Usage: Benchmarks/pasteboard/measure.sh [path/to/nbridge]   (default: .build/release/nbridge)
set -eu
NBRIDGE=$(realpath "${1:-.build/release/nbridge}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
XVFB_PID=
cleanup() {
  [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
unset WAYLAND_DISPLAY NBRIDGE_PASTEBOARD_BACKEND
export NBRIDGE_SHARED_DIR="$WORK/shared"

wait_ready() { # file
  i=0
  until grep -q ready "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -gt 500 ] && { echo "watcher never got ready: $(cat "$1")" >&2; exit 1; }
    sleep 0.02
  done
}

latency() { # label [name]
  NBRIDGE_DATA_DIR="$WORK/w" "$NBRIDGE" run --timeout 60 "$HERE/latency-watcher.js" -- 50 ${2:-} >"$WORK/watch.out" 2>&1 &
  watcher=$!
  wait_ready "$WORK/watch.out"
  NBRIDGE_DATA_DIR="$WORK/r" "$NBRIDGE" run "$HERE/latency-writer.js" -- 50 ${2:-}
  wait "$watcher"
  echo "$1 latency, setString in one process -> change event in another: $(grep events "$WORK/watch.out")"
}

idle_cpu() { # label [name]
  NBRIDGE_DATA_DIR="$WORK/i" "$NBRIDGE" run "$HERE/idle-watcher.js" ${2:+-- $2} >"$WORK/idle.out" 2>&1 &
  pid=$!
  wait_ready "$WORK/idle.out"
  t0=$(awk '{print $14 + $15}' "/proc/$pid/stat"); n0=$(cut -d' ' -f1 "/proc/$pid/schedstat")
  sleep 10
  t1=$(awk '{print $14 + $15}' "/proc/$pid/stat"); n1=$(cut -d' ' -f1 "/proc/$pid/schedstat")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$1 idle watcher over 10 s: utime+stime $((t1 - t0)) ticks of $(getconf CLK_TCK)/s, on-CPU $(((n1 - n0) / 1000)) µs (schedstat)"
}

(unset DISPLAY; latency "shared store (general)")
(unset DISPLAY; latency "shared store (named)" bench)
(unset DISPLAY; idle_cpu "shared store")

DISPLAY=:$(( 300 + $$ % 300 ))
Xvfb "$DISPLAY" -screen 0 640x480x24 -nolisten tcp >/dev/null 2>&1 &
XVFB_PID=$!
i=0; until [ -S "/tmp/.X11-unix/X${DISPLAY#:}" ]; do i=$((i + 1)); [ $i -gt 250 ] && exit 1; sleep 0.02; done
export DISPLAY
latency "X11 CLIPBOARD"
idle_cpu "X11 CLIPBOARD"
