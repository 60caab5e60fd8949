#!/usr/bin/env python3
"""The soak on the real path: `vitrine run` in the qemu guest for N minutes under everything a
kiosk meets, with its memory and descriptors sampled and judged flat.

    python3 Tests/EndToEnd/soak.py --minutes 10 [--seed S] [--sample-every 10]

What it does, in one guest (kiosk.py's: virtio-gpu 1280x800, TCG, the six sample photos in
/photos, the other sample photos in /spare):

- vitrine runs under a stand-in notify socket (guest/notify-listen.c) with WATCHDOG_USEC=2000000,
  so it pings WATCHDOG=1 about every second, and CACHE_DIRECTORY set (the thumbnails on disk are
  written and read too); `cache.megabytes = 32`, so the photo cache is full after the warm-up and
  keeps evicting: what is decoded later replaces, it does not add.
- every 0.3-1.2 s a random gesture from the uinput touchscreen (guest/touch-inject.c): a tap, a
  double tap, a drag, a fast horizontal swipe or a two-finger pinch, at random places;
- every 2-5 s a photo added (copied under a dot name, then renamed into /photos), replaced (another
  photo renamed over an added one) or removed;
- every 25-50 s the display unplugged (the connector forced off through sysfs, then a "change"
  uevent on the card) and plugged in again 2-6 s later;
- every 15-35 s a SIGHUP with the config file rewritten (grid.columns 3 or 4 in turn: a new viewer);
- every `--sample-every` s (10) vitrine's VmRSS (/proc/PID/status) and open descriptors
  (/proc/PID/fd).

The random choices come from one seed, printed first; `--seed` replays a run's schedule (the
guest's timing is not replayed).

Verdict (any failure: exit status 1, with what failed):
- vitrine is alive at the end and exits 0 within 5 s of SIGTERM; its log has no "[error]" and no
  crash;
- no gap between two WATCHDOG=1 pings reaches WATCHDOG_USEC (2 s: where systemd would kill it);
- memory flat: the samples after the warm-up (the first sixth of the run, at least 20 s) are cut
  into thirds; of the memory it allocated (RssAnon: not the pages of its code), the last
  third's median and its smallest are each at most RSS_BOUND_MB (8 MB:
  two full-screen 1280x800 photos) above the first third's (a leak raises every sample; the
  largest are reported but not judged: a sample may catch a decode's buffers, ~53 MB for a moment
  for the 13 MP progressive sample photo);
- descriptors flat: the last third's fewest within +-2 of the most common count after the
  warm-up (a leaked one never closes), and no sample more than 8 above it (a rescan, a reload and
  two decode workers may each hold a file open for a moment);
- every unplug, plug, reload and gesture was seen: vitrine logged each disconnect, reconnect and
  "configuration reloaded", the injector sent every gesture, and the last rescan shows as many
  photos as /photos holds.

A table of the samples, the counts and the verdict are printed at the end. `test_kiosk_soak.py`
runs the same for one minute as part of the end-to-end suite.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kiosk  # noqa: E402
import vm  # noqa: E402

WIDTH, HEIGHT = kiosk.WIDTH, kiosk.HEIGHT
WATCHDOG_USEC = 2_000_000
RSS_BOUND_MB = 8.0
# Shorter runs end while the cache is still filling: their trend is reported, not judged; their
# median allocated memory (RssAnon) must stay within the cache plus this (decodes under way, the
# renderer's frames: 4 MB each at 1280x800).
TREND_MINUTES = 5
OVERHEAD_MB = 24.0
FD_TOLERANCE = 2
FD_BURST = 8
CACHE_MEGABYTES = 32
CONNECTOR = "/sys/class/drm/card0-Virtual-1"
CONFIG_PATH = "/etc/soak.toml"
# The sample photos not in /photos at the start: the pool photos are added from.
SPARE = [name for name in sorted(p.name for p in kiosk.SAMPLES.glob("*.jpg")) if name not in kiosk.PHOTOS]


def guest_files() -> dict[str, Path]:
    """The spare photos, for KioskTestCase's files (it puts the six sample photos in /photos)."""
    return {f"/spare/{name}": kiosk.SAMPLES / name for name in SPARE}


