# What the shell benchmark scripts (Scripts/bench-cli, bench-daemon, bench-history,
# bench-memory, bench-soak) share, sourced from the repository's root:
#
#   . Scripts/lib/bench-common.sh
#   bench_tools "${2:-}"                   # sets bin: BIN_DIR, or the release tools, built
#   display=$(bench_free_display 400)      # a display number nobody uses, from 400 up
#   bench_start_xvfb "$display"            # sets xvfb to its pid; returns once it answers

# Sets `bin` to $1 when given, else builds the release tools (Scripts/build-release) and sets
# it to their directory.
bench_tools() {
  if [ -n "${1:-}" ]; then
    bin=$1
  else
    Scripts/build-release >/dev/null
    bin=$(Scripts/build-release --show-bin-path)
  fi
}

# Prints ":N", the first display number from $1 on with neither a socket nor a lock file.
bench_free_display() {
  local number=$1
  while [ -e "/tmp/.X11-unix/X$number" ] || [ -e "/tmp/.X$number-lock" ]; do number=$((number + 1)); done
  echo ":$number"
}

# Starts Xvfb on display $1 (screen $2, default 640x480x24), sets `xvfb` to its pid, and waits
# (5 s at most) until it answers.
bench_start_xvfb() {
  Xvfb "$1" -screen 0 "${2:-640x480x24}" -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  for _ in $(seq 100); do DISPLAY=$1 xdpyinfo >/dev/null 2>&1 && break; sleep 0.05; done
}
