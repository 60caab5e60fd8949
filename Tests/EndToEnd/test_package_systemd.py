"""The Debian package under real systemd: `scripts/package` builds it, `apt-get install ./vitrine_*.deb`
installs it into an mmdebstrap'd Debian 12 (dependencies from Debian, no Swift), and that root boots
in qemu with systemd as PID 1, a virtio-gpu display and a uinput touchscreen. The unit is the one
the package ships, untouched; the sample photos are copied to /srv/vitrine/photos as an integrator
would. Three boots:

- the package enabled the unit, so it starts at boot: it runs as user vitrine (not root, no
  capabilities) and the grid is on screen; `systemd-analyze security` in the guest is at most 2.5;
  `systemctl reload` applies an edited config (3 columns); a tap from the touchscreen opens a photo;
  the journal has Vitrine's lines; `kill -9` and systemd restarts it (the grid is back); SIGSTOP and
  the watchdog kills and restarts it; `systemctl stop` exits 0 within 1 s and the text console is
  back on the display; started again, it is active only with the grid on screen (a unit ordered
  after it freezes it the moment systemd has it active); `apt-get purge vitrine` stops it and
  leaves no process, no unit, no program, no config;
- virtio_gpu blacklisted: the unit starts with no display, waits ("activating", its status says
  so), and once `modprobe virtio_gpu` has run some seconds later it is active with the grid shown.
- `[remote] listen = "127.0.0.1:9180"`: under the unit as shipped the server cannot bind (no
  AF_INET; the journal says so) and the kiosk stays active; with the package's example drop-in
  `remote-access.conf` installed, /status answers on the host's loopback (bash's /dev/tcp), a
  /control "next" with the token opens the first photo on screen, the server's threads run at
  nice 10, and `systemd-analyze security` is still at most 2.5 (1.5 measured).

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_package_systemd.py' -v

Needs root (mmdebstrap, chroot), qemu, and network the first time (the Debian root is cached in
~/.cache/vitrine-e2e) and for the package's dependencies.
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

FOUR = GridLayout(columns=4, spacing=4)
THREE = GridLayout(columns=3, spacing=4)
COUNT = len(kiosk.PHOTOS)
SECURITY_LIMIT = 2.5
UNIT = "vitrine.service"

# Ordered after vitrine.service, so it runs the moment systemd has vitrine active (READY=1): it
# freezes vitrine (SIGSTOP) and the test looks at what was on screen then.
READY_PROBE_UNIT = """[Unit]
Description=End-to-end test: freezes vitrine the moment systemd has it active
After=vitrine.service

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'pid=$(systemctl show -p MainPID --value vitrine.service); kill -STOP $pid; echo "$pid $(systemctl show -p ActiveState --value vitrine.service)" > /run/ready-probe'
"""

_package: dict[str, Path] = {}


def build_package() -> Path:
    """`scripts/package` into a scratch folder, once per test run; the .deb."""
    if "deb" not in _package:
        output = Path(tempfile.mkdtemp(prefix="vitrine-package-"))
        result = subprocess.run([str(vm.REPO / "scripts" / "package"), str(output)], cwd=vm.REPO,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"scripts/package failed:\n{result.stdout[-4000:]}{result.stderr[-3000:]}")
        _package["lintian"] = result.stdout
        _package["deb"] = next(output.glob("vitrine_*.deb"))
    return _package["deb"]


def security_figure(output: str) -> float:
    """The exposure in systemd-analyze security's last line ("Overall exposure level for
    vitrine.service: 1.9 OK")."""
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", output)
    if not match:
        raise AssertionError(f"no overall exposure level in:\n{output[-2000:]}")
    return float(match.group(1))


