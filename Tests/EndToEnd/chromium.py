"""Debian's headless Chromium driven through the DevTools protocol, for the tests of the status page.

The protocol runs on a pipe (`--remote-debugging-pipe`: Chromium reads commands on its fd 3 and
writes answers and events on its fd 4, each message one JSON object ended by a NUL byte), so no
port, no websocket and no module outside the standard library.

    with Chromium() as browser:
        page = browser.new_page(width=390, height=844, mobile=True)
        page.navigate("http://127.0.0.1:PORT/")
        page.evaluate("document.title")                  # -> "Vitrine"
        page.click("#next")                              # real mouse events at the element's centre
        png = page.screenshot()                          # bytes
        page.problems()                                  # console errors, exceptions, CSP violations
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from pathlib import Path


class ChromiumError(Exception):
    pass


def chromium_binary() -> str | None:
    return shutil.which("chromium")


# Installed before the page's own script (DevTools' scripts are not subject to the page's policy):
# the page's CSP violations as the DOM reports them, beside what the console says.
VIOLATION_RECORDER = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.__violations.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline"));
});
"""


class Chromium:
    """One headless Chromium process with a temporary profile; closed on exit."""

    def __init__(self, timeout: float = 60) -> None:
        binary = chromium_binary()
        if not binary:
            raise ChromiumError("chromium is not installed (apt-get install chromium)")
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="vitrine-chromium-")
        commands_read, self.commands = os.pipe()
        self.answers, answers_write = os.pipe()

        def onto_3_and_4() -> None:
            # Copies above any number first, so that neither dup2 overwrites the other's source.
            read_end, write_end = os.dup(commands_read), os.dup(answers_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        arguments = [binary, "--headless", "--remote-debugging-pipe", f"--user-data-dir={self.profile.name}",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-gpu",
                     "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "about:blank"]
        if os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.log_path = Path(self.profile.name) / "chromium.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            close_fds=False, preexec_fn=onto_3_and_4)
        os.close(commands_read)
        os.close(answers_write)
        self.buffer = b""
        self.next_id = 1
        self.events: list[dict] = []

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("Browser.close", timeout=10)
            except (ChromiumError, OSError):
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for fd in (self.commands, self.answers):
            try:
                os.close(fd)
            except OSError:
                pass
        self.profile.cleanup()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    # -- the protocol -----------------------------------------------------------------------------

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChromiumError(f"no answer from Chromium in time; its log:\n{self.log()}")
            ready, _, _ = select.select([self.answers], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(self.answers, 1 << 20)
            if not chunk:
                raise ChromiumError(f"Chromium closed the DevTools pipe; its log:\n{self.log()}")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float | None = None) -> dict:
        """Sends one command and returns its result; events that arrive meanwhile are kept."""
        command_id = self.next_id
        self.next_id += 1
        message = {"id": command_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == command_id:
                if "error" in reply:
                    raise ChromiumError(f"{method}: {reply['error'].get('message')} {reply['error'].get('data', '')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for_event(self, method: str, session: str, timeout: float | None = None) -> dict:
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for index, event in enumerate(self.events):
                if event["method"] == method and event.get("sessionId") == session:
                    return self.events.pop(index)
            message = self._read_message(deadline)
            if "method" in message:
                self.events.append(message)

    def new_page(self, width: int, height: int, mobile: bool = False, scale: float = 1) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Log", "Audits"):
            page.send(f"{domain}.enable")
        page.send("Page.addScriptToEvaluateOnNewDocument", {"source": VIOLATION_RECORDER})
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        return page


class Page:
    """One tab, through its DevTools session."""

    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser = browser
        self.session = session

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, session=self.session)

    def navigate(self, url: str) -> None:
        self.browser.events = [event for event in self.browser.events if event["method"] != "Page.loadEventFired"]
        answer = self.send("Page.navigate", {"url": url})
        if answer.get("errorText"):
            raise ChromiumError(f"navigating to {url}: {answer['errorText']}")
        self.browser.wait_for_event("Page.loadEventFired", self.session)

    def evaluate(self, expression: str, await_promise: bool = False):
        """The expression's value (JSON-able), as the page's own script would see it."""
        answer = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise})
        if "exceptionDetails" in answer:
            raise ChromiumError(f"{expression}: {answer['exceptionDetails'].get('exception', {}).get('description')}")
        return answer["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 30, what: str | None = None):
        """Evaluates `expression` until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise ChromiumError(f"{what or expression} not true within {timeout} s (page problems: {self.problems()})")
            time.sleep(0.1)

    def rect(self, selector: str) -> dict:
        """The element's box in CSS pixels of the viewport: x, y, width, height."""
        rect = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                             f" return {{x: r.x, y: r.y, width: r.width, height: r.height}}; }})()")
        if not rect:
            raise ChromiumError(f"no element {selector}")
        return rect

    def click(self, selector: str) -> None:
        """A left click at the element's centre, as a mouse would (pressed and released)."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).scrollIntoView({{block: 'center'}})")
        box = self.rect(selector)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def type_into(self, selector: str, text: str) -> None:
        """Focuses the element (by clicking it) and types `text` as the keyboard would insert it."""
        self.click(selector)
        self.send("Input.insertText", {"text": text})

    def screenshot(self, clip: dict | None = None) -> bytes:
        """PNG of the viewport (or of `clip`: x, y, width, height in CSS pixels)."""
        params = {"format": "png"}
        if clip:
            params["clip"] = {**clip, "scale": 1}
        return base64.b64decode(self.send("Page.captureScreenshot", params)["data"])

    def problems(self) -> list[str]:
        """What went wrong in the page so far: console errors and warnings, uncaught exceptions,
        failed loads, CSP violations (from the console, the issues panel and the DOM's own events)."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                found.append("console." + params["type"] + ": "
                             + " ".join(str(arg.get("value", arg.get("description"))) for arg in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                found.append("exception: " + str(details.get("exception", {}).get("description", details.get("text"))))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                entry = params["entry"]
                found.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".strip())
            elif method == "Audits.issueAdded":
                issue = params.get("issue", {})
                found.append(f"issue {issue.get('code')}: {json.dumps(issue.get('details'))[:300]}")
        try:
            found += ["CSP: " + text for text in self.evaluate("window.__violations || []")]
        except ChromiumError:
            pass
        return found


def decode_png(data: bytes) -> tuple[int, int, int, bytes]:
    """An 8-bit PNG, RGB or RGBA, not interlaced (what Chromium and Vitrine write): width, height,
    bytes per pixel and the unfiltered pixels, rows top to bottom."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"not a PNG: {data[:8]!r}")
    position, compressed = 8, b""
    width = height = channels = 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk[:13])
            channels = {2: 3, 6: 4}.get(colour, 0)
            if depth != 8 or not channels or interlace:
                raise ValueError(f"PNG depth {depth}, colour type {colour}, interlace {interlace} not supported")
        elif kind == b"IDAT":
            compressed += chunk
        position += 12 + length
    raw = zlib.decompress(compressed)
    stride = width * channels
    pixels = bytearray(stride * height)
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b, c = previous[i], previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        pixels[y * stride:(y + 1) * stride] = line
        previous = line
    return width, height, channels, bytes(pixels)
