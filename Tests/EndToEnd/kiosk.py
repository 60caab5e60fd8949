"""What the `vitrine run` end-to-end tests share: the builds (once per test run), the guest
(vitrine, its photos and config, the touch injector and the notify listener), a base class that
boots one VM per test class, and the screen checks derived from the grid's layout.

Layout facts the checks use (SPEC §1 Grid, defaults): square cells, `columns` per row, `spacing`
px between the cells and at the edges, black background; a photo in the pager is aspect-fit on
black.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
import time
import unittest
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLES = vm.REPO / "Samples" / "photos"
# Landscape 3:2, portrait 2:3, 4:3, 3:2, a 9:1 panorama, and one turned by EXIF (orientation 6).
PHOTOS = ["01-lakeside.jpg", "02-portrait.jpg", "03-dragonfly.jpg", "04-flower.jpg",
          "05-sunset-panorama.jpg", "06-lakeside-exif6.jpg"]
# Oriented sizes (after EXIF), for the aspect-fit checks.
PHOTO_SIZES = {"01-lakeside.jpg": (1800, 1200), "02-portrait.jpg": (1200, 1800)}
EXTRA_PHOTO = "10-flower-bloom.jpg"
WIDTH, HEIGHT = 1280, 800
BLACK = (0, 0, 0)
PLACEHOLDER = (0x20, 0x20, 0x20)

# The caption fonts a kiosk has (the package depends on fonts-dejavu-core): fontconfig's
# configuration, reduced to the folder and a writable cache, and DejaVu Sans.
CAPTION_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
FONTS_CONF = b"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>/usr/share/fonts</dir><cachedir>/tmp/fontconfig</cachedir></fontconfig>
"""


def caption_fonts() -> dict[str, str | Path | bytes]:
    """Guest files for the captions' fonts."""
    return {"/etc/fonts/fonts.conf": FONTS_CONF, str(CAPTION_FONT): CAPTION_FONT}


_built: dict[str, Path] = {}
_scratch: dict[str, tempfile.TemporaryDirectory] = {}


