"""Remote sources through rclone (SPEC §14, README "Remote sources (rclone)") with `vitrine run`
on a real display, in qemu: Debian's rclone (1.60) copied into the guest serves a WebDAV share on
the guest's loopback (`rclone serve webdav`) and mirrors it into the kiosk's photo folder
(`rclone sync`, the options of systemd/vitrine-rclone.service) while the kiosk shows that folder.
A sync adds the photos to the grid (seen in /status and on the screen), never a half-copied one
(nothing in the log says a photo was damaged or skipped), a photo deleted at the source leaves, a
photo changed at the source is rewritten in place and shown whole, and with the source down the
sync fails and the grid keeps the last synced set.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_rclone.py' -v
"""

from __future__ import annotations

import json
import shutil
import time

import kiosk
import vm
from kiosk import GridLayout, grid_problems

FOUR = GridLayout(columns=4, spacing=4)
URL = "http://127.0.0.1:9180"
RCLONE = shutil.which("rclone")
RCLONE_CONF = b"""[photos]
type = webdav
url = http://127.0.0.1:8080/
vendor = other
"""
# The unit's options (systemd/vitrine-rclone.service), the timeouts short for a source that is down.
SYNC = ("env HOME=/tmp /bin/rclone sync photos: /mirror --config /etc/rclone.conf --cache-dir /tmp/rclone "
        "--ignore-case --max-depth 1 --filter '- .*' "
        "--filter '+ *.{jpg,jpeg,heic,heif,avif,webp,png,mp4,mov,m4v,mkv,webm}' --filter '- *' "
        "--max-delete 500 --transfers 2 --contimeout 2s --timeout 10s --retries 1 --low-level-retries 1 -v")


@kiosk.unittest.skipUnless(RCLONE, "rclone is not installed (scripts/install-deps installs it)")
class KioskRcloneTest(kiosk.KioskTestCase):
    base_config = kiosk.config(photos={"directory": "/mirror"}, remote={"listen": "127.0.0.1:9180"})
    extra_binaries = {"/bin/rclone": RCLONE} if RCLONE else {}
    extra_files = {"/etc/rclone.conf": RCLONE_CONF}

    def status(self) -> dict:
        return json.loads(self.machine.check(f"wget -q -O - {URL}/status"))

    def sync(self, name: str, bandwidth: str | None = None, timeout: float = 120) -> tuple[int, str, list[int]]:
        """Runs the sync in the background; returns its exit code, its log and the photo counts
        /status told while it ran."""
        limit = f" --bwlimit {bandwidth}" if bandwidth else ""
        self.spawn(name, SYNC + limit)
        counts = []
        deadline = time.monotonic() + timeout
        while self.machine.run(f"test -e /tmp/bg/{name}.rc").code != 0:
            self.assertLess(time.monotonic(), deadline, f"{name} still running:\n{self.machine.log_of(name)}")
            count = self.status()["photo_count"]
            if not counts or counts[-1] != count:
                counts.append(count)
            time.sleep(0.3)
        code, log = self.machine.wait_exit(name)
        return code, log, counts

    def wait_for_count(self, count: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.status()["photo_count"] != count:
            self.assertLess(time.monotonic(), deadline, f"photo_count is {self.status()['photo_count']}, not {count}")
            time.sleep(0.2)

    def assert_nothing_half_shown(self) -> None:
        log = self.machine.log_of("vitrine")
        bad = [line for line in log.splitlines() if "damaged" in line or "Skipping photo" in line]
        self.assertEqual(bad, [], "a photo was read before it was complete")

    def test_a_webdav_share_mirrored_by_rclone_while_the_kiosk_shows_the_folder(self) -> None:
        machine = self.machine
        machine.check("ip link set lo up")
        # The share holds the six photos; the kiosk has one of them from an earlier sync (same
        # size and time: rclone leaves it).
        machine.check("mkdir -p /mirror /share /tmp/rclone && cp -p /photos/*.jpg /share/ "
                      "&& cp -p /photos/05-sunset-panorama.jpg /mirror/")
        self.start_vitrine()
        machine.wait_for_log("vitrine", "remote: listening on 127.0.0.1:9180", timeout=10)
        self.assertEqual(self.status()["photo_count"], 1)
        self.spawn("share", "env HOME=/tmp /bin/rclone serve webdav --addr 127.0.0.1:8080 /share")
        machine.check("vm-wait 30 wget -q -O /dev/null http://127.0.0.1:8080/", timeout=40)

        # The first sync, slowed: the grid fills while it runs.
        code, log, counts = self.sync("sync1", bandwidth="600k")
        self.assertEqual(code, 0, log)
        self.wait_for_count(len(kiosk.PHOTOS))
        print(f"\n[rclone] photo_count while the first sync ran: {counts}", flush=True)
        self.assertEqual(counts, sorted(counts), "the count went down during a sync that only adds")
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, len(kiosk.PHOTOS)), timeout=60,
                             what="the grid of the synced photos")
        self.assert_nothing_half_shown()

        # Deleted at the source (through the share): it leaves the grid.
        machine.check("env HOME=/tmp /bin/rclone deletefile photos:03-dragonfly.jpg --config /etc/rclone.conf", timeout=60)
        code, log, _ = self.sync("sync2")
        self.assertEqual(code, 0, log)
        self.wait_for_count(len(kiosk.PHOTOS) - 1)
        self.assertNotIn("03-dragonfly.jpg", machine.check("ls /mirror"))
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, len(kiosk.PHOTOS) - 1), timeout=30,
                             what="the grid without the deleted photo")

        # Changed at the source: rclone writes it again in place, under the name the grid shows.
        machine.check(f"env HOME=/tmp /bin/rclone copyto /spare/{kiosk.EXTRA_PHOTO} photos:01-lakeside.jpg "
                      "--config /etc/rclone.conf", timeout=60)
        before = machine.screendump()
        code, log, counts = self.sync("sync3", bandwidth="300k")
        self.assertEqual(code, 0, log)
        self.assertIn("01-lakeside.jpg: Copied (replaced existing)", log)
        print(f"[rclone] photo_count while a photo was rewritten in place: {counts}", flush=True)
        self.wait_for_count(len(kiosk.PHOTOS) - 1)
        after = self.wait_for_screen(lambda image: grid_problems(image, FOUR, len(kiosk.PHOTOS) - 1), timeout=30,
                                     what="the grid with the changed photo")
        cell = FOUR.cell_rect(0)
        self.assertNotEqual(before.region_colors(*cell, step=9), after.region_colors(*cell, step=9),
                            "the first cell still shows the old photo")
        self.assert_nothing_half_shown()

        # The source down: the sync fails, nothing is deleted, the grid stays.
        machine.kill("share")
        code, log, counts = self.sync("sync4")
        self.assertNotEqual(code, 0, log)
        self.assertLessEqual(set(counts), {len(kiosk.PHOTOS) - 1}, "the grid changed while the source was down")
        self.assertEqual(len(machine.check("ls /mirror").split()), len(kiosk.PHOTOS) - 1)
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, len(kiosk.PHOTOS) - 1), timeout=10,
                             what="the grid with the source down")
        self.assertEqual(self.status()["photo_count"], len(kiosk.PHOTOS) - 1)
        self.assert_nothing_half_shown()


if __name__ == "__main__":
    kiosk.unittest.main()
