"""The status page (SPEC §14) in a real browser: Debian's headless Chromium, driven through the
DevTools protocol (chromium.py), against `vitrine run` in qemu, its remote server on the guest's
0.0.0.0:9180 reached through guest networking (a port forwarded from the host's loopback).

At a phone's size (390x844 CSS px, mobile): the page loads with no console error and no CSP
violation, shows /status, fits the width; a wrong token gets the server's refusal in a clear
message; with the right token the screenshot appears and shows what the screen shows (compared
block by block with QMP's screendump); a click on "Next" changes the current photo in /status.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_status_page.py' -v

VITRINE_STATUS_PAGE_PICTURE=docs/status-page.png also writes the page as the phone shows it at
the end (the README's picture).
"""

from __future__ import annotations

import json
import os
import time
import unittest
import urllib.request
from pathlib import Path

import chromium
import kiosk
import vm
from kiosk import GridLayout, grid_problems, pager_problems

FOUR = GridLayout(columns=4, spacing=4)
COUNT = len(kiosk.PHOTOS)
TOKEN = "phone-token-7f3a"
PHONE = (390, 844)


def block_means(pixel, width: int, height: int, columns: int, rows: int) -> list[tuple[float, float, float]]:
    """The mean colour of each of columns x rows blocks of an image (`pixel(x, y)` -> r, g, b),
    sampled on a grid inside each block."""
    means = []
    for row in range(rows):
        for column in range(columns):
            x0, x1 = column * width // columns, (column + 1) * width // columns
            y0, y1 = row * height // rows, (row + 1) * height // rows
            samples = [pixel(x, y) for y in range(y0, y1, max(1, (y1 - y0) // 8))
                       for x in range(x0, x1, max(1, (x1 - x0) // 8))]
            means.append(tuple(sum(sample[c] for sample in samples) / len(samples) for c in range(3)))
    return means


@unittest.skipUnless(chromium.chromium_binary(), "chromium is not installed: skipping the browser test")
class StatusPageTest(kiosk.KioskTestCase):
    base_config = kiosk.config(remote={"listen": "0.0.0.0:9180", "token_file": "/etc/remote.token"})
    extra_files = {"/etc/remote.token": (TOKEN + "\n").encode()}
    guest_ports = (9180,)
    guest_tools = ()

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.browser = chromium.Chromium()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.browser.close()
        super().tearDownClass()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.machine.host_port(9180)}{path}"

    def status(self) -> dict:
        with urllib.request.urlopen(self.url("/status"), timeout=20) as answer:
            return json.load(answer)

    def test_the_page_on_a_phone(self) -> None:
        machine = self.machine
        self.start_vitrine()
        machine.wait_for_log("vitrine", "remote: listening on 0.0.0.0:9180", timeout=10)
        self.wait_for_screen(lambda image: grid_problems(image, FOUR, COUNT), timeout=60, what="the grid")

        page = self.browser.new_page(*PHONE, mobile=True, scale=2)
        page.navigate(self.url())
        self.addCleanup(lambda: print(f"\npage problems: {page.problems()}") if page.problems() else None)
        # The policy the server sent is the one the browser enforces; the page's own script runs.
        page.wait_until("document.getElementById('count').textContent === '6'", what="the photo count shown")
        self.assertEqual(page.evaluate("document.getElementById('state').textContent"), "showing")
        self.assertEqual(page.evaluate("document.getElementById('current').textContent"), "grid")
        self.assertTrue(page.evaluate("document.getElementById('display').textContent").startswith("Virtual-"))

        # Readable on the phone: nothing wider than the screen, 16 px text, buttons a finger can hit.
        self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), PHONE[0])
        self.assertEqual(page.evaluate("getComputedStyle(document.body).fontSize"), "16px")
        self.assertEqual(page.evaluate("innerWidth"), PHONE[0])

        self.assertEqual(page.problems(), [], "console errors or CSP violations while loading")

        # A wrong token: the server's refusal, said, and the token asked for again.
        page.type_into("#token", "not-" + TOKEN)
        page.click("#token-form button[type=submit]")
        message = page.wait_until("document.getElementById('message').textContent", what="a message after a wrong token")
        self.assertIn("refused the token", message)
        self.assertIn("wrong token", message)  # the 401's own text
        self.assertFalse(page.evaluate("document.getElementById('token-form').hidden"))
        self.assertTrue(page.evaluate("document.getElementById('actions').hidden"))
        self.assertIsNone(page.evaluate("sessionStorage.getItem('vitrine.token')"))
        # The browser's own console line for the refused request is all it logged.
        refused = page.problems()
        self.assertTrue(all("status of 401" in line and "/screenshot" in line for line in refused), refused)

        # The right token: the buttons, and the screenshot, which is what the screen shows.
        page.type_into("#token", TOKEN)
        page.click("#token-form button[type=submit]")
        page.wait_until("!document.getElementById('actions').hidden", what="the action buttons")
        page.wait_until("(() => { const i = document.getElementById('screenshot');"
                        " return !i.hidden && i.complete && i.naturalWidth > 0; })()",
                        timeout=30, what="the screenshot shown")
        self.assertEqual(page.evaluate("[document.getElementById('screenshot').naturalWidth,"
                                       " document.getElementById('screenshot').naturalHeight]"), [kiosk.WIDTH, kiosk.HEIGHT])
        self.assertEqual(page.evaluate("document.getElementById('screenshot').src.slice(0, 5)"), "blob:")
        box = page.rect("#screenshot")
        shown_width, shown_height, channels, pixels = chromium.decode_png(page.screenshot(clip=box))
        screen = machine.screendump()
        columns, rows = 16, 10
        shown = block_means(lambda x, y: pixels[(y * shown_width + x) * channels:(y * shown_width + x) * channels + 3],
                            shown_width, shown_height, columns, rows)
        expected = block_means(screen.pixel, screen.width, screen.height, columns, rows)
        differences = [max(abs(a - b) for a, b in zip(one, other)) for one, other in zip(shown, expected)]
        # The grid's blocks differ from one another (photos and black gaps), so agreeing is telling.
        self.assertGreater(len({tuple(round(c / 16) for c in mean) for mean in expected}), 20)
        far = [index for index, difference in enumerate(differences) if difference > 24]
        self.assertLessEqual(len(far), columns * rows // 20,
                             f"the page's screenshot is not the screen: blocks {far} differ by up to {max(differences):.0f}")

        # "Next" from the grid opens the first photo, then pages to the second.
        self.assertIsNone(self.status()["current_photo"])
        page.click('[data-action="next"]')
        self.wait_for_status(lambda status: (status["current_photo"] or {}).get("index") == 0, "photo 0 after Next", timeout=20)
        self.assertEqual(page.wait_until("document.getElementById('message').textContent"), "Next: taken.")
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["01-lakeside.jpg"]),
                             what="photo 0 on screen")
        page.click('[data-action="next"]')
        self.wait_for_status(lambda status: status["current_photo"]["index"] == 1, "photo 1 after Next", timeout=20)
        self.wait_for_screen(lambda image: pager_problems(image, kiosk.PHOTO_SIZES["02-portrait.jpg"]),
                             what="photo 1 on screen")
        # The page follows: its status says so, and a later screenshot is the portrait.
        page.wait_until("document.getElementById('current').textContent.includes('02-portrait.jpg')",
                        what="the page's status after Next")

        self.assertEqual(page.problems()[len(refused):], [], "console errors or CSP violations")
        picture = os.environ.get("VITRINE_STATUS_PAGE_PICTURE")
        if picture:
            time.sleep(2 * 3 + 2)  # two of the page's refreshes: its screenshot is the portrait's
            page.evaluate("window.scrollTo(0, 0)")
            Path(picture).write_bytes(page.screenshot())

        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