def build_vitrine() -> Path:
    """`swift build -c release --static-swift-stdlib --product vitrine`, once per test run."""
    if "vitrine" not in _built:
        command = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "vitrine"]
        result = subprocess.run(command, cwd=vm.REPO, capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
        directory = subprocess.run([*command, "--show-bin-path"], cwd=vm.REPO, capture_output=True,
                                   text=True, check=True).stdout.strip()
        _built["vitrine"] = Path(directory) / "vitrine"
    return _built["vitrine"]


# The C compiler for a guest tool of each architecture (gcc-aarch64-linux-gnu cross-compiles).
GUEST_COMPILERS = {"amd64": "gcc", "arm64": "aarch64-linux-gnu-gcc"}


def build_guest_tool(name: str, architecture: str = "amd64") -> Path:
    """Tests/EndToEnd/guest/NAME.c as a static binary for the guest's architecture (the guest has no
    libc of its own), once per test run."""
    key = name if architecture == "amd64" else f"{name}-{architecture}"
    if key not in _built:
        if "tools" not in _scratch:
            _scratch["tools"] = tempfile.TemporaryDirectory(prefix="vitrine-e2e-tools-")
        output = Path(_scratch["tools"].name) / key
        compiler = GUEST_COMPILERS[architecture]
        result = subprocess.run([compiler, "-static", "-O2", "-Wall", "-o", str(output), str(HERE / "guest" / f"{name}.c")],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"{compiler} {name}.c failed:\n{result.stderr}")
        _built[key] = output
    return _built[key]


def config(**tables: dict[str, object]) -> str:
    """A vitrine.toml: photos from /photos, plus the given tables' keys."""
    tables = {"photos": {"directory": "/photos"}, **tables}
    lines = []
    for table, keys in tables.items():
        lines.append(f"[{table}]")
        for key, value in keys.items():
            lines.append(f"{key} = {value!r}".replace("'", '"') if isinstance(value, str) else f"{key} = {value}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Layout and screen checks


@dataclass(frozen=True)
class GridLayout:
    columns: int = 4
    spacing: int = 4
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def cell(self) -> float:
        return (self.width - (self.columns + 1) * self.spacing) / self.columns

    def cell_rect(self, index: int) -> tuple[int, int, int, int]:
        """The cell's pixels [x0, x1) x [y0, y1), rounded inward."""
        row, column = divmod(index, self.columns)
        x = self.spacing + column * (self.cell + self.spacing)
        y = self.spacing + row * (self.cell + self.spacing)
        return int(x + 0.999), int(y + 0.999), int(x + self.cell), int(y + self.cell)

    def centre(self, index: int) -> tuple[int, int]:
        x0, y0, x1, y1 = self.cell_rect(index)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def gaps(self, count: int) -> list[tuple[int, int, int, int]]:
        """Boxes strictly inside the gaps around the first `count` cells' rows (1 px away from
        each cell edge, so antialiasing could not reach them), and the black below the last row."""
        rows = (count + self.columns - 1) // self.columns
        bottom = min(self.height, int(self.spacing + rows * (self.cell + self.spacing)))
        boxes = []
        for column in range(self.columns + 1):
            x = column * (self.cell + self.spacing)
            boxes.append((int(x) + 1, 0, int(x + self.spacing) - 1, bottom))
        for row in range(rows + 1):
            y = row * (self.cell + self.spacing)
            if y + self.spacing <= self.height:
                boxes.append((0, int(y) + 1, self.width, int(y + self.spacing) - 1))
        if bottom + 2 < self.height:
            boxes.append((0, bottom + 1, self.width, self.height))
        return boxes


def photo_content(image: vm.Image, box: tuple[int, int, int, int]) -> bool:
    """A photo is drawn there: many distinct colours, not the flat placeholder, not black."""
    colors = image.region_colors(*box, step=5)
    return len(colors) >= 40 and sum(1 for c in colors if max(c) < 12) < len(colors) // 2


def only_black(image: vm.Image, box: tuple[int, int, int, int]) -> bool:
    return image.region_colors(*box, step=3) == {BLACK}


def grid_problems(image: vm.Image, layout: GridLayout, count: int) -> list[str]:
    """What is wrong with `image` as the grid of `count` photos at rest at the top (empty: it is)."""
    problems = []
    if (image.width, image.height) != (layout.width, layout.height):
        return [f"screen is {image.width}x{image.height}"]
    for index in range(count):
        x0, y0, x1, y1 = layout.cell_rect(index)
        box = (x0 + 6, y0 + 6, x1 - 6, min(y1, layout.height) - 6)
        if box[3] > box[1] and not photo_content(image, box):
            problems.append(f"cell {index} {box} shows no photo")
    for box in layout.gaps(count):
        if not only_black(image, box):
            problems.append(f"gap {box} is not black: {sorted(image.region_colors(*box, step=3))[:5]}")
    # The cells after the last photo are empty (black), as far as the rows on screen go.
    rows = (count + layout.columns - 1) // layout.columns
    for index in range(count, rows * layout.columns):
        x0, y0, x1, y1 = layout.cell_rect(index)
        if y0 < layout.height and not only_black(image, (x0, y0, x1, min(y1, layout.height))):
            problems.append(f"empty cell {index} is not black")
    return problems


def fit_rect(size: tuple[int, int], screen: tuple[int, int] = (WIDTH, HEIGHT)) -> tuple[float, float, float, float]:
    """The photo's aspect-fit frame on the screen: x0, y0, x1, y1."""
    width, height = screen
    scale = min(width / size[0], height / size[1])
    w, h = size[0] * scale, size[1] * scale
    return (width - w) / 2, (height - h) / 2, (width + w) / 2, (height + h) / 2


def pager_problems(image: vm.Image, size: tuple[int, int]) -> list[str]:
    """What is wrong with `image` as a photo of `size` aspect-fit on black (empty: it is)."""
    WIDTH, HEIGHT = image.width, image.height  # noqa: N806 (the screen's, as above)
    x0, y0, x1, y1 = fit_rect(size, (WIDTH, HEIGHT))
    problems = []
    inner = (int(x0) + 8, int(y0) + 8, int(x1) - 8, int(y1) - 8)
    if not photo_content(image, inner):
        problems.append(f"no photo content in {inner}")
    bars = []
    if x0 >= 4:
        bars += [(0, 0, int(x0) - 2, HEIGHT), (int(x1) + 3, 0, WIDTH, HEIGHT)]
    if y0 >= 4:
        bars += [(0, 0, WIDTH, int(y0) - 2), (0, int(y1) + 3, WIDTH, HEIGHT)]
    for bar in bars:
        if not only_black(image, bar):
            problems.append(f"bar {bar} is not black")
    return problems


class TurnedScreen:
    """A screendump of a panel whose picture is turned a quarter clockwise (display.rotation = 90),
    seen the way the scene drew it: upright, `image.height` wide. The scene's top-left pixel is the
    panel's top-right one."""

    def __init__(self, image: vm.Image) -> None:
        self.image = image
        self.width, self.height = image.height, image.width

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        return self.image.pixel(self.image.width - 1 - y, x)

    def region_colors(self, x0: int, y0: int, x1: int, y1: int, step: int = 7) -> set[tuple[int, int, int]]:
        return {self.pixel(x, y) for y in range(y0, y1, step) for x in range(x0, x1, step)}

    @staticmethod
    def panel_point(x: int, y: int, panel_width: int = WIDTH) -> tuple[int, int]:
        """Where the scene's point (x, y) is on the panel (and so on its touch layer)."""
        return panel_width - 1 - y, x


def touch_device(machine: vm.VM, timeout: float = 10) -> str:
    """Waits until the background "touch" (guest/touch-inject.c) has created its uinput device;
    returns the device's node."""
    log = machine.wait_for_log("touch", "touch-inject: device /dev/input/", timeout=timeout)
    return log.split("touch-inject: device ", 1)[1].split()[0]


def wait_for_screen(test: unittest.TestCase, machine: vm.VM, problems, timeout: float, what: str,
                    vitrine_log) -> vm.Image:
    """Screendumps until `problems(image)` is empty; fails `test` with the last problems, the
    screen kept in the VM's folder and the end of `vitrine_log()`."""
    deadline = time.monotonic() + timeout
    while True:
        image = machine.screendump()
        found = problems(image)
        if not found:
            return image
        if time.monotonic() > deadline:
            kept = machine.workdir / f"failed-{test.id().rsplit('.', 1)[-1]}.ppm"
            machine.screendump(kept)
            try:
                log = vitrine_log()[-3000:]
            except Exception as error:  # the log helps; its absence must not hide the failure
                log = f"(no vitrine log: {error})"
            test.fail(f"{what} not as expected within {timeout} s (screen kept in {kept}): "
                      + "; ".join(found[:6]) + f"\nvitrine's log ends with:\n{log}")
        time.sleep(0.2)


# ---------------------------------------------------------------------------------------------
# The VM


@unittest.skipUnless(vm.qemu_binary(), "qemu-system-x86_64 is not installed: skipping the real-kernel test")
class KioskTestCase(unittest.TestCase):
    """Boots one guest per test class with vitrine, the sample photos in /photos and
    /etc/vitrine.toml; each test starts its own vitrine."""

    machine: vm.VM
    extra_qemu_arguments: list[str] = []
    # Modules in the guest but not loaded at boot (the test loads them).
    deferred_modules: list[str] = []
    base_config = config()
    # More files for the guest (guest path -> host path or bytes).
    extra_files: dict[str, str | Path | bytes] = {}
    # Tests/EndToEnd/guest/NAME.c built into /bin/NAME.
    guest_tools: tuple[str, ...] = ("touch-inject", "notify-listen")
    # Guest TCP ports the host reaches through guest networking (machine.host_port(PORT)); none:
    # the guest has no network interface but lo (down).
    guest_ports: tuple[int, ...] = ()
    # Host programs copied into the guest with their libraries (guest path -> host path).
    extra_binaries: dict[str, str | Path] = {}

    @classmethod
    def setUpClass(cls) -> None:
        cls.started = time.monotonic()
        binary = build_vitrine()
        cls.scratch = tempfile.TemporaryDirectory(prefix="vitrine-kiosk-")
        scratch = Path(cls.scratch.name)
        tools = {f"/bin/{name}": build_guest_tool(name) for name in cls.guest_tools}
        cls.built = time.monotonic()
        kernel = vm.prepare_kernel()
        files: dict[str, str | Path | bytes] = {f"/photos/{name}": SAMPLES / name for name in PHOTOS}
        files["/spare/" + EXTRA_PHOTO] = SAMPLES / EXTRA_PHOTO
        files["/etc/vitrine.toml"] = cls.base_config.encode()
        files.update(caption_fonts())
        files.update(cls.extra_files)
        initramfs = vm.build_initramfs(scratch / "initramfs.cpio.lz4", kernel,
                                       binaries={"/bin/vitrine": binary, **tools, **cls.extra_binaries}, files=files,
                                       deferred=cls.deferred_modules, network=bool(cls.guest_ports))
        cls.prepared = time.monotonic()
        cls.machine = vm.VM(kernel, initramfs, xres=WIDTH, yres=HEIGHT, memory_mib=1024,
                            extra_arguments=list(cls.extra_qemu_arguments),
                            forwards={port: 0 for port in cls.guest_ports}).boot()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.machine.close()
        cls.scratch.cleanup()
        vm.report_timing(cls.__name__, cls.started, cls.built, cls.prepared, cls.machine.boot_seconds)

    # -- programs in the guest ----------------------------------------------------------------

    def spawn(self, name: str, command: str) -> None:
        """Starts a background program that is killed after the test, if still running, before the
        next test starts one under the same name."""
        self.machine.spawn(name, command)
        self.addCleanup(self.machine.kill, name)

    def start_vitrine(self, name: str = "vitrine", config_path: str = "/etc/vitrine.toml",
                      environment: str = "") -> str:
        """Starts vitrine in the background and waits for its first frame; returns its log."""
        prefix = f"env {environment} " if environment else ""
        self.spawn(name, f"{prefix}/bin/vitrine run --config {config_path}")
        return self.machine.wait_for_log(name, "first frame on screen", timeout=30)

    def start_touchscreen(self, vitrine: str = "vitrine") -> str:
        """Creates the uinput touchscreen and waits until vitrine has opened it; returns its node."""
        machine = self.machine
        machine.check("rm -f /tmp/touch.fifo && mkfifo /tmp/touch.fifo")
        opened_before = self.opened_count(vitrine)
        self.spawn("touch", f"/bin/touch-inject /tmp/touch.fifo {WIDTH} {HEIGHT}")
        node = touch_device(machine)
        # The node's number may be one vitrine had open before: count, don't just look.
        deadline = time.monotonic() + 10
        while self.opened_count(vitrine) <= opened_before:
            if time.monotonic() > deadline:
                raise AssertionError(f"vitrine did not open {node}; its log:\n{machine.log_of(vitrine)}")
            time.sleep(0.05)
        self.assertIn(f"touch: {node} ", machine.log_of(vitrine))
        self.touch_commands = 0
        return node

    def opened_count(self, vitrine: str) -> int:
        """How many touch devices vitrine has opened so far (its "touch: /dev/input/..." lines)."""
        return sum(1 for line in self.machine.log_of(vitrine).splitlines()
                   if line.startswith("vitrine[info]: touch: /dev/input/"))

    def touch(self, command: str, timeout: float = 10) -> None:
        """Sends one command to the injector and waits until it has been sent whole."""
        self.touch_commands += 1
        self.machine.check(f"echo {shlex.quote(command)} > /tmp/touch.fifo")
        self.machine.wait_for_log("touch", f"ok {self.touch_commands} {command}", timeout=timeout)

    def wait_for_status(self, check, what: str, timeout: float = 10) -> dict:
        """`self.status()` (the subclass's: through the guest's wget or the host's forward) until
        `check` holds; fails with the last status and vitrine's log when `timeout` passes."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.status()
            if check(status):
                return status
            if time.monotonic() > deadline:
                self.fail(f"{what}: /status still says {status}; vitrine's log:\n{self.machine.log_of('vitrine')}")
            time.sleep(0.2)

    def wait_for_screen(self, problems, timeout: float = 20, what: str = "the screen") -> vm.Image:
        """Screendumps until `problems(image)` is empty; fails with the last problems."""
        return wait_for_screen(self, self.machine, problems, timeout, what, lambda: self.machine.log_of("vitrine"))

    def stop_and_time(self, name: str, signal: str) -> tuple[int, float, str]:
        """Sends `signal`, waits for the exit; returns the exit code, the seconds it took as the
        guest measured them, and the log."""
        script = (f"pid=$(cat /tmp/bg/{name}.pid); start=$(cut -d' ' -f1 /proc/uptime); kill -{signal} $pid; "
                  f"n=0; while [ ! -e /tmp/bg/{name}.rc ] && [ $n -lt 1000 ]; do usleep 5000; n=$((n+1)); done; "
                  f"end=$(cut -d' ' -f1 /proc/uptime); echo $start $end")
        start, end = (float(value) for value in self.machine.check(script, timeout=20).split()[-2:])
        code, log = self.machine.wait_exit(name, timeout=10)
        return code, end - start, log

    def cpu_ticks(self, name: str) -> int:
        """utime + stime of the background program, in clock ticks (/proc/PID/stat)."""
        fields = self.machine.check(f"cat /proc/$(cat /tmp/bg/{name}.pid)/stat").rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
