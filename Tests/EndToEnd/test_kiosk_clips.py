"""A clip on a real kernel (SPEC §12): its poster in the grid, opened it plays (two screendumps at
different times show different frames, each one ffmpeg decodes from the same file), and a
drag-to-dismiss while it plays carries the moving picture back into its cell.

The clip is made here: 640x360 at 10 fps for 3 s, H.264 as a phone or camera writes it. Its left half
names the frame: the top quarter's colour is PALETTE[k % 6], the bottom quarter's PALETTE[k // 6];
the right half is a still gradient, so the poster counts as a photo in the grid's checks.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_kiosk_clips.py' -v
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

import kiosk
import vm
from kiosk import GridLayout, grid_problems

LAYOUT = GridLayout(columns=4, spacing=4)
CLIP_NAME = "07-clip.mp4"
CLIP_INDEX = len(kiosk.PHOTOS)
COUNT = len(kiosk.PHOTOS) + 1
CLIP_SIZE = (640, 360)
FRAMES, FPS = 30, 10
PALETTE = [(230, 30, 30), (30, 200, 40), (40, 60, 230), (235, 220, 40), (220, 40, 220), (40, 220, 220)]
# H.264 4:2:0 and back: a solid block's interior comes back within a few levels; the other frames'
# colours are at least 150 away in some channel.
TOLERANCE = 24


def make_clip(path: Path) -> None:
    width, height = CLIP_SIZE
    gradient = bytearray()
    for y in range(height):
        for x in range(width // 2):
            gradient += bytes((x * 255 // (width // 2), y * 255 // height, 128))
    frames = bytearray()
    for k in range(FRAMES):
        top, bottom = bytes(PALETTE[k % 6]) * (width // 2), bytes(PALETTE[k // 6]) * (width // 2)
        for y in range(height):
            left = top if y < height // 2 else bottom
            frames += left + gradient[y * width // 2 * 3:(y + 1) * width // 2 * 3]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
                    "-r", str(FPS), "-i", "-", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10",
                    "-movflags", "+faststart", str(path)], input=bytes(frames), check=True)


def decoded_marks(path: Path) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Each frame's two marks as ffmpeg itself decodes the file: the expected frames."""
    width, height = CLIP_SIZE
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    size = width * height * 3
    marks = []
    for k in range(len(raw) // size):
        frame = raw[k * size:(k + 1) * size]

        def at(x: int, y: int) -> tuple[int, int, int]:
            offset = (y * width + x) * 3
            return frame[offset], frame[offset + 1], frame[offset + 2]
        marks.append((at(width // 4, height // 4), at(width // 4, height * 3 // 4)))
    return marks


def close(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(p - q) <= TOLERANCE for p, q in zip(a, b))


@unittest.skipUnless(shutil.which("ffmpeg"), "ffmpeg is not installed (scripts/install-deps)")
class KioskClipTest(kiosk.KioskTestCase):
    clip_folder = tempfile.TemporaryDirectory(prefix="vitrine-clip-")
    clip_path = Path(clip_folder.name) / CLIP_NAME
    if shutil.which("ffmpeg"):
        make_clip(clip_path)
    extra_files = {f"/photos/{CLIP_NAME}": clip_path}

    @classmethod
    def setUpClass(cls) -> None:
        cls.expected = decoded_marks(cls.clip_path)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        cls.clip_folder.cleanup()

    def frame_shown(self, image: vm.Image, rect: tuple[float, float, float, float]) -> int | None:
        """The clip's frame number shown in `rect` (the clip's frame on screen), by its marks."""
        x0, y0, x1, y1 = rect
        top = image.pixel(int(x0 + (x1 - x0) / 4), int(y0 + (y1 - y0) / 4))
        bottom = image.pixel(int(x0 + (x1 - x0) / 4), int(y0 + (y1 - y0) * 3 / 4))
        found = [k for k, (a, b) in enumerate(self.expected) if close(top, a) and close(bottom, b)]
        return found[0] if found else None

    def frames_over(self, rect: tuple[float, float, float, float], seconds: float) -> list[int | None]:
        shown = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown.append(self.frame_shown(self.machine.screendump(), rect))
            time.sleep(0.25)
        return shown

    def test_a_clip_plays_in_the_pager_and_is_dismissed_while_it_plays(self) -> None:
        self.assertEqual(len(self.expected), FRAMES, "ffmpeg does not decode the made clip whole")
        log = self.start_vitrine()
        self.assertIn(f"showing {COUNT} photos from /photos", log)
        # The poster in the grid: frame 0's marks in the cell (aspect-filled: the left quarter).
        self.wait_for_screen(lambda image: grid_problems(image, LAYOUT, COUNT), what="the grid with the clip's poster")
        x0, y0, x1, y1 = LAYOUT.cell_rect(CLIP_INDEX)
        side = x1 - x0
        filled_width = side * CLIP_SIZE[0] / CLIP_SIZE[1]
        poster = (x0 + side / 2 - filled_width / 2, y0, x0 + side / 2 + filled_width / 2, y1)
        self.assertEqual(self.frame_shown(self.machine.screendump(), poster), 0, "the cell does not show frame 0")

        self.start_touchscreen()
        self.touch("tap %d %d" % LAYOUT.centre(CLIP_INDEX))
        page = kiosk.fit_rect(CLIP_SIZE)
        # The opening zoom first (0.35 s, longer under TCG): the page rect shows the clip once it ends.
        time.sleep(0.5)
        shown = self.frames_over(page, 4)
        frames = [k for k in shown if k is not None]
        log = self.machine.log_of("vitrine")
        self.assertGreaterEqual(len(set(frames)), 2, f"the pager did not play: frames {shown}; log:\n{log}")
        self.assertGreaterEqual(len(frames), len(shown) - 2,
                                f"screendumps showing no frame of the clip (None): {shown}")
        self.assertRegex(log, r"Clip \S+ plays at \d+x\d+ through \S+ \((software|hardware)\)", "the log does not say which decoder plays the clip")

        # Drag down 150 px and hold: the photo shrinks under the finger (scale 1 - 0.32 * 0.75 = 0.76)
        # over the grid, and keeps playing.
        x, y = 640, 300
        self.touch(f"down {x} {y}")
        for step in range(1, 11):
            self.touch(f"move {x} {y + 15 * step}")
            time.sleep(0.03)
        time.sleep(0.5)
        scale = 1 - (1 - 0.68) * 150 / 200
        px0, py0, px1, py1 = page
        carried = (x + (px0 - x) * scale, y + 150 + (py0 - y) * scale,
                   x + (px1 - x) * scale, y + 150 + (py1 - y) * scale)
        held = [k for k in self.frames_over(carried, 3) if k is not None]
        self.assertGreaterEqual(len(set(held)), 2, f"the carried clip did not play while held: {held}")
        self.touch("up")
        self.wait_for_screen(lambda image: grid_problems(image, LAYOUT, COUNT), what="the grid after the dismiss")

        code, _, log = self.stop_and_time("vitrine", "TERM")
        self.assertEqual(code, 0, log)
        self.assertNotIn("[error]", log)
        self.assertNotIn("Skipping", log)


if __name__ == "__main__":
    unittest.main()