def soak_config(columns: int) -> str:
    return kiosk.config(grid={"columns": columns}, cache={"megabytes": CACHE_MEGABYTES})


@dataclass
class Sample:
    seconds: float   # since vitrine's first frame
    rss_kb: int        # VmRSS: everything resident, the pages of the binary and its libraries included
    fds: int
    threads: int
    anon_kb: int = 0   # RssAnon: what the process allocated (the cache, decodes under way, frames)


@dataclass
class SoakResult:
    minutes: float
    seed: int
    samples: list[Sample] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stop_seconds: float = 0.0
    vitrine_log: str = ""

    @property
    def max_gap(self) -> float:
        return max((b - a for a, b in zip(self.pings, self.pings[1:])), default=float("inf"))

    def report(self) -> str:
        lines = [f"soak: {self.minutes:g} min, seed {self.seed}", "",
                 "     t (s)   VmRSS (MB)   of it allocated (MB)   fds   threads"]
        for sample in self.samples:
            lines.append(f"  {sample.seconds:8.1f}   {sample.rss_kb / 1024:10.1f}   {sample.anon_kb / 1024:20.1f}   "
                         f"{sample.fds:3d}   {sample.threads:7d}")
        lines.append("")
        lines.append("counts: " + ", ".join(f"{name} {value}" for name, value in self.counts.items()))
        if self.samples:
            rss = [sample.rss_kb / 1024 for sample in self.samples]
            fds = [sample.fds for sample in self.samples]
            lines.append(f"RSS {min(rss):.1f}-{max(rss):.1f} MB, fds {min(fds)}-{max(fds)}")
        if len(self.pings) > 1:
            lines.append(f"watchdog: {len(self.pings)} pings, largest gap {self.max_gap:.2f} s "
                         f"(limit {WATCHDOG_USEC / 1e6:g} s)")
        lines.extend(self.notes)
        lines.append(f"SIGTERM to exit: {self.stop_seconds:.2f} s")
        if self.problems:
            lines.append("verdict: FAIL")
            lines.extend(f"  - {problem}" for problem in self.problems)
        else:
            lines.append("verdict: PASS")
        return "\n".join(lines)


