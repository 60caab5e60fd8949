"""Captions on the real display (SPEC §10): `vitrine run` in the guest, with fontconfig and DejaVu
Sans as a kiosk has them, opens the slideshow on a photo captioned by a sidecar and by XMP, and
the screen shows white text at the bottom. The photo is a 9:1 panorama, so the bottom of the
screen is the pager's black everywhere except where a caption is drawn.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_captions.py' -v
"""

from __future__ import annotations

import unittest

import kiosk
import vm

PANORAMA = kiosk.SAMPLES / "05-sunset-panorama.jpg"


def with_xmp(jpeg: bytes, title: str, description: str) -> bytes:
    """The JPEG with an APP1 XMP packet after its SOI marker, as exiftool writes dc:title/dc:description."""
    def alt(name: str, value: str) -> str:
        return f'<{name}><rdf:Alt><rdf:li xml:lang="x-default">{value}</rdf:li></rdf:Alt></{name}>'
    packet = ("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
              "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
              + alt("dc:title", title) + alt("dc:description", description)
              + "</rdf:Description></rdf:RDF></x:xmpmeta>").encode()
    payload = b"http://ns.adobe.com/xap/1.0/\0" + packet
    segment = b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload
    return jpeg[:2] + segment + jpeg[2:]


def caption_pixels(image: vm.Image) -> frozenset[tuple[int, int]]:
    """Where the bottom rows are white: the caption's text."""
    return frozenset((x, y) for y in range(kiosk.HEIGHT - 90, kiosk.HEIGHT) for x in range(0, kiosk.WIDTH, 2)
                     if min(image.pixel(x, y)) > 200)


def caption_problems(image: vm.Image) -> list[str]:
    """White text in the bottom rows (black there without a caption), none in the top ones."""
    def white(y0: int, y1: int) -> int:
        return sum(1 for y in range(y0, y1) for x in range(0, kiosk.WIDTH, 2)
                   if min(image.pixel(x, y)) > 200)
    bottom, top = white(kiosk.HEIGHT - 90, kiosk.HEIGHT), white(0, 200)
    problems = []
    if bottom < 100:
        problems.append(f"{bottom} white pixels in the bottom 90 rows: no caption")
    if top > 0:
        problems.append(f"{top} white pixels in the top 200 rows, which are black")
    return problems


class CaptionsTest(kiosk.KioskTestCase):
    extra_files = {
        "/captioned/1-sidecar.jpg": PANORAMA,
        "/captioned/1-sidecar.txt": "Sunset over the hills\nThe last light, from the ridge above the lake.\n".encode(),
        "/captioned/2-xmp.jpg": with_xmp(PANORAMA.read_bytes(), "Crête au couchant", "שלום — the same ridge, from XMP"),
        "/etc/captions.toml": (b'[photos]\ndirectory = "/captioned"\n[kiosk]\nidle_timeout = 1\n'
                               b'idle_action = "slideshow"\nslideshow_interval = 6\n[captions]\nshow = true\n'),
    }

    def test_the_slideshow_shows_each_photos_caption(self) -> None:
        log = self.start_vitrine(config_path="/etc/captions.toml")
        self.assertNotIn("Captions are off", log)
        self.machine.wait_for_log("vitrine", "Captions in DejaVu Sans", timeout=10)
        first = caption_pixels(self.wait_for_screen(caption_problems, timeout=20, what="the sidecar's caption"))
        # The slideshow's next photo, 6 s later: another caption, from XMP.
        self.wait_for_screen(lambda image: caption_problems(image)
                             + (["still the first caption"] if caption_pixels(image) == first else []),
                             timeout=20, what="the XMP caption")
        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)
        self.assertNotIn("Caption of", log)  # no source was malformed


if __name__ == "__main__":
    unittest.main()
