"""`vitrine run` on a real kernel: virtio-gpu through DRM/KMS, touches from a uinput touchscreen
(and qemu's virtio tablet), checked by screendumps against the grid's layout.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_touch.py' -v
"""

from __future__ import annotations

import time
import unittest

import kiosk
from kiosk import GridLayout, grid_problems, pager_problems

LAYOUT = GridLayout(columns=4, spacing=4)
COUNT = len(kiosk.PHOTOS)
LAKESIDE = kiosk.PHOTOS.index("01-lakeside.jpg")
PORTRAIT = kiosk.PHOTOS.index("02-portrait.jpg")
VIVID = (255, 0, 0), (0, 0, 255)


class KioskTouchTest(kiosk.KioskTestCase):
    extra_qemu_arguments = ["-device", "virtio-tablet-pci"]

    def assert_grid(self, what: str) -> None:
        self.wait_for_screen(lambda image: grid_problems(image, LAYOUT, COUNT), what=what)

    def test_tap_opens_the_photo_drag_dismisses_it_and_sigterm_restores_the_crtc(self) -> None:
        machine = self.machine
        log = self.start_vitrine()
        self.assertIn("display: connector Virtual-1", log)
        self.assertIn(f"showing {COUNT} photos from /photos", log)
        self.assert_grid("the grid after start")

        self.start_touchscreen()
        self.touch("tap %d %d" % LAYOUT.centre(PORTRAIT))
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["02-portrait.jpg"]),
                             what="the portrait aspect-fit after the tap")

        # Down 300 px over 0.4 s, lifted while still moving: the photo flies back into its cell.
        self.touch("drag 640 300 640 600 400")
        self.assert_grid("the grid after drag-to-dismiss")

        code, seconds, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertLess(seconds, 1.0, f"SIGTERM to exit took {seconds:.2f} s; log:\n{log}")
        self.assertIn("stopped; display restored", log)
        self.assertNotIn("[error]", log)
        # Nothing was on the CRTC before (no fbdev console): restored, it is off, so none of the
        # grid stays on screen.
        after = machine.screendump()
        self.assertTrue(grid_problems(after, LAYOUT, COUNT), "the grid is still on screen after exit")
        self.assertFalse(kiosk.photo_content(after, LAYOUT.cell_rect(LAKESIDE)), "a photo is still on screen")

    def test_tablet_tap_is_one_pointer(self) -> None:
        machine = self.machine
        log = self.start_vitrine()
        self.assertRegex(log, r'touch: /dev/input/event\d+ "QEMU Virtio Tablet"')
        self.assert_grid("the grid after start")
        x, y = LAYOUT.centre(LAKESIDE)
        self.tablet_tap(x, y)
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             what="the lakeside aspect-fit after the tablet tap")
        self.tablet_drag((640, 300), (640, 600), 0.4)
        self.assert_grid("the grid after the tablet's drag-to-dismiss")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)

    def test_touchscreen_unplugged_plugged_in_again_and_overflowed(self) -> None:
        machine = self.machine
        self.start_vitrine()
        first = self.start_touchscreen()
        self.assert_grid("the grid after start")
        # Unplugged: the injector destroys its device.
        machine.check("echo quit > /tmp/touch.fifo")
        self.assertEqual(machine.wait_exit("touch")[0], 0)
        machine.wait_for_log("vitrine", f"input device {first} went away")
        # Plugged in again: opened as it appears.
        self.start_touchscreen()

        # vitrine stopped while a long drag comes in: its evdev buffer overflows (SYN_DROPPED).
        # Both axes move every 10 ms (the kernel drops packets that change nothing): ~1500 events
        # against a buffer of 512.
        machine.signal("vitrine", "STOP")
        self.touch("drag 100 700 1200 100 3000")
        machine.signal("vitrine", "CONT")
        machine.wait_for_log("vitrine", "SYN_DROPPED", timeout=10)
        # Read back, the finger is up: the grid comes to rest and the next tap is a tap.
        self.assert_grid("the grid after the overflow")
        self.touch("tap %d %d" % LAYOUT.centre(PORTRAIT))
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["02-portrait.jpg"]),
                             what="the portrait after a tap following the overflow")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)

    def test_display_rotation_turns_the_picture_and_the_touches(self) -> None:
        """display.rotation = 90: the scene is drawn upright at 800x1280 and turned onto the
        1280x800 panel; the touch layer sits on the panel, so its points are turned back."""
        machine = self.machine
        machine.write_file("/etc/turned.toml", kiosk.config(display={"rotation": 90}).encode())
        log = self.start_vitrine(config_path="/etc/turned.toml")
        self.assertIn("rotation 90° (display.rotation), scene 800x1280", log)
        self.start_touchscreen()
        upright = GridLayout(columns=4, spacing=4, width=800, height=1280)
        self.wait_for_screen(lambda image: grid_problems(kiosk.TurnedScreen(image), upright, COUNT),
                             what="the grid turned a quarter clockwise")
        self.touch("tap %d %d" % kiosk.TurnedScreen.panel_point(*upright.centre(LAKESIDE)))
        self.wait_for_screen(lambda image: pager_problems(kiosk.TurnedScreen(image), kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             what="the lakeside (the tapped cell) aspect-fit, turned")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)

    def test_still_screen_costs_no_cpu(self) -> None:
        """A still screen draws nothing: the grid at rest, and the pager once the opening spring
        has settled (an animation that never reports its end would keep drawing)."""
        # log.level "debug" writes one line per frame drawn: the frames are counted from it.
        self.machine.write_file("/etc/frames.toml", kiosk.config(log={"level": "debug"}).encode())
        self.start_vitrine(config_path="/etc/frames.toml")
        self.start_touchscreen()
        self.assert_grid("the grid after start")
        self.assert_idle("the grid")
        self.touch("tap %d %d" % LAYOUT.centre(LAKESIDE))
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             what="the lakeside after the tap")
        self.assert_idle("the pager")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        drawn = self.frames_drawn()
        self.assertGreater(drawn, 0, "no frame lines at log.level debug")
        self.assertIn(f"stopped; display restored ({drawn} frames drawn since start)", log)

    def frames_drawn(self) -> int:
        """vitrine's "frame N: mode" lines so far (log.level debug): one per frame on screen."""
        return sum(1 for line in self.machine.log_of("vitrine").splitlines()
                   if line.startswith("vitrine[debug]: frame "))

    def assert_idle(self, what: str) -> None:
        # The decoders finish the neighbours first (seconds under TCG), each one drawn when done.
        deadline = time.monotonic() + 15
        before = self.cpu_ticks("vitrine")
        while time.monotonic() < deadline:
            time.sleep(1)
            now = self.cpu_ticks("vitrine")
            quiet, before = now - before <= 2, now
            if quiet:
                break
        frames_before = self.frames_drawn()
        time.sleep(3)
        spent = self.cpu_ticks("vitrine") - before
        # 3 s of a still screen: no frames, a few housekeeping ticks (100 clock ticks per second;
        # one frame of this size costs several under TCG), and the main thread asleep in epoll_wait.
        self.assertEqual(self.frames_drawn() - frames_before, 0, f"frames drawn in 3 s of a still screen showing {what}")
        self.assertLessEqual(spent, 6, f"{spent} clock ticks of CPU in 3 s of a still screen showing {what}")
        pid = self.machine.check("cat /tmp/bg/vitrine.pid").strip()
        state = self.machine.check(f"cat /proc/{pid}/stat").rsplit(")", 1)[1].split()[0]
        waiting_in = self.machine.check(f"cat /proc/{pid}/wchan").strip()
        self.assertEqual((state, waiting_in), ("S", "do_epoll_wait"),
                         f"the main thread of a still screen showing {what}: state, wchan")

    def test_blank_after_idle_and_the_waking_touch_opens_nothing(self) -> None:
        machine = self.machine
        # Long enough for the guest (TCG) to decode the thumbnails; the checks after a touch
        # must finish before the screen goes dark again.
        machine.write_file("/etc/blank.toml", kiosk.config(kiosk={"blank_after": 6.0}).encode())
        self.start_vitrine(config_path="/etc/blank.toml")
        self.start_touchscreen()
        machine.wait_for_log("vitrine", "display off", timeout=30)
        # DPMS off: qemu shows its "Display output is not active." on black; no photo anywhere.
        blank = machine.screendump()
        lit = [index for index in range(COUNT) if kiosk.photo_content(blank, LAYOUT.cell_rect(index))]
        self.assertEqual(lit, [], "photos still on screen when blanked")

        # The waking tap lands on a photo but only wakes the screen. A photo it opened would be
        # in the pager a second later; the grid is there instead.
        self.touch("tap %d %d" % LAYOUT.centre(PORTRAIT))
        machine.wait_for_log("vitrine", "touch: display on", timeout=5)
        time.sleep(1)
        self.wait_for_screen(lambda image: grid_problems(image, LAYOUT, COUNT), timeout=4,
                             what="the grid after the waking tap")
        # The next tap is an ordinary one.
        self.touch("tap %d %d" % LAYOUT.centre(PORTRAIT))
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["02-portrait.jpg"]), timeout=5,
                             what="the portrait after the second tap")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)

    def test_idle_timeout_zooms_the_photo_back_into_the_grid(self) -> None:
        machine = self.machine
        machine.write_file("/etc/idle.toml", kiosk.config(kiosk={"idle_timeout": 5.0}).encode())
        self.start_vitrine(config_path="/etc/idle.toml")
        self.start_touchscreen()
        self.assert_grid("the grid after start")
        self.touch("tap %d %d" % LAYOUT.centre(PORTRAIT))
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["02-portrait.jpg"]), timeout=4,
                             what="the portrait after the tap")
        # Nobody touches it: 5 s after the tap it closes by itself.
        self.assert_grid("the grid after the idle timeout")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)

    # -- qemu's virtio tablet through QMP -----------------------------------------------------

    def tablet_events(self, x: float, y: float, down: bool | None = None) -> None:
        events = [{"type": "abs", "data": {"axis": "x", "value": round(x / kiosk.WIDTH * 32767)}},
                  {"type": "abs", "data": {"axis": "y", "value": round(y / kiosk.HEIGHT * 32767)}}]
        if down is not None:
            events.append({"type": "btn", "data": {"down": down, "button": "left"}})
        self.machine.qmp.execute("input-send-event", events=events)

    def tablet_tap(self, x: float, y: float) -> None:
        self.tablet_events(x, y, down=True)
        time.sleep(0.05)
        self.tablet_events(x, y, down=False)

    def tablet_drag(self, start: tuple[float, float], end: tuple[float, float], seconds: float) -> None:
        self.tablet_events(*start, down=True)
        steps = max(1, int(seconds / 0.02))
        for step in range(1, steps + 1):
            time.sleep(0.02)
            self.tablet_events(start[0] + (end[0] - start[0]) * step / steps,
                               start[1] + (end[1] - start[1]) * step / steps)
        self.tablet_events(*end, down=False)


if __name__ == "__main__":
    unittest.main()
