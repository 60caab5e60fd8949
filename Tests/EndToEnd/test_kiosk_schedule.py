"""Opening hours on the real kernel (SPEC §8): `vitrine run` in qemu with its clock set by hand.

The guest has no zone files: TZ is Europe/Berlin's POSIX rule, as /etc/localtime would give it.
The connector's DPMS state is read where the kernel shows it (/sys/class/drm/card*-Virtual-1/dpms),
and the screen through QMP screendumps.

- Setting the clock past closing time (`date -s`, as NTP does after boot) closes at once: the
  wall-clock timerfd (TFD_TIMER_CANCEL_ON_SET) hears it, the display goes off (DPMS Off) and no photo
  is on screen; the log says when it opens again.
- Set to five seconds before Monday's opening, the clock crosses the boundary by itself: the display
  comes back on (DPMS On) with the grid.
- A touch while closed turns the screen on for `touch_wakes` seconds, then it goes off again.
- STATUS= (heard by the notify listener) says "closed until Mon 09:00"; started while closed, the
  service is ready (READY=1) with the display off and nothing drawn.
"""

from __future__ import annotations

import time
import unittest

import kiosk

BERLIN = "CET-1CEST,M3.5.0,M10.5.0/3"
LAYOUT = kiosk.GridLayout()
COUNT = len(kiosk.PHOTOS)


class ScheduleTest(kiosk.KioskTestCase):
    base_config = kiosk.config(schedule={"hours": ["mon-fri 09:00-18:00"], "touch_wakes": 4.0})

    def dpms(self) -> str:
        return self.machine.check("cat /sys/class/drm/card*-Virtual-1/dpms").strip()

    def wait_for_dpms(self, state: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.dpms() != state:
            if time.monotonic() > deadline:
                self.fail(f"DPMS is {self.dpms()}, not {state}, after {timeout} s; vitrine's log:\n"
                          + self.machine.log_of("vitrine")[-3000:])
            time.sleep(0.2)

    def assert_dark(self, what: str) -> None:
        image = self.machine.screendump()
        lit = [index for index in range(COUNT) if kiosk.photo_content(image, LAYOUT.cell_rect(index))]
        self.assertEqual(lit, [], f"photos on screen {what}")

    def test_the_display_goes_off_at_closing_and_on_at_opening(self) -> None:
        machine = self.machine
        # Friday 2026-11-27 17:58:00 in Berlin (CET, UTC+1): open.
        machine.check("date -u -s '2026-11-27 16:58:00'")
        self.spawn("notify", "/bin/notify-listen /run/notify.sock")
        machine.wait_for_log("notify", "listening on /run/notify.sock")
        self.start_vitrine(environment=f"TZ={BERLIN} NOTIFY_SOCKET=/run/notify.sock")
        self.wait_for_screen(lambda image: kiosk.grid_problems(image, LAYOUT, COUNT), what="the grid while open")
        self.assertEqual(self.dpms(), "On")

        # NTP (here: date -s) sets the clock past closing time: closed at once, not at the next tick.
        machine.check("date -u -s '2026-11-27 17:00:05'")
        log = machine.wait_for_log("vitrine", "opening hours: closed until Mon 09:00", timeout=5)
        self.assertIn("the wall clock was set", log)
        self.wait_for_dpms("Off")
        self.assert_dark("after closing")
        machine.wait_for_log("notify", "STATUS=closed until Mon 09:00", timeout=5)

        # A touch while closed wakes the screen for touch_wakes (4 s), then it is off again.
        self.start_touchscreen()
        self.touch("tap %d %d" % LAYOUT.centre(1))
        machine.wait_for_log("vitrine", "touch while closed: display on for 4 s", timeout=5)
        self.wait_for_dpms("On", timeout=5)
        self.wait_for_screen(lambda image: kiosk.grid_problems(image, LAYOUT, COUNT), timeout=4,
                             what="the grid woken by a touch while closed")
        self.wait_for_dpms("Off", timeout=10)

        # Monday 2026-11-30 08:59:55: still closed; five seconds later the boundary passes by itself.
        machine.check("date -u -s '2026-11-30 07:59:55'")
        time.sleep(1)
        self.assertEqual(self.dpms(), "Off")
        machine.wait_for_log("vitrine", "opening hours: open; display on", timeout=15)
        self.wait_for_dpms("On")
        self.wait_for_screen(lambda image: kiosk.grid_problems(image, LAYOUT, COUNT), what="the grid at opening")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)

    def test_started_while_closed_it_is_ready_with_the_display_off(self) -> None:
        machine = self.machine
        # Sunday 2026-11-29 12:00 in Berlin.
        machine.check("date -u -s '2026-11-29 11:00:00'")
        self.spawn("notify", "/bin/notify-listen /run/notify.sock")
        machine.wait_for_log("notify", "listening on /run/notify.sock")
        self.spawn("vitrine", f"env TZ={BERLIN} NOTIFY_SOCKET=/run/notify.sock /bin/vitrine run --config /etc/vitrine.toml")
        machine.wait_for_log("notify", "READY=1 | STATUS=closed until Mon 09:00", timeout=30)
        self.wait_for_dpms("Off")
        self.assert_dark("when started while closed")
        self.assertNotIn("first frame on screen", machine.log_of("vitrine"))
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)


if __name__ == "__main__":
    unittest.main()
