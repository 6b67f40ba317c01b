"""What the Python benchmark scripts (Scripts/bench, bench-capture, bench-counts, bench-images,
bench-large-read, bench-wayland) share: the tools they time, a free X display and a private
Xvfb on it, waiting for a condition, and stopping what they started.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import benchcommon
"""
import os, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tools(bin_dir=None):
    """`bin_dir` if given, else the release tools: builds them (Scripts/build-release) and
    returns their directory."""
    if bin_dir:
        return bin_dir
    build = os.path.join(root, "Scripts/build-release")
    subprocess.run([build], check=True, stdout=subprocess.DEVNULL)
    return subprocess.run([build, "--show-bin-path"], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()


def wait_until(condition, seconds=20, interval=0.05):
    """Polls `condition` every `interval` seconds; whether it held within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return False


def free_display(first, last=900):
    """The first display number from `first` on with neither a socket nor a lock file."""
    return next(n for n in range(first, last)
                if not os.path.exists("/tmp/.X11-unix/X%d" % n) and not os.path.exists("/tmp/.X%d-lock" % n))


def start_xvfb(started, env, screen="640x480x24", noreset=False, seconds=20):
    """Starts Xvfb on env["DISPLAY"], adds it to `started`, and waits until it answers
    (`xdpyinfo`); exits the script when it does not within `seconds`."""
    argv = ["Xvfb", env["DISPLAY"], "-nolisten", "tcp"] + (["-noreset"] if noreset else []) + ["-screen", "0", screen]
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started.append(process)
    if not wait_until(lambda: subprocess.run(["xdpyinfo"], env=env, capture_output=True).returncode == 0, seconds):
        sys.exit("Xvfb %s did not start" % env["DISPLAY"])
    return process


def start(started, argv, env, **kwargs):
    """Starts `argv` with its output thrown away and adds it to `started`."""
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    started.append(process)
    return process


def stop(started, timeout=5):
    """Stops every process in `started`, the last started first; kills what does not end within
    `timeout` seconds."""
    for process in reversed(started):
        if process.poll() is None:
            process.terminate()
    for process in started:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
