"""`vitrine run` as a service on a real kernel: systemd's notify protocol (READY=1, STATUS=,
WATCHDOG=1) heard by a stand-in notify socket, SIGHUP reloads, the photo folder watched live,
SIGINT.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_service.py' -v
"""

from __future__ import annotations

import time
import unittest

import kiosk
from kiosk import GridLayout, grid_problems, pager_problems

FOUR = GridLayout(columns=4, spacing=4)
THREE = GridLayout(columns=3, spacing=4)
COUNT = len(kiosk.PHOTOS)


def notifications(log: str) -> list[tuple[float, str]]:
    """The notify listener's lines: (CLOCK_MONOTONIC seconds, message with " | " between lines)."""
    messages = []
    for line in log.splitlines():
        stamp, _, message = line.partition(" ")
        try:
            messages.append((float(stamp), message))
        except ValueError:
            continue  # its own "listening on" line
    return messages


class KioskServiceTest(kiosk.KioskTestCase):

    def test_notify_ready_after_the_first_frame_then_status_and_watchdog(self) -> None:
        machine = self.machine
        # The listener stops vitrine (SIGSTOP) the moment READY=1 arrives: the screen then shows
        # what was on it when vitrine said it was ready.
        self.spawn("notify", "/bin/notify-listen --stop-on-ready /run/notify.sock")
        machine.wait_for_log("notify", "listening on /run/notify.sock")
        self.spawn("vitrine", "env NOTIFY_SOCKET=/run/notify.sock WATCHDOG_USEC=2000000 "
                              "/bin/vitrine run --config /etc/vitrine.toml")
        machine.wait_for_log("notify", "stopped ", timeout=30)
        screen = machine.screendump()
        machine.signal("vitrine", "CONT")
        # A frame is on screen: every cell of the grid is drawn (a photo or its placeholder).
        drawn = [index for index in range(COUNT)
                 if not kiosk.only_black(screen, FOUR.cell_rect(index))]
        self.assertEqual(drawn, list(range(COUNT)), "READY=1 came before the grid was on screen")
        # ... on the grid's layout (photos may still be placeholders).
        layout = [problem for problem in grid_problems(screen, FOUR, COUNT) if "shows no photo" not in problem]
        self.assertEqual(layout, [], "the frame at READY=1 is not the grid")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid")
        time.sleep(4)  # the screen is still: only the watchdog speaks
        messages = notifications(machine.log_of("notify"))
        ready = [index for index, (_, message) in enumerate(messages) if "READY=1" in message]
        self.assertEqual(len(ready), 1, messages)
        self.assertIn(f"STATUS=showing {COUNT} photos", messages[ready[0]][1])
        pings = [stamp for stamp, message in messages[ready[0]:] if message == "WATCHDOG=1"]
        self.assertGreaterEqual(len(pings), 4, messages)
        # WATCHDOG_USEC=2 s: a ping at least every second (half of it), with room for the guest's jitter.
        gaps = [later - earlier for earlier, later in zip(pings, pings[1:])]
        self.assertLess(max(gaps), 1.5, f"watchdog gaps {gaps}")

        code, seconds, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertIn("STOPPING=1", machine.log_of("notify"))

    def test_display_unplugged_and_back_is_survived(self) -> None:
        machine = self.machine
        self.spawn("notify", "/bin/notify-listen /run/notify.sock")
        machine.wait_for_log("notify", "listening on /run/notify.sock")
        self.spawn("vitrine", "env NOTIFY_SOCKET=/run/notify.sock /bin/vitrine run --config /etc/vitrine.toml")
        machine.wait_for_log("vitrine", "first frame on screen", timeout=30)
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid")

        # virtio-gpu sends no uevent of its own when its connector is forced off through sysfs:
        # the "change" on the card is what a real hotplug sends (there with HOTPLUG=1).
        connector = "/sys/class/drm/card0-Virtual-1"
        self.addCleanup(machine.run, f"echo detect > {connector}/status")
        machine.check(f"echo off > {connector}/status && echo change > /sys/class/drm/card0/uevent")
        machine.wait_for_log("vitrine", "display: Virtual-1 disconnected; waiting for it to come back")
        machine.wait_for_log("notify", "STATUS=waiting for a display (Virtual-1 disconnected)")

        machine.check(f"echo detect > {connector}/status && echo change > /sys/class/drm/card0/uevent")
        machine.wait_for_log("vitrine", "display: Virtual-1 connected again")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid after the display came back")
        last_status = [message for _, message in notifications(machine.log_of("notify")) if message.startswith("STATUS=")][-1]
        self.assertTrue(last_status.startswith(f"STATUS=showing {COUNT} photos"), last_status)

        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)

    def test_sighup_reloads_and_a_broken_config_keeps_the_old_one(self) -> None:
        machine = self.machine
        machine.write_file("/etc/hup.toml", kiosk.config().encode())
        self.start_vitrine(config_path="/etc/hup.toml")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the 4-column grid")

        machine.write_file("/etc/hup.toml", kiosk.config(grid={"columns": 3}).encode())
        machine.signal("vitrine", "HUP")
        machine.wait_for_log("vitrine", "SIGHUP: configuration reloaded")
        self.wait_for_screen(lambda image: grid_problems(image, THREE, COUNT), what="the 3-column grid after SIGHUP")

        machine.write_file("/etc/hup.toml", b"[grid]\ncolums = 5\n")
        machine.signal("vitrine", "HUP")
        log = machine.wait_for_log("vitrine", "SIGHUP: keeping the old configuration")
        self.assertIn("colums", log)
        time.sleep(0.5)
        self.assertEqual(grid_problems(machine.screendump(), THREE, COUNT), [],
                         "the 3-column grid is gone after a broken config")
        self.assertNotEqual(machine.run("kill -0 $(cat /tmp/bg/vitrine.pid)").code, 1, "vitrine died")
        self.assertEqual(machine.run("test -e /tmp/bg/vitrine.rc").code, 1, "vitrine exited")

        code, seconds, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)

    def test_photos_added_to_the_folder_appear_and_deleting_the_open_one_closes_it(self) -> None:
        machine = self.machine
        machine.check("rm -f /photos/07-* /photos/08-*")
        self.addCleanup(machine.run, "rm -f /photos/07-* /photos/08-*")
        self.start_vitrine()
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid")
        self.start_touchscreen()

        # Written under another name, then renamed into place.
        spare = f"/spare/{kiosk.EXTRA_PHOTO}"
        machine.check(f"cp {spare} /photos/.incoming && mv /photos/.incoming /photos/07-renamed.jpg")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT + 1), what="the grid with the renamed photo")

        # A slow copy: half, a pause with the file still open, the rest. Half a photo never shows.
        size = int(machine.check(f"wc -c < {spare}"))
        self.spawn("copy", f"sh -c '(head -c {size // 2} {spare}; sleep 2; tail -c +{size // 2 + 1} {spare}) "
                              f"> /photos/08-slow.jpg'")
        time.sleep(1)
        self.assertEqual(grid_problems(machine.screendump(), FOUR, COUNT + 1), [],
                         "the grid changed while a photo was half copied")
        self.assertEqual(machine.wait_exit("copy", timeout=10)[0], 0)
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT + 2), what="the grid with the slow copy")
        self.assertNotIn("08-slow.jpg", machine.log_of("vitrine").split("photo folder changed")[0])

        # Open the renamed photo, then delete it: the pager closes back to the grid.
        self.touch("tap %d %d" % FOUR.centre(COUNT))
        self.wait_for_screen(lambda image: pager_problems(image, (1008, 1412)), what="the renamed photo opened")
        machine.check("rm /photos/07-renamed.jpg")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT + 1), what="the grid after deleting the open photo")

        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)

    def test_sigint_exits_0_within_a_second(self) -> None:
        self.start_vitrine()
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), what="the grid")
        code, seconds, log = self.stop_and_time("vitrine", "INT")
        self.assertEqual(code, 0, log)
        self.assertLess(seconds, 1.0, f"SIGINT to exit took {seconds:.2f} s; log:\n{log}")
        self.assertIn("SIGINT: stopping", log)


if __name__ == "__main__":
    unittest.main()