class Soak:
    """One soak in a booted guest (kiosk.KioskTestCase's machine, with guest_files())."""

    def __init__(self, machine: vm.VM, minutes: float, seed: int | None = None,
                 sample_every: float = 10, say=lambda text: print(text, file=sys.stderr, flush=True)) -> None:
        self.machine = machine
        self.minutes = minutes
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 32)
        self.random = random.Random(self.seed)
        self.sample_every = sample_every
        self.say = say
        self.result = SoakResult(minutes=minutes, seed=self.seed)
        self.counts = self.result.counts
        for name in ("taps", "double taps", "drags", "swipes", "pinches", "photos added",
                     "photos replaced", "photos removed", "unplugs", "reloads", "samples"):
            self.counts[name] = 0
        self.commands = 0          # touch-inject commands sent
        self.added: list[str] = []  # photos the soak put in /photos
        self.serial = 0
        self.columns = 4
        self.unplugged_until: float | None = None

    # -- the guest ------------------------------------------------------------------------------

    def run_guest(self, command: str, timeout: float = 30) -> str:
        return self.machine.check(command, timeout=timeout)

    def kill_all(self) -> None:
        for name in ("touch", "vitrine", "notify"):
            self.machine.kill(name)
        self.machine.run(f"echo detect > {CONNECTOR}/status; echo change > /sys/class/drm/card0/uevent")

    def start(self) -> None:
        machine = self.machine
        self.run_guest("rm -rf /tmp/vitrine-cache /photos/soak-* /photos/.incoming && mkdir -p /tmp/vitrine-cache")
        machine.write_file(CONFIG_PATH, soak_config(self.columns).encode())
        machine.spawn("notify", "/bin/notify-listen /run/notify.sock")
        machine.wait_for_log("notify", "listening on /run/notify.sock")
        machine.spawn("vitrine", f"env NOTIFY_SOCKET=/run/notify.sock WATCHDOG_USEC={WATCHDOG_USEC} "
                                 f"CACHE_DIRECTORY=/tmp/vitrine-cache /bin/vitrine run --config {CONFIG_PATH}")
        machine.wait_for_log("vitrine", "first frame on screen", timeout=30)
        self.pid = self.run_guest("cat /tmp/bg/vitrine.pid").strip()
        self.run_guest("rm -f /tmp/touch.fifo && mkfifo /tmp/touch.fifo")
        machine.spawn("touch", f"/bin/touch-inject /tmp/touch.fifo {WIDTH} {HEIGHT}")
        node = kiosk.touch_device(machine)
        machine.wait_for_log("vitrine", f"touch: {node} ", timeout=10)

    def touch(self, *commands: str) -> None:
        self.commands += len(commands)
        words = " ".join(shlex.quote(command) for command in commands)
        self.run_guest(f"printf '%s\\n' {words} > /tmp/touch.fifo")

    # -- what happens -------------------------------------------------------------------------

    def gesture(self) -> float:
        """Sends one random gesture; returns how long it takes the injector, in seconds."""
        r = self.random
        kind = r.choices(["tap", "double tap", "drag", "swipe", "pinch"], [30, 8, 25, 22, 15])[0]
        x, y = r.randrange(20, WIDTH - 20), r.randrange(20, HEIGHT - 20)
        if kind == "tap":
            self.touch(f"tap {x} {y}")
            self.counts["taps"] += 1
            return 0.05
        if kind == "double tap":
            self.touch(f"tap {x} {y}", "sleep 80", f"tap {x + r.randrange(-4, 5)} {y + r.randrange(-4, 5)}")
            self.counts["double taps"] += 1
            return 0.2
        if kind == "drag":
            ms = r.randrange(150, 700)
            self.touch(f"drag {x} {y} {r.randrange(0, WIDTH)} {r.randrange(0, HEIGHT)} {ms}")
            self.counts["drags"] += 1
            return ms / 1000
        if kind == "swipe":
            ms = r.randrange(80, 250)
            left, right = r.randrange(100, 400), r.randrange(WIDTH - 400, WIDTH - 100)
            start, end = (right, left) if r.random() < 0.6 else (left, right)
            self.touch(f"drag {start} {y} {end} {y + r.randrange(-30, 31)} {ms}")
            self.counts["swipes"] += 1
            return ms / 1000
        ms = r.randrange(200, 600)
        r0, r1 = r.randrange(30, 300), r.randrange(30, 300)
        self.touch(f"pinch {r.randrange(350, WIDTH - 350)} {r.randrange(150, HEIGHT - 150)} {r0} {r1} {ms}")
        self.counts["pinches"] += 1
        return ms / 1000

    def photo_change(self) -> None:
        r = self.random
        action = "add" if not self.added else r.choices(["add", "replace", "remove"],
                                                        [max(1, 10 - len(self.added)), 3, len(self.added)])[0]
        if action == "remove":
            name = self.added.pop(r.randrange(len(self.added)))
            self.run_guest(f"rm /photos/{name}")
            self.counts["photos removed"] += 1
            return
        spare = r.choice(SPARE)
        if action == "replace":
            name = r.choice(self.added)
            self.counts["photos replaced"] += 1
        else:
            self.serial += 1
            name = f"soak-{self.serial:04d}-{spare}"
            self.added.append(name)
            self.counts["photos added"] += 1
        self.run_guest(f"cp /spare/{spare} /photos/.incoming && mv /photos/.incoming /photos/{name}")

    def unplug(self) -> None:
        self.run_guest(f"echo off > {CONNECTOR}/status && echo change > /sys/class/drm/card0/uevent")
        self.counts["unplugs"] += 1

    def plug(self) -> None:
        self.run_guest(f"echo detect > {CONNECTOR}/status && echo change > /sys/class/drm/card0/uevent")

    def reload(self) -> None:
        self.columns = 3 if self.columns == 4 else 4
        self.machine.write_file(CONFIG_PATH, soak_config(self.columns).encode())
        self.run_guest(f"kill -HUP {self.pid}")
        self.counts["reloads"] += 1

    def sample(self, since: float) -> None:
        # A descriptor closed while ls lists the folder makes ls complain on stderr: only the count counts.
        output = self.run_guest(f"grep -E '^(VmRSS|RssAnon|Threads):' /proc/{self.pid}/status; ls /proc/{self.pid}/fd 2>/dev/null | wc -l")
        fields = {}
        lines = output.split("\n")
        for line in lines[:-1]:
            key, _, value = line.partition(":")
            fields[key] = int(value.split()[0])
        sample = Sample(time.monotonic() - since, fields["VmRSS"], int(lines[-1].strip()), fields["Threads"],
                        anon_kb=fields["RssAnon"])
        self.result.samples.append(sample)
        self.counts["samples"] += 1
        self.say(f"[soak] {sample.seconds:6.1f} s: RSS {sample.rss_kb / 1024:.1f} MB, {sample.fds} fds, "
                 f"{sample.threads} threads; " + ", ".join(f"{k} {v}" for k, v in self.counts.items() if v))

    # -- the run ------------------------------------------------------------------------------

    def run(self) -> SoakResult:
        self.say(f"[soak] seed {self.seed}, {self.minutes:g} min")
        try:
            self.start()
            self.drive()
            self.finish()
        except vm.VMError as error:
            self.result.problems.append(f"the harness failed: {error}")
        finally:
            self.kill_all()
        return self.result

    def drive(self) -> None:
        r = self.random
        started = time.monotonic()
        end = started + self.minutes * 60
        due = {"gesture": started + 1, "photo": started + r.uniform(2, 5), "unplug": started + r.uniform(25, 50),
               "reload": started + r.uniform(15, 35), "sample": started}
        while True:
            what, when = min(due.items(), key=lambda item: item[1])
            if when > end:  # the last sample is at the end
                break
            time.sleep(max(0.0, when - time.monotonic()))
            if what == "sample":
                self.sample(started)
                due["sample"] = when + self.sample_every
            elif what == "gesture":
                busy = self.gesture()
                due["gesture"] = time.monotonic() + busy + r.uniform(0.3, 1.2)
            elif what == "photo":
                self.photo_change()
                due["photo"] = time.monotonic() + r.uniform(2, 5)
            elif what == "unplug":
                if self.unplugged_until is None:
                    self.unplug()
                    self.unplugged_until = r.uniform(2, 6)
                    due["unplug"] = time.monotonic() + self.unplugged_until
                else:
                    self.plug()
                    self.unplugged_until = None
                    due["unplug"] = time.monotonic() + r.uniform(25, 50)
            elif what == "reload":
                self.reload()
                due["reload"] = time.monotonic() + r.uniform(15, 35)
        if self.unplugged_until is not None:
            self.plug()
            self.unplugged_until = None

    def finish(self) -> None:
        machine, result = self.machine, self.result
        problems = result.problems
        # The injector has sent everything; vitrine is done with the last changes.
        try:
            machine.wait_for_log("touch", f"ok {self.commands} ", timeout=20)
        except vm.VMError:
            problems.append(f"the injector did not send all {self.commands} commands")
        time.sleep(3)
        alive = machine.run(f"kill -0 {self.pid} && test ! -e /tmp/bg/vitrine.rc").code == 0
        if not alive:
            code = machine.run("cat /tmp/bg/vitrine.rc").output.strip()
            problems.append(f"vitrine is not running at the end (exit status {code or '?'})")
        photos = int(self.run_guest("ls /photos | grep -ci '\\.jpe\\?g$' || true").strip() or 0)

        # SIGTERM: exit 0, promptly.
        if alive:
            script = (f"start=$(cut -d' ' -f1 /proc/uptime); kill -TERM {self.pid}; n=0; "
                      f"while [ ! -e /tmp/bg/vitrine.rc ] && [ $n -lt 1000 ]; do usleep 5000; n=$((n+1)); done; "
                      f"end=$(cut -d' ' -f1 /proc/uptime); echo $start $end")
            start, stop = (float(v) for v in self.run_guest(script, timeout=20).split()[-2:])
            result.stop_seconds = stop - start
            code = self.run_guest("cat /tmp/bg/vitrine.rc 2>/dev/null || echo none").strip()
            if code != "0":
                problems.append(f"vitrine exited {code} on SIGTERM (not 0 within 5 s)")
        log = result.vitrine_log = machine.log_of("vitrine")
        lines = log.splitlines()
        errors = [line for line in lines if "[error]" in line or "[critical]" in line
                  or "Fatal error" in line or "Crash" in line]
        if errors:
            problems.append(f"{len(errors)} error lines in vitrine's log, the first: {errors[:3]}")

        # Everything that happened was seen.
        expected = {"disconnected; waiting for it to come back": self.counts["unplugs"],
                    "connected again": self.counts["unplugs"],
                    "SIGHUP: configuration reloaded": self.counts["reloads"]}
        for text, count in expected.items():
            seen = sum(1 for line in lines if text in line)
            result.notes.append(f"vitrine logged {text!r} {seen} times (expected {count})")
            if seen != count:
                problems.append(f"vitrine logged {text!r} {seen} times, expected {count}")
        shown = [line for line in lines if ": showing " in line and " photos" in line]
        if shown:
            last = shown[-1].split(": showing ", 1)[1].split()[0]
            result.notes.append(f"photos at the end: {photos} in /photos, the last rescan shows {last}")
            if last != str(photos):
                problems.append(f"the last rescan shows {last} photos, /photos holds {photos}: {shown[-1]}")

        # The watchdog: every gap under WATCHDOG_USEC.
        for line in machine.log_of("notify").splitlines():
            stamp, _, message = line.partition(" ")
            if message == "WATCHDOG=1":
                result.pings.append(float(stamp))
        minimum = self.minutes * 60 * 0.8 / (WATCHDOG_USEC / 2e6)
        if len(result.pings) < minimum:
            problems.append(f"only {len(result.pings)} watchdog pings in {self.minutes:g} min")
        elif result.max_gap >= WATCHDOG_USEC / 1e6:
            problems.append(f"a watchdog gap of {result.max_gap:.2f} s (limit {WATCHDOG_USEC / 1e6:g} s)")
        late = sum(1 for a, b in zip(result.pings, result.pings[1:]) if b - a >= 1.5)
        result.notes.append(f"watchdog gaps of 1.5 s or more: {late}")

        problems.extend(flatness(result.samples, self.minutes, result.notes))


