"""`vitrine run` started before the display driver has loaded (SPEC §7): it says "waiting for a
display" in its log and in STATUS=, is not ready, and once the driver probes (virtio-gpu loaded
seconds later, as real boards' DRM drivers load late) takes the card and shows the grid.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_late_display.py' -v
"""

from __future__ import annotations

import time
import unittest

import kiosk
from kiosk import GridLayout, grid_problems

FOUR = GridLayout(columns=4, spacing=4)
COUNT = len(kiosk.PHOTOS)


class LateDisplayTest(kiosk.KioskTestCase):
    deferred_modules = ["virtio-gpu"]

    def test_run_waits_for_the_display_driver_then_shows_the_grid(self) -> None:
        machine = self.machine
        machine.check("test ! -e /dev/dri/card0")
        self.spawn("notify", "/bin/notify-listen /run/notify.sock")
        machine.wait_for_log("notify", "listening on /run/notify.sock")
        self.spawn("vitrine", "env NOTIFY_SOCKET=/run/notify.sock /bin/vitrine run --config /etc/vitrine.toml")
        machine.wait_for_log("vitrine", "waiting for a display", timeout=30)
        machine.wait_for_log("notify", "STATUS=waiting for a display")
        time.sleep(2)
        self.assertNotIn("READY=1", machine.log_of("notify"))
        self.assertNotEqual(machine.run("test -e /tmp/bg/vitrine.rc").code, 0,
                            f"vitrine exited while waiting:\n{machine.log_of('vitrine')}")

        machine.check("insmod /lib/modules/virtio-gpu.ko")
        machine.wait_for_log("vitrine", "first frame on screen", timeout=30)
        machine.wait_for_log("notify", "READY=1")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid")

        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)


if __name__ == "__main__":
    unittest.main()
