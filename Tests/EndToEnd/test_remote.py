"""The remote server (SPEC §9) of a `vitrine run` that waits for a display: this machine has no
/dev/dri, so the kiosk says "waiting for a display" and the server must answer all the same (a
kiosk whose screen died is visible remotely). No VM: the kiosk runs here, on loopback.

- the endpoints with good and bad requests: /status says it waits, /metrics passes Debian's
  `promtool check metrics`, /screenshot and /control need the bearer token (401), are off while the
  token file is missing (403), and the errors 400, 404, 405, 413;
- a real Prometheus server (Debian's package, its own config and data folder in a temporary
  folder, a 1 s scrape interval) scrapes the kiosk and its HTTP API finds `vitrine_frames_total`
  and `vitrine_photos`;
- hostile clients: garbage, huge headers, a client that sends a byte a second (closed after the
  server's 10 s timeout while others are served), bodies over 4 KB, hundreds of abandoned
  connections. The kiosk keeps running and its descriptors (/proc/PID/fd) are as many afterwards.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_remote.py' -v
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import urllib.request
from pathlib import Path

import kiosk

TOKEN = "e2e-7f3a9c1d-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


class RemoteKiosk:
    """`vitrine run` with `[remote] listen` on a free loopback port, its log in a file."""

    def __init__(self, folder: Path, token_file: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.config = folder / "vitrine.toml"
        self.config.write_text(
            f'[photos]\ndirectory = "{kiosk.SAMPLES}"\n'
            f'[remote]\nlisten = "127.0.0.1:{self.port}"\ntoken_file = "{token_file}"\n')
        self.log_path = folder / "vitrine.log"
        self.log_file = open(self.log_path, "w")
        self.process = subprocess.Popen([str(kiosk.build_vitrine()), "run", "--config", str(self.config)],
                                        stdout=self.log_file, stderr=subprocess.STDOUT, cwd=folder)
        wait_until(lambda: "remote: listening on" in self.log() or self.process.poll() is not None,
                   30, "the server to listen")
        if self.process.poll() is not None:
            raise AssertionError(f"vitrine exited:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 10) -> tuple[int, dict, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.log_file.close()
        return code, self.log()


NO_PROMETHEUS = "Debian's prometheus package is not installed (scripts/install-deps installs it)"


class RemoteWhileWaitingForADisplayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.scratch = tempfile.TemporaryDirectory(prefix="vitrine-remote-")
        cls.folder = Path(cls.scratch.name)
        cls.token_file = cls.folder / "remote.token"
        cls.token_file.write_text(TOKEN + "\n")
        cls.token_file.chmod(0o640)
        cls.kiosk = RemoteKiosk(cls.folder, cls.token_file)

    @classmethod
    def tearDownClass(cls) -> None:
        code, log = cls.kiosk.stop()
        cls.scratch.cleanup()
        if code != 0:
            raise AssertionError(f"vitrine exited {code} on SIGTERM:\n{log}")
        # "error" lines would be the kiosk's own failures; the hostile clients cause none.
        errors = [line for line in log.splitlines() if "[error]" in line or "[critical]" in line]
        if errors:
            raise AssertionError("vitrine logged errors:\n" + "\n".join(errors))

    def authorized(self, token: str = TOKEN) -> dict:
        return {"Authorization": f"Bearer {token}"}

    # -- the endpoints

    def test_status_says_it_waits_for_a_display(self) -> None:
        status, headers, body = self.kiosk.request("GET", "/status")
        self.assertEqual(status, 200)
        self.assertEqual(headers["content-type"], "application/json")
        document = json.loads(body)
        self.assertEqual(document["state"], "waiting_for_display")
        self.assertTrue(document["waiting_for_display"])
        self.assertIn("/dev/dri", document["state_detail"])
        self.assertIsNone(document["display"])
        self.assertFalse(document["screen_on"])
        version = subprocess.run([str(kiosk.build_vitrine()), "--version"], capture_output=True, text=True).stdout.strip()
        self.assertEqual(document["version"], version)
        self.assertGreater(document["uptime_seconds"], 0)
        for key in ["mode", "current_photo", "photo_count", "input_devices"]:
            self.assertIn(key, document)

    @unittest.skipUnless(shutil.which("promtool"), NO_PROMETHEUS)
    def test_metrics_pass_promtool(self) -> None:
        status, headers, body = self.kiosk.request("GET", "/metrics")
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("text/plain; version=0.0.4"))
        text = body.decode()
        for name in ["vitrine_frames_total", "vitrine_frames_dropped_total", "vitrine_frame_seconds_bucket",
                     "vitrine_touch_to_flip_seconds_bucket",
                     "vitrine_photos", "vitrine_photos_shown_total", "vitrine_photos_skipped",
                     "vitrine_decoded_bytes", "vitrine_display_connected", "vitrine_screen_on",
                     "vitrine_touches_total", "vitrine_uptime_seconds", "vitrine_build_info"]:
            self.assertRegex(text, rf"(?m)^{name}[{{ ]", name)
        self.assertIn('vitrine_state{state="waiting_for_display"} 1', text)
        self.assertIn("vitrine_display_connected 0", text)
        check = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True)
        self.assertEqual(check.returncode, 0, check.stdout.decode() + check.stderr.decode())
        # promtool prints lint problems (a counter without _total, a bad unit) even when it exits 0.
        self.assertEqual(check.stdout.decode().strip() + check.stderr.decode().strip(), "")
        # And it does catch a broken exposition, so its silence means something.
        broken = subprocess.run(["promtool", "check", "metrics"], capture_output=True,
                                input=body.replace(b"\nvitrine_frames_total ", b"\nvitrine_frames_total x"))
        self.assertNotEqual(broken.returncode, 0, broken.stdout + broken.stderr)

    def test_screenshot_and_control_need_the_token(self) -> None:
        for path, method, body in [("/screenshot", "GET", None), ("/control", "POST", b'{"action": "reload"}')]:
            status, headers, text = self.kiosk.request(method, path, body)
            self.assertEqual(status, 401, text)
            self.assertEqual(headers.get("www-authenticate"), "Bearer")
            status, _, text = self.kiosk.request(method, path, body, self.authorized("e2e-7f3a9c1d-tokem"))
            self.assertEqual(status, 401, text)
            self.assertIn(b"wrong token", text)
            status, _, text = self.kiosk.request(method, path, body, {"Authorization": f"Basic {TOKEN}"})
            self.assertEqual(status, 401, text)
        # With the token: no frame while waiting, and navigation has nothing to act on; reload works.
        status, _, text = self.kiosk.request("GET", "/screenshot", headers=self.authorized())
        self.assertEqual(status, 503, text)
        self.assertIn(b"waiting for a display", text)
        status, _, text = self.kiosk.request("POST", "/control", b'{"action": "next"}', self.authorized())
        self.assertEqual(status, 503, text)
        status, _, text = self.kiosk.request("POST", "/control", b'{"action": "reload"}', self.authorized())
        self.assertEqual(status, 202, text)
        self.assertEqual(json.loads(text), {"accepted": "reload"})
        wait_until(lambda: "SIGHUP" in self.kiosk.log() or "remote: reload" in self.kiosk.log(), 10, "the reload")

    def test_without_a_token_file_the_protected_endpoints_are_off(self) -> None:
        moved = self.token_file.with_suffix(".away")
        self.token_file.rename(moved)
        try:
            status, _, text = self.kiosk.request("GET", "/screenshot", headers=self.authorized())
            self.assertEqual(status, 403, text)
            self.assertIn(b"/screenshot and /control are off", text)
            self.assertIn(str(self.token_file).encode(), text)
            self.token_file.write_text("\n")
            status, _, text = self.kiosk.request("POST", "/control", b'{"action": "reload"}', self.authorized())
            self.assertEqual(status, 403, text)
            self.assertIn(b"is empty", text)
            # The open endpoints stay open.
            self.assertEqual(self.kiosk.request("GET", "/status")[0], 200)
        finally:
            moved.rename(self.token_file)
        self.assertEqual(self.kiosk.request("POST", "/control", b'{"action": "reload"}', self.authorized())[0], 202)

    def test_errors(self) -> None:
        request = self.kiosk.request
        status, _, text = request("GET", "/nothing-here")
        self.assertEqual(status, 404, text)
        self.assertIn(b"GET/HEAD /metrics", text)
        status, headers, _ = request("POST", "/metrics", b"x")
        self.assertEqual((status, headers.get("allow")), (405, "GET, HEAD"))
        status, headers, body = request("HEAD", "/status")
        self.assertEqual((status, body), (200, b""))
        status, headers, _ = request("GET", "/control")
        self.assertEqual((status, headers.get("allow")), (405, "POST"))
        status, headers, _ = request("DELETE", "/status")
        self.assertEqual(status, 405)
        for body, message in [(b"{not json", b"not a JSON object"), (b'{"action": "explode"}', b"unknown action"),
                              (b'{"action": "open"}', b"needs an \"index\""), (b'{"action": "open", "index": 99}', b"out of range"),
                              (b"\x00\xff\xfe garbage", b"not a JSON object")]:
            status, _, text = request("POST", "/control", body, self.authorized())
            self.assertEqual(status, 400, body)
            self.assertIn(message, text)
        status, _, text = request("POST", "/control", b"{" + b" " * 5000 + b"}", self.authorized())
        self.assertEqual(status, 413, text)
        # Chunked, without a Content-Length: the limit holds while reading.
        chunks = iter([b'{"action": "next", "pad": "', b"x" * 3000, b"x" * 3000, b'"}'])
        status, _, text = request("POST", "/control", chunks, {**self.authorized(), "Transfer-Encoding": "chunked"})
        self.assertEqual(status, 413, text)
        # 4 KB exactly is fine (a bad request for its content, not its size).
        body = b'{"action": "nope", "pad": "' + b"x" * (4096 - 29) + b'"}'
        self.assertEqual(len(body), 4096)
        self.assertEqual(request("POST", "/control", body, self.authorized())[0], 400)

    def test_a_port_in_use_is_a_clear_log_line_and_the_kiosk_runs_on(self) -> None:
        folder = self.folder / "second"
        folder.mkdir()
        second = RemoteKiosk.__new__(RemoteKiosk)
        second.port = self.kiosk.port
        second.folder = folder
        second.config = folder / "vitrine.toml"
        second.config.write_text(self.kiosk.config.read_text())
        second.log_path = folder / "vitrine.log"
        second.log_file = open(second.log_path, "w")
        second.process = subprocess.Popen([str(kiosk.build_vitrine()), "run", "--config", str(second.config)],
                                          stdout=second.log_file, stderr=subprocess.STDOUT, cwd=folder)
        line = wait_until(lambda: next((l for l in second.log().splitlines() if "remote: cannot serve" in l), None),
                          30, "the bind failure in the log")
        self.assertIn(f"remote: cannot serve on 127.0.0.1:{self.kiosk.port} (remote.listen): bind: Address already in use",
                      line)
        self.assertIn("the kiosk goes on without remote access", line)
        time.sleep(1)
        self.assertIsNone(second.process.poll(), "the kiosk exited")
        self.assertIn("waiting for a display", second.log())
        code, log = second.stop()
        self.assertEqual(code, 0, log)
        # The first one still answers.
        self.assertEqual(self.kiosk.request("GET", "/status")[0], 200)

    # -- a real Prometheus

    @unittest.skipUnless(shutil.which("prometheus"), NO_PROMETHEUS)
    def test_prometheus_scrapes_the_kiosk(self) -> None:
        port = free_port()
        folder = self.folder / "prometheus"
        (folder / "data").mkdir(parents=True)
        config = folder / "prometheus.yml"
        config.write_text(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
            "scrape_configs:\n  - job_name: vitrine\n"
            f"    static_configs:\n      - targets: ['127.0.0.1:{self.kiosk.port}']\n")
        log = open(folder / "prometheus.log", "w")
        server = subprocess.Popen(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={folder / 'data'}",
                                   f"--web.listen-address=127.0.0.1:{port}"], stdout=log, stderr=subprocess.STDOUT)
        try:
            def query(expression: str) -> list:
                url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expression})
                try:
                    with urllib.request.urlopen(url, timeout=2) as response:
                        document = json.load(response)
                except OSError:
                    return []
                return document["data"]["result"] if document.get("status") == "success" else []

            frames = wait_until(lambda: query('vitrine_frames_total{job="vitrine"}'), 60, "vitrine_frames_total in Prometheus", 0.5)
            self.assertEqual(frames[0]["value"][1], "0")
            photos = wait_until(lambda: query("vitrine_photos"), 10, "vitrine_photos in Prometheus", 0.5)
            self.assertEqual(photos[0]["metric"]["instance"], f"127.0.0.1:{self.kiosk.port}")
            up = query("up")
            self.assertEqual(up[0]["value"][1], "1")
            waiting = query('vitrine_state{state="waiting_for_display"}')
            self.assertEqual(waiting[0]["value"][1], "1")
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()

    # -- hostile clients

    def test_hostile_clients_leave_the_kiosk_running_without_leaking(self) -> None:
        kiosk_ = self.kiosk
        self.assertEqual(kiosk_.request("GET", "/status")[0], 200)
        before = kiosk_.descriptors()

        def exchange(data: bytes, read_timeout: float = 15) -> bytes:
            with socket.create_connection(("127.0.0.1", kiosk_.port), timeout=read_timeout) as s:
                try:
                    s.sendall(data)
                    received = b""
                    while chunk := s.recv(65536):
                        received += chunk
                    return received
                except (ConnectionResetError, BrokenPipeError):
                    return b"(reset)"

        # Garbage: answered 400 or dropped, never a hang.
        for data in [os.urandom(2048), b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(200),
                     b"GET /status HTTP/9.9\r\n\r\n", b"GET /status\r\n\r\n", b"\r\n\r\n\r\n",
                     b"GET /status HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                     b"GET /status HTTP/1.1\r\nBad Header\r\n\r\n"]:
            reply = exchange(data)
            self.assertTrue(reply == b"" or reply == b"(reset)" or reply.startswith(b"HTTP/1.1 4"), reply[:200])
        # A huge header (100 KB) and many headers: refused (431 or dropped).
        for data in [b"GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",
                     b"GET /status HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(2000)) + b"\r\n"]:
            reply = exchange(data)
            self.assertTrue(reply.startswith(b"HTTP/1.1 4") or reply in (b"", b"(reset)"), reply[:200])
        # A megabyte of body with a Content-Length: 413 without reading it all.
        with socket.create_connection(("127.0.0.1", kiosk_.port), timeout=10) as s:
            s.sendall(b"POST /control HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode()
                      + b"\r\nContent-Length: 1048576\r\n\r\n" + b"x" * 8192)
            self.assertTrue(s.recv(4096).startswith(b"HTTP/1.1 413"))

        # Slow clients, one byte a second: one in the head, closed by the 5 s deadline for a request's
        # head (issue #22), one in the body, closed by the 10 s deadline for the whole request; and
        # meanwhile everyone else is served at once.
        slow = []
        for prefix in [b"GET /sta", b"POST /control HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"]:
            s = socket.create_connection(("127.0.0.1", kiosk_.port), timeout=30)
            s.sendall(prefix)
            slow.append(s)
        started = time.monotonic()
        closed_after: dict[int, float] = {}
        while len(closed_after) < len(slow) and time.monotonic() - started < 25:
            for index, s in enumerate(slow):
                if index in closed_after:
                    continue
                try:
                    s.sendall(b"t")
                    s.setblocking(False)
                    try:
                        if s.recv(4096) == b"":
                            closed_after[index] = time.monotonic() - started
                    except BlockingIOError:
                        pass
                    finally:
                        s.setblocking(True)
                except (BrokenPipeError, ConnectionResetError):
                    closed_after[index] = time.monotonic() - started
            t0 = time.monotonic()
            self.assertEqual(kiosk_.request("GET", "/status", timeout=2)[0], 200)
            self.assertLess(time.monotonic() - t0, 1.0, "a slow client held up another")
            time.sleep(1)
        for s in slow:
            s.close()
        self.assertEqual(sorted(closed_after), [0, 1], f"slow clients still open after 25 s: {closed_after}")
        self.assertTrue(4 <= closed_after[0] <= 12, f"the slow head: {closed_after}")
        self.assertTrue(8 <= closed_after[1] <= 20, f"the slow body: {closed_after}")

        # Hundreds of connections opened and dropped: half idle, half mid-request.
        sockets = []
        for index in range(300):
            s = socket.create_connection(("127.0.0.1", kiosk_.port), timeout=10)
            if index % 2:
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            sockets.append(s)
        for s in sockets:
            s.close()
        # Everything is answered again once the server has seen the closes (until then this address
        # is over its 8 connections and a new one is refused), and the descriptors go back.
        def answers_metrics() -> bool:
            try:
                return kiosk_.request("GET", "/metrics", timeout=2)[0] == 200
            except (ConnectionResetError, BrokenPipeError, TimeoutError, OSError):
                return False
        wait_until(answers_metrics, 10, "/metrics to answer again after 300 dropped connections", 0.2)
        wait_until(lambda: kiosk_.descriptors() <= before, 15,
                   f"vitrine's descriptors to return to {before} (now {kiosk_.descriptors()})", 0.5)
        self.assertIsNone(kiosk_.process.poll(), "vitrine exited")


if __name__ == "__main__":
    unittest.main()