def flatness(samples: list[Sample], minutes: float, notes: list[str]) -> list[str]:
    """Memory and descriptors after the warm-up (the first sixth, at least 20 s), cut into thirds.

    Memory is what the process allocated (RssAnon): the pages of the binary and its libraries (in
    the guest's initramfs they count as shared memory, elsewhere as file pages) stay put whatever
    the kiosk does, and linking one more library moves them, so VmRSS is reported, not judged.
    A leak adds to every sample, so it is judged on what single moments do not move: the last
    third's median and minimum each at most RSS_BOUND_MB above the first third's. The maxima
    are reported, not judged: a sample taken while a photo decodes catches its buffers (a 13 MP
    progressive JPEG, 03-dragonfly.jpg, holds libjpeg's whole-image coefficient buffer: ~53 MB for
    a moment, as `djpeg -scale 1/2` shows on the host), so which third holds the largest depends
    on when that photo was decoded. A run under TREND_MINUTES ends while the cache still fills: its
    median is held to the cache plus OVERHEAD_MB instead.

    Descriptors likewise: a leaked one stays open, so the last third's fewest are within
    FD_TOLERANCE of the most common count; a single sample may catch a rescan, a reload and two
    decodes at once (each holds a file for a moment), so only one beyond FD_BURST is a fault."""
    warm_up = max(20.0, minutes * 60 / 6)
    steady = [sample for sample in samples if sample.seconds >= warm_up - 0.5]
    if len(steady) < 3:
        return [f"only {len(steady)} samples after the {warm_up:.0f} s warm-up"]
    size = max(1, round(len(steady) / 3))
    first = [sample.anon_kb / 1024 for sample in steady[:size]]
    last = [sample.anon_kb / 1024 for sample in steady[-size:]]
    figures = {"median": (statistics.median(first), statistics.median(last)),
               "minimum": (min(first), min(last))}
    notes.append(f"warm-up {warm_up:.0f} s, then thirds of {size} samples; allocated memory first -> last third: "
                 + ", ".join(f"{name} {a:.1f} -> {b:.1f} MB ({b - a:+.1f})" for name, (a, b) in figures.items())
                 + f" (bound +{RSS_BOUND_MB:g} MB); maximum {max(first):.1f} -> {max(last):.1f} MB (not judged)")
    problems = []
    if minutes < TREND_MINUTES:
        median = statistics.median(sample.anon_kb / 1024 for sample in steady)
        notes.append(f"under {TREND_MINUTES} min the trend is not judged; median allocated {median:.1f} MB "
                     f"(bound {CACHE_MEGABYTES + OVERHEAD_MB:g} MB)")
        if median > CACHE_MEGABYTES + OVERHEAD_MB:
            problems.append(f"allocated memory: median {median:.1f} MB above cache.megabytes {CACHE_MEGABYTES} "
                            f"+ {OVERHEAD_MB:g} MB")
    for name, (a, b) in figures.items():
        if minutes < TREND_MINUTES:
            break
        if b - a > RSS_BOUND_MB:
            problems.append(f"RSS grew: the last third's {name} {b:.1f} MB is {b - a:.1f} MB above the first "
                            f"third's {a:.1f} MB (bound {RSS_BOUND_MB:g} MB)")

    baseline = statistics.mode(sample.fds for sample in steady)
    fewest = min(sample.fds for sample in steady[-size:])
    notes.append(f"fds: baseline {baseline} (the most common after the warm-up), the last third's fewest "
                 f"{fewest} (bound +-{FD_TOLERANCE}), after the warm-up {min(s.fds for s in steady)}-"
                 f"{max(s.fds for s in steady)} (bound +{FD_BURST})")
    if abs(fewest - baseline) > FD_TOLERANCE:
        problems.append(f"open descriptors left {baseline}+-{FD_TOLERANCE}: the last third never had fewer "
                        f"than {fewest}")
    bursts = [sample for sample in steady if sample.fds > baseline + FD_BURST]
    if bursts:
        problems.append(f"open descriptors beyond {baseline}+{FD_BURST}: "
                        + ", ".join(f"{s.fds} at {s.seconds:.0f} s" for s in bursts[:8]))
    return problems