def on_screen(rect: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The part of a cell above the screen's bottom edge (3 columns: the second row is cut)."""
    x0, y0, x1, y1 = rect
    return x0, y0, x1, min(y1, kiosk.HEIGHT)




@unittest.skipUnless(vm.qemu_binary(), "qemu-system-x86_64 is not installed: skipping the real-systemd test")
@unittest.skipUnless(os.geteuid() == 0, "the real-systemd test builds a Debian root with mmdebstrap and chroot: run as root")
class PackageSystemdTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls) -> None:
        cls.started = time.monotonic()
        cls.deb = build_package()
        touch_inject = kiosk.build_guest_tool("touch-inject")
        cls.built = time.monotonic()
        cls.scratch = tempfile.TemporaryDirectory(prefix="vitrine-package-systemd-")
        scratch = Path(cls.scratch.name)
        cls.kernel = vm.prepare_kernel()
        cls.root = systemd_vm.installed_root(cls.deb, cls.kernel, scratch, tools={"touch-inject": touch_inject})
        # What an integrator does after installing: photos into the folder the package made.
        photos = cls.root / "srv" / "vitrine" / "photos"
        for name in kiosk.PHOTOS:
            shutil.copy(cls.root / "usr" / "share" / "vitrine" / "samples" / name, photos / name)
        cls.image = systemd_vm.root_image(cls.root, scratch / "root.cpio.lz4")
        cls.prepared = time.monotonic()
        print(f"\n[e2e timing] package {cls.built - cls.started:.1f} s, Debian root with the package "
              f"{cls.prepared - cls.built:.1f} s", flush=True)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.scratch.cleanup()
        shutil.rmtree(cls.deb.parent, ignore_errors=True)
        _package.clear()

    # -- helpers ------------------------------------------------------------------------------

    def boot(self, **options) -> systemd_vm.SystemdVM:
        machine = systemd_vm.SystemdVM(self.kernel, self.image, **options).boot()
        self.addCleanup(machine.close)
        self.machine = machine
        return machine

    def wait_for_screen(self, problems, timeout: float = 30, what: str = "the screen") -> vm.Image:
        return kiosk.wait_for_screen(self, self.machine, problems, timeout, what, lambda: self.machine.journal(UNIT))

    def wait_for_journal(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            journal = self.machine.journal(UNIT)
            if text in journal:
                return journal
            if time.monotonic() > deadline:
                self.fail(f"{text!r} not in vitrine's journal within {timeout} s:\n{journal[-3000:]}")
            time.sleep(0.3)

    def wait_for_new_main_pid(self, old: str, timeout: float) -> dict[str, str]:
        """Until systemd has vitrine active again under another MainPID; its properties."""
        deadline = time.monotonic() + timeout
        while True:
            service = self.machine.service(UNIT)
            if service["MainPID"] not in ("0", old) and service["ActiveState"] == "active":
                return service
            if time.monotonic() > deadline:
                self.fail(f"vitrine not active again after {timeout} s: {service}\n{self.machine.journal(UNIT)[-3000:]}")
            time.sleep(0.2)

    def process_ids(self, pid: str) -> dict[str, str]:
        """Uid, Gid, Groups and CapEff lines of /proc/PID/status."""
        status = self.machine.check(f"cat /proc/{pid}/status")
        return {key: value.strip() for key, _, value in (line.partition(":") for line in status.splitlines())
                if key in ("Uid", "Gid", "Groups", "CapEff", "CapBnd")}

    def console_text_problems(self, image: vm.Image) -> list[str]:
        """The text console, not Vitrine: the test's lines of '#' light up the top rows, and no
        grid cell holds a photo."""
        problems = []
        if len(image.region_colors(0, 0, 600, 120, step=2) - {kiosk.BLACK}) == 0:
            problems.append("no console text in the top rows")
        if any(kiosk.photo_content(image, FOUR.cell_rect(index)) for index in range(COUNT)):
            problems.append("a photo is still on screen")
        return problems

    # -- the package itself -------------------------------------------------------------------

    def test_package_contents_and_the_installed_root(self) -> None:
        fields = subprocess.run(["dpkg-deb", "--field", str(self.deb), "Package", "Version", "Architecture", "Depends"],
                                capture_output=True, text=True, check=True).stdout
        architecture = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
        self.assertEqual(self.deb.name, f"vitrine_{fields.split('Version: ')[1].split()[0]}_{architecture}.deb")
        version = subprocess.run([str(kiosk.build_vitrine()), "--version"], capture_output=True, text=True).stdout.strip()
        self.assertIn(f"Version: {version}\n", fields, "the package's version is not vitrine --version's")
        for dependency in ("libdrm2", "libturbojpeg0", "libjpeg62-turbo", "libtomlplusplus3", "libc6",
                           "libfreetype6", "libharfbuzz0b", "libfontconfig1", "libfribidi0",
                           # SPEC §11's formats and colour: HEIF/AVIF, WebP, PNG, Little CMS.
                           "libheif1", "libwebp7", "libwebpdemux2", "libspng0", "liblcms2-2",
                           # SPEC §12: clips through FFmpeg.
                           "libavformat59", "libavcodec59", "libswscale6", "libavutil57",
                           # SPEC §14: MQTT through libmosquitto.
                           "libmosquitto1"):
            self.assertRegex(fields, rf"Depends:.*\b{dependency} \(>=", f"Depends: lacks {dependency}")
        self.assertRegex(fields, r"Depends:.*\bfonts-dejavu-core\b", "Depends: lacks the captions' font")
        self.assertNotIn("swift", fields.lower())
        conffiles = subprocess.run(f"dpkg-deb --ctrl-tarfile {self.deb} | tar -xO ./conffiles", shell=True,
                                   capture_output=True, text=True).stdout
        self.assertEqual(conffiles.split(), ["/etc/vitrine/vitrine.toml"])
        self.assertNotIn("E: ", _package["lintian"], "lintian reported errors")

        root = self.root
        for path in ("usr/bin/vitrine", "usr/lib/vitrine/vitrine", "usr/lib/systemd/system/vitrine.service",
                     "usr/lib/sysusers.d/vitrine.conf",
                     "etc/vitrine/vitrine.toml", "usr/share/doc/vitrine/README.md", "usr/share/doc/vitrine/copyright"):
            self.assertTrue((root / path).is_file(), path)
        self.assertTrue((root / "srv/vitrine/photos").is_dir())
        # /usr/bin/vitrine is the static launcher (no dynamic loader: the kiosk's signals are blocked
        # by its first code); it runs the program in /usr/lib/vitrine.
        headers = subprocess.run(["readelf", "--program-headers", str(root / "usr/bin/vitrine")],
                                 capture_output=True, text=True, check=True).stdout
        self.assertNotIn("INTERP", headers, "/usr/bin/vitrine is not static")
        # (It is run for real by the service in the guest below; a chroot without /proc cannot: the
        # static Swift runtime reads its arguments from /proc/self/cmdline.)
        self.assertIn(b"/usr/lib/vitrine/vitrine\0", (root / "usr/bin/vitrine").read_bytes())
        unit = (root / "usr/lib/systemd/system/vitrine.service").read_text()
        self.assertIn("ExecStart=/usr/bin/vitrine run --config /etc/vitrine/vitrine.toml", unit)
        self.assertNotIn("/usr/local", unit)
        self.assertTrue((root / "etc/systemd/system/multi-user.target.wants/vitrine.service").is_symlink(),
                        "the package did not enable the unit")
        # No Swift in the root: the runtime is inside the binary.
        swift = subprocess.run(["find", str(root), "-name", "libswift*", "-o", "-name", "libFoundation*"],
                               capture_output=True, text=True).stdout
        self.assertEqual(swift, "")
        groups = systemd_vm.in_chroot(root, "id -nG vitrine").split()
        self.assertEqual(sorted(groups), ["input", "video", "vitrine"])
        copyright = (root / "usr/share/doc/vitrine/copyright").read_text()
        for photo in (vm.REPO / "Samples" / "photos").glob("*.jpg"):
            self.assertIn(f"Samples/photos/{photo.name}", copyright, f"copyright does not cover {photo.name}")
            self.assertTrue((root / "usr/share/vitrine/samples" / photo.name).is_file())

    def test_an_edited_config_survives_installing_the_package_again(self) -> None:
        # The root as installed (the image was made from it already): dpkg's conffile rule, as on
        # an upgrade whose shipped config did not change, keeps the administrator's edit.
        root = self.root
        config = root / "etc/vitrine/vitrine.toml"
        edited = config.read_text().replace("columns = 4\n", "columns = 5\n")
        self.assertNotEqual(edited, config.read_text())
        config.write_text(edited)
        shutil.copy(self.deb, root / "tmp" / self.deb.name)
        with systemd_vm.chroot_mounts(root):
            systemd_vm.in_chroot(root, f"dpkg -i /tmp/{self.deb.name}")
        self.assertEqual(config.read_text(), edited)
        self.assertEqual(systemd_vm.in_chroot(root, "dpkg-query -W -f='${db:Status-Abbrev}' vitrine").strip(), "ii")

    def test_security_exposure_of_the_shipped_unit(self) -> None:
        with tempfile.TemporaryDirectory(prefix="vitrine-deb-") as unpacked:
            subprocess.run(["dpkg-deb", "-x", str(self.deb), unpacked], check=True)
            unit = Path(unpacked) / "usr/lib/systemd/system/vitrine.service"
            result = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                                    capture_output=True, text=True)
        figure = security_figure(result.stdout + result.stderr)
        print(f"\n[security] systemd-analyze security --offline=yes: {figure}", flush=True)
        self.assertLessEqual(figure, SECURITY_LIMIT)

    # -- under systemd ------------------------------------------------------------------------

    def test_the_service_under_systemd_from_boot_to_purge(self) -> None:
        machine = self.boot(files={"/etc/systemd/system/vm-ready-probe.service": READY_PROBE_UNIT.encode()})
        state = machine.wait_until_booted()
        self.assertNotIn(UNIT, state, f"boot: {state}")
        service = machine.service(UNIT)
        self.assertEqual(service["ActiveState"], "active", f"{service}\n{machine.journal(UNIT)}")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid after boot")

        # As user vitrine, in groups video and input, with no capabilities.
        pid = service["MainPID"]
        ids = self.process_ids(pid)
        uid = machine.check("id -u vitrine").strip()
        self.assertEqual(ids["Uid"].split(), [uid] * 4, ids)
        self.assertNotEqual(uid, "0")
        video, input_ = machine.check("getent group video | cut -d: -f3; getent group input | cut -d: -f3").split()
        self.assertTrue({video, input_} <= set(ids["Groups"].split()), ids)
        self.assertEqual(int(ids["CapEff"], 16), 0, ids)
        self.assertEqual(int(ids["CapBnd"], 16), 0, ids)

        # The exposure as systemd in the guest measures it, with the unit loaded.
        figure = security_figure(machine.run(f"systemd-analyze security {UNIT} --no-pager").output)
        print(f"\n[security] systemd-analyze security in the guest: {figure}", flush=True)
        self.assertLessEqual(figure, SECURITY_LIMIT)

        # An edited config, then `systemctl reload`: 3 columns.
        machine.check("sed -i 's/^columns = 4$/columns = 3/' /etc/vitrine/vitrine.toml && grep -q '^columns = 3$' /etc/vitrine/vitrine.toml")
        machine.check(f"systemctl reload {UNIT}")
        self.wait_for_journal("SIGHUP: configuration reloaded")
        self.wait_for_screen(lambda image: grid_problems(image, THREE, COUNT), what="the 3-column grid after reload")

        # A tap on the uinput touchscreen opens the first photo.
        machine.check("rm -f /tmp/touch.fifo && mkfifo /tmp/touch.fifo")
        machine.spawn("touch", f"touch-inject /tmp/touch.fifo {kiosk.WIDTH} {kiosk.HEIGHT}")
        node = kiosk.touch_device(machine, timeout=15)
        self.wait_for_journal(f"touch: {node} ")
        machine.check("echo 'tap %d %d' > /tmp/touch.fifo" % THREE.centre(0))
        machine.wait_for_log("touch", "ok 1 tap", timeout=10)
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             what="the first photo opened by the tap")

        journal = machine.journal(UNIT)
        for line in ("first frame on screen", "SIGHUP: configuration reloaded", f"touch: {node} "):
            self.assertIn(line, journal)
        self.assertIn("vitrine[", machine.run(f"journalctl -b -u {UNIT} --no-pager -o short").output)

        # kill -9: systemd restarts it, and the grid is back.
        machine.check(f"kill -9 {pid}")
        service = self.wait_for_new_main_pid(pid, timeout=30)
        self.assertGreaterEqual(int(service["NRestarts"]), 1, service)
        self.wait_for_screen(lambda image: grid_problems(image, THREE, COUNT), what="the grid after kill -9")

        # SIGSTOP: the watchdog (WatchdogSec=10) kills it, and systemd restarts it.
        pid = service["MainPID"]
        restarts = int(service["NRestarts"])
        machine.check(f"kill -STOP {pid}")
        service = self.wait_for_new_main_pid(pid, timeout=40)
        self.assertEqual(int(service["NRestarts"]), restarts + 1, service)
        self.assertIn("Watchdog timeout", machine.journal(UNIT))
        self.wait_for_screen(lambda image: grid_problems(image, THREE, COUNT), what="the grid after the watchdog")

        # `systemctl stop`: exit 0 within a second, the process exited 0, and the console is back.
        machine.check("printf '\\033[H\\033[J' > /dev/tty1; for i in 1 2 3 4 5; do echo '########################################' > /dev/tty1; done")
        start, end, code = machine.check(
            f"start=$(cut -d' ' -f1 /proc/uptime); systemctl stop {UNIT}; code=$?; "
            f"echo $start $(cut -d' ' -f1 /proc/uptime) $code").split()[-3:]
        seconds = float(end) - float(start)
        self.assertEqual(code, "0")
        print(f"\n[stop] systemctl stop took {seconds:.2f} s", flush=True)
        self.assertLess(seconds, 1.0)
        service = machine.service(UNIT)
        self.assertEqual((service["ActiveState"], service["Result"], service["ExecMainStatus"]),
                         ("inactive", "success", "0"), service)
        machine.check("for i in 1 2 3 4 5; do echo '########################################' > /dev/tty1; done")
        self.wait_for_screen(self.console_text_problems, timeout=10, what="the text console after stop")

        # Started again: the moment systemd has it active, the grid is on screen.
        machine.check(f"systemctl reset-failed {UNIT}; systemctl start --no-block {UNIT} && systemctl start vm-ready-probe.service")
        frozen_pid, state = machine.check("cat /run/ready-probe").split()
        screen = machine.screendump()
        machine.check(f"kill -CONT {frozen_pid}")
        self.assertEqual(state, "active")
        drawn = [index for index in range(COUNT) if not kiosk.only_black(screen, on_screen(THREE.cell_rect(index)))]
        self.assertEqual(drawn, list(range(COUNT)), "systemd had vitrine active before the grid was on screen")
        layout = [problem for problem in grid_problems(screen, THREE, COUNT) if "shows no photo" not in problem]
        self.assertEqual(layout, [], "the frame on screen when systemd had vitrine active is not the grid")
        self.wait_for_screen(lambda image: grid_problems(image, THREE, COUNT), what="the grid after start")

        # apt-get purge: stopped and gone, no process left.
        pid = machine.service(UNIT)["MainPID"]
        machine.check("DEBIAN_FRONTEND=noninteractive apt-get purge -y vitrine", timeout=120)
        self.assertNotEqual(machine.run(f"test -d /proc/{pid}").code, 0, f"vitrine (pid {pid}) still runs after purge")
        left = machine.run(f"grep -l '^Uid:[[:space:]]*{uid}[[:space:]]' /proc/[0-9]*/status").output.strip()
        self.assertEqual(left, "", "processes of user vitrine left after purge")
        self.assertNotEqual(machine.run(f"systemctl is-active {UNIT}").output.strip(), "active")
        for path in ("/usr/bin/vitrine", "/usr/lib/systemd/system/vitrine.service", "/etc/vitrine/vitrine.toml",
                     "/etc/systemd/system/multi-user.target.wants/vitrine.service"):
            self.assertNotEqual(machine.run(f"test -e {path}").code, 0, f"{path} left after purge")
        self.assertEqual(machine.run("ls /srv/vitrine/photos | wc -l").output.strip(), str(COUNT),
                         "the photos are the administrator's: purge keeps them")

    def test_the_remote_access_drop_in_opens_the_server_and_nothing_else(self) -> None:
        """[remote] listen under the shipped unit: refused (no AF_INET) and the kiosk runs on; with
        the package's example drop-in installed the server answers on the host's loopback, its
        threads run at nice 10, and the unit's exposure figure stays within the limit."""
        # The package's own copy of the example (the guest's root leaves /usr/share/doc out).
        example = subprocess.run(f"dpkg-deb --fsys-tarfile {self.deb} | tar -xO ./usr/share/doc/vitrine/examples/remote-access.conf",
                                 shell=True, capture_output=True, check=True).stdout
        self.assertIn(b"PrivateNetwork=no", example)
        machine = self.boot(files={"/root/remote-access.conf": example})
        machine.wait_until_booted()
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid after boot")
        machine.check("printf 'guest-token\\n' > /etc/vitrine/remote.token && chown root:vitrine /etc/vitrine/remote.token "
                      "&& chmod 0640 /etc/vitrine/remote.token")
        # The shipped config has the [remote] table, off: listen = "".
        machine.check("sed -i 's/^listen = \"\"$/listen = \"127.0.0.1:9180\"/' /etc/vitrine/vitrine.toml "
                      "&& grep -q '^listen = \"127.0.0.1:9180\"$' /etc/vitrine/vitrine.toml")
        machine.check(f"systemctl restart {UNIT}")
        journal = self.wait_for_journal("remote: cannot serve on 127.0.0.1:9180")
        self.assertIn("the kiosk goes on without remote access", journal)
        self.assertEqual(machine.service(UNIT)["ActiveState"], "active")

        def http(request: str) -> str:
            # bash's /dev/tcp: the Debian root has no HTTP client.
            return machine.run("timeout 10 bash -c 'exec 3<>/dev/tcp/127.0.0.1/9180; "
                               f"printf \"{request}\" >&3; cat <&3'").output

        machine.check("install -D -m 0644 /root/remote-access.conf "
                      f"/etc/systemd/system/{UNIT}.d/remote-access.conf && systemctl daemon-reload")
        machine.check(f"systemctl restart {UNIT}")
        self.wait_for_journal("remote: listening on 127.0.0.1:9180")
        status = http("GET /status HTTP/1.0\\r\\n\\r\\n")
        self.assertIn("HTTP/1.1 200", status)
        self.assertIn('"state":"showing"', status)
        control = http("POST /control HTTP/1.0\\r\\nAuthorization: Bearer guest-token\\r\\nContent-Length: 17\\r\\n"
                       "\\r\\n{\\\"action\\\":\\\"next\\\"}")
        self.assertIn("HTTP/1.1 202", control)
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             what="the first photo opened by /control")
        # The server's threads lowered their priority (setpriority, which the drop-in allows back).
        pid = machine.service(UNIT)["MainPID"]
        nice = machine.check(f"for t in /proc/{pid}/task/*; do cut -d' ' -f19 $t/stat; done").split()
        self.assertIn("10", nice, nice)
        self.assertIn("0", nice, nice)
        figure = security_figure(machine.run(f"systemd-analyze security {UNIT} --no-pager").output)
        print(f"\n[security] with the remote-access drop-in: {figure}", flush=True)
        self.assertLessEqual(figure, SECURITY_LIMIT)

    def test_the_unit_started_before_the_display_driver_waits_for_it(self) -> None:
        machine = self.boot(append="modprobe.blacklist=virtio_gpu")
        self.wait_for_journal("waiting for a display", timeout=90)
        self.assertNotEqual(machine.run("test -e /dev/dri/card0").code, 0)
        time.sleep(3)
        service = machine.service(UNIT)
        self.assertEqual(service["ActiveState"], "activating", service)
        self.assertIn("waiting for a display", machine.check(f"systemctl show -p StatusText --value {UNIT}"))

        loaded_at = time.monotonic()
        machine.check("modprobe virtio_gpu")
        deadline = time.monotonic() + 60
        while machine.service(UNIT)["ActiveState"] != "active":
            if time.monotonic() > deadline:
                self.fail(f"not active 60 s after modprobe virtio_gpu:\n{machine.journal(UNIT)[-3000:]}")
            time.sleep(0.2)
        print(f"\n[late display] active {time.monotonic() - loaded_at:.1f} s after modprobe", flush=True)
        self.assertEqual(machine.service(UNIT)["NRestarts"], "0", "it was restarted instead of waiting")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid once the driver loaded")


if __name__ == "__main__":
    unittest.main()
