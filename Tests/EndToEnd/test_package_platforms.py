"""The package of each platform (README, "Platforms"), installed as a user installs it, under real
systemd: Debian 13 arm64 in qemu-system-aarch64 (`-M virt -cpu cortex-a72`, a Raspberry Pi 4's
cores), Debian 13 amd64 and Debian 12 amd64 in qemu-system-x86_64, each with a virtio-gpu display
and a uinput touchscreen made in the guest. One boot each:

- the root is the release's minbase with systemd (systemd_vm.base_root) and the release's own kernel
  (systemd_vm.platform_kernel); the package is in /root and its dependencies, fetched from Debian,
  in a local apt repository (the guest has no network); six sample photos are in
  /srv/vitrine/photos;
- in the booted guest `apt install ./vitrine_*.deb` installs it, and the package's postinst starts
  the unit: it is active, as user vitrine, with the grid on the display (QMP screendump, checked
  as everywhere: photos in the cells, black gaps);
- a tap on the touchscreen opens the first photo;
- with `[remote] listen` and the package's remote-access drop-in, /status answers;
- `kill -9` of the kiosk: systemd has it active again (READY=1: the grid on screen) within the
  unit's WatchdogSec, and the grid is back.

They are slow under TCG (README, "Platforms": minutes each), so they run only when asked:

    VITRINE_PLATFORMS=trixie-arm64,trixie-amd64 python3 -m unittest discover -s Tests/EndToEnd \\
        -p 'test_package_platforms.py' -v                      (or: scripts/test-platforms)

Each platform's package is `scripts/package --release R --arch A` into a scratch folder, unless
VITRINE_PACKAGE_<RELEASE>_<ARCH> (VITRINE_PACKAGE_TRIXIE_ARM64=out/vitrine_..._arm64.deb) names one.
Needs root (mmdebstrap, chroot), qemu-system-x86 and qemu-system-arm, qemu-user-static for the arm64
root, and network for the first root of each platform and for the package's dependencies.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

import kiosk
import systemd_vm
import vm
from kiosk import GridLayout, grid_problems, pager_problems
from systemd_vm import Platform

FOUR = GridLayout(columns=4, spacing=4)
COUNT = len(kiosk.PHOTOS)
UNIT = "vitrine.service"
SELECTION = "VITRINE_PLATFORMS"


def selected(platform: Platform) -> bool:
    names = {name.strip() for name in os.environ.get(SELECTION, "").split(",")}
    return platform.name in names or "all" in names


def platform_package(platform: Platform, folder: Path) -> Path:
    """The platform's .deb: VITRINE_PACKAGE_<RELEASE>_<ARCH>, or built by scripts/package into
    `folder`."""
    variable = f"VITRINE_PACKAGE_{platform.release.upper()}_{platform.architecture.upper()}"
    if os.environ.get(variable):
        return Path(os.environ[variable]).resolve()
    command = [str(vm.REPO / "scripts" / "package"), "--release", platform.release, "--arch",
               platform.architecture, str(folder)]
    result = subprocess.run(command, cwd=vm.REPO, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{result.stdout[-4000:]}{result.stderr[-3000:]}")
    debs = sorted(folder.glob(f"vitrine_*_{platform.architecture}.deb"))
    if len(debs) != 1:
        raise AssertionError(f"{' '.join(command)} left {[deb.name for deb in debs]} in {folder}")
    return debs[0]


class PlatformPackageTest(unittest.TestCase):
    """One platform's package from `apt install` to a watchdog restart; subclasses name the platform."""

    platform: Platform | None = None

    @classmethod
    def setUpClass(cls) -> None:
        platform = cls.platform
        if platform is None:
            raise unittest.SkipTest("the base class")
        if not selected(platform):
            raise unittest.SkipTest(f"{platform.name} not in {SELECTION} (slow under TCG: scripts/test-platforms)")
        if os.geteuid() != 0:
            raise unittest.SkipTest("the platform tests build Debian roots with mmdebstrap and chroot: run as root")
        if not platform.emulator.binary():
            raise unittest.SkipTest(f"{platform.emulator.program} is not installed (scripts/install-deps)")
        cls.started = time.monotonic()
        cls.scratch = tempfile.TemporaryDirectory(prefix=f"vitrine-platform-{platform.name}-")
        scratch = Path(cls.scratch.name)
        cls.deb = platform_package(platform, scratch / "package")
        touch_inject = kiosk.build_guest_tool("touch-inject", platform.architecture)
        cls.built = time.monotonic()
        cls.kernel = systemd_vm.platform_kernel(platform)
        root = systemd_vm.seeded_root(cls.deb, cls.kernel, scratch, tools={"touch-inject": touch_inject},
                                      platform=platform)
        photos = root / "srv" / "vitrine" / "photos"
        photos.mkdir(parents=True, exist_ok=True)
        for name in kiosk.PHOTOS:
            shutil.copy(kiosk.SAMPLES / name, photos / name)
        cls.image = systemd_vm.root_image(root, scratch / "root.cpio.lz4")
        shutil.rmtree(root)
        cls.prepared = time.monotonic()
        print(f"\n[platform {platform.name}] package {cls.built - cls.started:.1f} s, root, kernel and image "
              f"{cls.prepared - cls.built:.1f} s", flush=True)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.scratch.cleanup()

    def wait_for_screen(self, machine: systemd_vm.SystemdVM, problems, what: str, timeout: float = 60) -> vm.Image:
        return kiosk.wait_for_screen(self, machine, problems, timeout, what, lambda: machine.journal(UNIT))

    def wait_for_journal(self, machine: systemd_vm.SystemdVM, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            journal = machine.journal(UNIT)
            if text in journal:
                return journal
            if time.monotonic() > deadline:
                self.fail(f"{text!r} not in vitrine's journal within {timeout} s:\n{journal[-3000:]}")
            time.sleep(0.5)

    def wait_until_active(self, machine: systemd_vm.SystemdVM, timeout: float) -> dict[str, str]:
        deadline = time.monotonic() + timeout
        while True:
            service = machine.service(UNIT)
            if service["ActiveState"] == "active":
                return service
            if time.monotonic() > deadline:
                self.fail(f"vitrine not active {timeout} s after apt install: {service}\n{machine.journal(UNIT)[-3000:]}")
            time.sleep(0.5)

    def test_installed_by_apt_it_shows_the_grid_answers_and_comes_back_after_a_kill(self) -> None:
        platform = self.platform
        timings: list[str] = []
        step = time.monotonic()

        def lap(what: str) -> None:
            nonlocal step
            now = time.monotonic()
            timings.append(f"{what} {now - step:.1f} s")
            step = now

        self.addCleanup(lambda: print(f"\n[platform {platform.name}] " + ", ".join(timings), flush=True))
        machine = systemd_vm.SystemdVM(self.kernel, self.image, memory_mib=3072, boot_timeout=900).boot()
        self.addCleanup(machine.close)
        state = machine.wait_until_booted(timeout=900)
        self.assertIn(state.split()[0], ("running", "degraded"), state)
        # Under TCG the system is "running" before udev has worked through the coldplug events (on
        # arm64 virtio_gpu was loaded and /dev/dri/card0 given to group video 22 s later).
        machine.check("udevadm settle --timeout=600", timeout=660)
        lap(f"boot ({state.split()[0]}) and udev settled")
        self.assertEqual(machine.check("dpkg --print-architecture").strip(), platform.architecture)
        self.assertIn(platform.release, machine.check("cat /etc/os-release"))

        # As a user installs it: apt, from the package file, its dependencies from the repository.
        install = machine.run("cd /root && DEBIAN_FRONTEND=noninteractive apt install -y ./vitrine_*.deb 2>&1", timeout=1800)
        self.assertEqual(install.code, 0, install.output[-4000:])
        self.assertNotIn("\nE: ", install.output)
        self.assertIn("Setting up vitrine", install.output)
        self.assertNotRegex(machine.check("find / -xdev \\( -name 'libswift*' -o -name 'libFoundation*' \\)"), r"\S",
                            "a Swift runtime library is on the kiosk")
        lap("apt install")

        # The postinst enabled and started the unit: active once the grid is on screen.
        service = self.wait_until_active(machine, timeout=600)
        self.assertEqual(machine.run(f"systemctl is-enabled {UNIT}").output.strip(), "enabled")
        pid = service["MainPID"]
        uid = machine.check("id -u vitrine").strip()
        status = machine.check(f"cat /proc/{pid}/status")
        self.assertRegex(status, rf"\nUid:\s+{uid}\s+{uid}\s", "vitrine does not run as user vitrine")
        self.assertNotEqual(uid, "0")
        self.wait_for_screen(machine, lambda image: grid_problems(image, FOUR, COUNT), "the grid after apt install")
        lap("active with the grid")

        # A tap on a uinput touchscreen opens the first photo.
        machine.check("rm -f /tmp/touch.fifo && mkfifo /tmp/touch.fifo")
        machine.spawn("touch", f"touch-inject /tmp/touch.fifo {kiosk.WIDTH} {kiosk.HEIGHT}")
        node = kiosk.touch_device(machine, timeout=60)
        self.wait_for_journal(machine, f"touch: {node} ")
        machine.check("echo 'tap %d %d' > /tmp/touch.fifo" % FOUR.centre(0))
        machine.wait_for_log("touch", "ok 1 tap", timeout=60)
        self.wait_for_screen(machine, lambda image: pager_problems(image, kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             "the first photo opened by the tap")
        lap("tap opens a photo")

        # /status, with the package's example drop-in that lets the server listen.
        machine.check("sed -i 's/^listen = \"\"$/listen = \"127.0.0.1:9180\"/' /etc/vitrine/vitrine.toml "
                      "&& grep -q '^listen = \"127.0.0.1:9180\"$' /etc/vitrine/vitrine.toml")
        machine.check(f"install -D -m 0644 /usr/share/doc/vitrine/examples/remote-access.conf "
                      f"/etc/systemd/system/{UNIT}.d/remote-access.conf && systemctl daemon-reload")
        machine.check(f"systemctl restart {UNIT}", timeout=600)
        self.wait_for_journal(machine, "remote: listening on 127.0.0.1:9180", timeout=120)
        answer = machine.run("timeout 60 bash -c 'exec 3<>/dev/tcp/127.0.0.1/9180; "
                             "printf \"GET /status HTTP/1.0\\r\\n\\r\\n\" >&3; cat <&3'", timeout=90).output
        self.assertIn("HTTP/1.1 200", answer)
        self.assertIn('"state":"showing"', answer)
        self.assertRegex(answer, rf'"photo_count":\s*{COUNT}\b')
        lap("/status")

        # kill -9: systemd starts it again, and has it active (the grid on screen: READY=1) within
        # the watchdog's time.
        service = self.wait_until_active(machine, timeout=120)
        pid = service["MainPID"]
        watchdog = machine.check(f"systemctl show -p WatchdogUSec --value {UNIT}").strip()
        self.assertRegex(watchdog, r"^\d+s$", "the unit's WatchdogSec")
        watchdog_seconds = int(watchdog.removesuffix("s"))
        seconds = float(machine.check(
            f"start=$(cut -d' ' -f1 /proc/uptime); kill -9 {pid}; "
            f"until [ \"$(systemctl show -p MainPID --value {UNIT})\" != {pid} ] "
            f"&& [ \"$(systemctl show -p ActiveState --value {UNIT})\" = active ]; do sleep 0.1; done; "
            f"echo $start $(cut -d' ' -f1 /proc/uptime) | awk '{{print $2 - $1}}'", timeout=300).split()[-1])
        print(f"\n[platform {platform.name}] active again {seconds:.1f} s after kill -9 "
              f"(WatchdogSec {watchdog_seconds} s)", flush=True)
        self.assertLess(seconds, watchdog_seconds, "not back within the watchdog's time")
        self.assertGreaterEqual(int(machine.service(UNIT)["NRestarts"]), 1)
        self.wait_for_screen(machine, lambda image: grid_problems(image, FOUR, COUNT), "the grid after kill -9")
        lap("kill -9 to the grid")


class TrixieArm64PackageTest(PlatformPackageTest):
    platform = Platform("trixie", "arm64")


class TrixieAmd64PackageTest(PlatformPackageTest):
    platform = Platform("trixie", "amd64")


class BookwormAmd64PackageTest(PlatformPackageTest):
    platform = Platform("bookworm", "amd64")


if __name__ == "__main__":
    unittest.main()