def boot_guest(scratch: Path) -> vm.VM:
    """kiosk.py's guest (vitrine, the tools, the six photos, /etc/vitrine.toml) with the spare photos."""
    binary = kiosk.build_vitrine()
    tools = {f"/bin/{name}": kiosk.build_guest_tool(name) for name in ("touch-inject", "notify-listen")}
    kernel = vm.prepare_kernel()
    files: dict[str, str | Path | bytes] = {f"/photos/{name}": kiosk.SAMPLES / name for name in kiosk.PHOTOS}
    files.update(guest_files())
    files.update(kiosk.caption_fonts())
    files["/etc/vitrine.toml"] = kiosk.config().encode()
    initramfs = vm.build_initramfs(scratch / "initramfs.cpio.lz4", kernel,
                                   binaries={"/bin/vitrine": binary, **tools}, files=files)
    return vm.VM(kernel, initramfs, xres=WIDTH, yres=HEIGHT, memory_mib=1024).boot()


def main() -> int:
    parser = argparse.ArgumentParser(description="Soak `vitrine run` in the qemu guest (see the module's text).")
    parser.add_argument("--minutes", type=float, default=10, help="how long vitrine runs (default 10)")
    parser.add_argument("--seed", type=int, help="the random schedule's seed (default: a new one, printed)")
    parser.add_argument("--sample-every", type=float, default=10, help="seconds between samples (default 10)")
    options = parser.parse_args()
    if not vm.qemu_binary():
        print("qemu-system-x86_64 is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="vitrine-soak-") as scratch:
        machine = boot_guest(Path(scratch))
        try:
            result = Soak(machine, options.minutes, options.seed, options.sample_every).run()
        finally:
            machine.close()
    kept = Path(tempfile.gettempdir()) / f"vitrine-soak-{result.seed}.log"
    kept.write_text(result.vitrine_log)
    print(result.report())
    print(f"vitrine's log: {kept}")
    return 1 if result.problems else 0


if __name__ == "__main__":
    sys.exit(main())
