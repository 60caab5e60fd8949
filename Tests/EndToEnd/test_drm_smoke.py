"""The DRM module on a real kernel: drm-smoke in qemu with virtio-gpu, checked by screenshots.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_drm_smoke.py' -v

Skips when qemu-system-x86_64 is not installed. Builds drm-smoke (release, static Swift stdlib),
boots one VM for the whole class and prints how long each part took.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm  # noqa: E402

BLUE = (0, 0, 255)
RED = (255, 0, 0)
GREEN = (0, 255, 0)
YELLOW = (255, 255, 0)
WHITE = (255, 255, 255)
MAGENTA = (255, 0, 255)
BLACK = (0, 0, 0)


def build_drm_smoke() -> Path:
    command = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "drm-smoke"]
    result = subprocess.run(command, cwd=vm.REPO, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    binary = subprocess.run([*command, "--show-bin-path"], cwd=vm.REPO, capture_output=True,
                            text=True, check=True).stdout.strip()
    return Path(binary) / "drm-smoke"


@unittest.skipUnless(vm.qemu_binary(), "qemu-system-x86_64 is not installed: skipping the real-kernel test")
class DRMSmokeTest(unittest.TestCase):
    machine: vm.VM

    @classmethod
    def setUpClass(cls) -> None:
        cls.started = time.monotonic()
        binary = build_drm_smoke()
        cls.built = time.monotonic()
        kernel = vm.prepare_kernel()
        cls.scratch = tempfile.TemporaryDirectory(prefix="vitrine-drm-smoke-")
        initramfs = vm.build_initramfs(Path(cls.scratch.name) / "initramfs.cpio.lz4", kernel,
                                       binaries={"/bin/drm-smoke": binary})
        cls.prepared = time.monotonic()
        cls.machine = vm.VM(kernel, initramfs, xres=1280, yres=800).boot()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.machine.close()
        cls.scratch.cleanup()
        vm.report_timing(cls.__name__, cls.started, cls.built, cls.prepared, cls.machine.boot_seconds)

    def spawn_smoke(self, name: str, arguments: str = "") -> None:
        self.machine.spawn(name, f"/bin/drm-smoke {arguments}".strip())
        # If the test fails half-way, don't leave a DRM master behind for the next one.
        self.addCleanup(self.machine.run, f"kill -KILL $(cat /tmp/bg/{name}.pid) 2>/dev/null")

    def assert_solid(self, image: vm.Image, box: tuple[int, int, int, int], color: tuple[int, int, int]) -> None:
        colors = image.region_colors(*box)
        self.assertEqual(colors, {color}, f"region {box} should be only {color}")

    def test_unknown_connector_is_one_line_listing_the_real_ones(self) -> None:
        result = self.machine.run("/bin/drm-smoke --connector HDMI-A-9")
        self.assertNotEqual(result.code, 0)
        self.assertEqual(result.output.count("\n"), 0, result.output)
        self.assertIn('connector "HDMI-A-9" not found', result.output)
        self.assertIn("Virtual-1", result.output)

    def test_unknown_mode_lists_the_connectors_modes(self) -> None:
        result = self.machine.run("/bin/drm-smoke --mode 1234x567")
        self.assertNotEqual(result.code, 0)
        self.assertIn("mode 1234x567 not offered by Virtual-1", result.output)
        self.assertIn("1280x800", result.output)

    def test_frames_then_sigterm_restores_the_crtc_and_exits_0(self) -> None:
        machine = self.machine
        self.spawn_smoke("smoke")
        log = machine.wait_for_log("smoke", "drm-smoke: frame 1 blue on screen")
        self.assertIn("connector Virtual-1", log)
        self.assertIn("buffers: 2 x 1280x800 XRGB8888", log)

        blue = machine.screendump()
        self.assertEqual((blue.width, blue.height), (1280, 800))
        self.assert_solid(blue, (0, 0, 1280, 800), BLUE)

        machine.signal("smoke", "USR1")
        machine.wait_for_log("smoke", "drm-smoke: frame 2 red|green on screen")
        split = machine.screendump()
        self.assert_solid(split, (0, 0, 640, 800), RED)
        self.assert_solid(split, (640, 0, 1280, 800), GREEN)

        # Frames 3 and 4 each rewrite only a band of rows (dirtyRows). Each lands in the buffer
        # that missed the previous frame, so the rows it missed must be caught up too.
        machine.signal("smoke", "USR1")
        machine.wait_for_log("smoke", "drm-smoke: frame 3 yellow top on screen")
        top = machine.screendump()
        self.assert_solid(top, (0, 0, 1280, 100), YELLOW)
        self.assert_solid(top, (0, 100, 640, 800), RED)
        self.assert_solid(top, (640, 100, 1280, 800), GREEN)

        machine.signal("smoke", "USR1")
        machine.wait_for_log("smoke", "drm-smoke: frame 4 white bottom on screen")
        bottom = machine.screendump()
        self.assert_solid(bottom, (0, 0, 1280, 100), YELLOW)
        self.assert_solid(bottom, (0, 100, 640, 700), RED)
        self.assert_solid(bottom, (640, 100, 1280, 700), GREEN)
        self.assert_solid(bottom, (0, 700, 1280, 800), WHITE)

        # A frame half the mode's size is centred on black.
        machine.signal("smoke", "USR1")
        machine.wait_for_log("smoke", "drm-smoke: frame 5 magenta centred on screen")
        centred = machine.screendump()
        self.assert_solid(centred, (320, 200, 960, 600), MAGENTA)
        for box in ((0, 0, 1280, 200), (0, 600, 1280, 800), (0, 200, 320, 600), (960, 200, 1280, 600)):
            self.assert_solid(centred, box, BLACK)

        machine.signal("smoke", "TERM")
        code, log = machine.wait_exit("smoke", timeout=10)
        self.assertEqual(code, 0, log)
        self.assertIn("restoring the CRTC", log)
        # Nothing was on the CRTC before (no fbdev console), so restoring turns it off: none of
        # the program's colours may stay on screen.
        after = machine.screendump()
        self.assertFalse(after.region_colors(0, 0, after.width, after.height) & {BLUE, RED, GREEN, MAGENTA})

    def test_second_program_is_told_another_one_is_master(self) -> None:
        machine = self.machine
        self.spawn_smoke("holder")
        machine.wait_for_log("holder", "drm-smoke: frame 1 blue on screen")
        second = machine.run("/bin/drm-smoke")
        self.assertNotEqual(second.code, 0)
        self.assertIn("drmModeSetCrtc failed", second.output)
        self.assertIn("another program is the DRM master", second.output)
        # The holder is undisturbed and still leaves cleanly.
        self.assert_solid(machine.screendump(), (0, 0, 1280, 800), BLUE)
        machine.signal("holder", "TERM")
        code, log = machine.wait_exit("holder", timeout=10)
        self.assertEqual(code, 0, log)

    def test_power_off_blanks_and_power_on_shows_the_frame_again(self) -> None:
        machine = self.machine
        self.spawn_smoke("power")
        machine.wait_for_log("power", "drm-smoke: frame 1 blue on screen")
        machine.signal("power", "USR2")
        machine.wait_for_log("power", "drm-smoke: power off")
        blank = machine.screendump()
        self.assertNotIn(BLUE, blank.region_colors(0, 0, blank.width, blank.height))
        machine.signal("power", "USR2")
        machine.wait_for_log("power", "drm-smoke: power on")
        self.assert_solid(machine.screendump(), (0, 0, 1280, 800), BLUE)
        machine.signal("power", "TERM")
        code, log = machine.wait_exit("power", timeout=10)
        self.assertEqual(code, 0, log)

    def test_mode_option_sets_that_mode(self) -> None:
        machine = self.machine
        self.spawn_smoke("smoke-mode", "--mode 1024x768")
        machine.wait_for_log("smoke-mode", "drm-smoke: frame 1 blue on screen")
        image = machine.screendump()
        self.assertEqual((image.width, image.height), (1024, 768))
        self.assert_solid(image, (0, 0, 1024, 768), BLUE)
        machine.signal("smoke-mode", "TERM")
        code, log = machine.wait_exit("smoke-mode", timeout=10)
        self.assertEqual(code, 0, log)


if __name__ == "__main__":
    unittest.main()
