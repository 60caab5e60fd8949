"""The remote server's OpenAPI document (SPEC §9, §14) against the live server: `GET /openapi.json`
is the document kept in the repository (Sources/RemoteHTTP/OpenAPIDocument.swift), and schemathesis
(PyPI, pinned: scripts/schemathesis, its venv cached in ~/.cache) runs a bounded number of cases on
every operation and fails on any finding of four checks: not_a_server_error (a 5xx; 503, the
documented "not now", is allowed where the operation lists it: Tests/EndToEnd/schemathesis.toml),
status_code_conformance, content_type_conformance and response_schema_conformance. Two servers:

- `vitrine run` on this host, which has no display: it waits for one, /status and /metrics answer,
  /screenshot and every action but reload answer 503;
- the kiosk in qemu on a real display, reached from here through guest networking (vm.py's
  forwards): screenshots, and actions that page, blank and reload while schemathesis runs.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_remote_openapi.py' -v

VITRINE_SCHEMATHESIS_EXAMPLES sets the cases per operation (50), VITRINE_SCHEMATHESIS_SEED the
seed (fixed, so that a run is repeatable; a finding prints the request that reproduces it).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

import kiosk
import vm
from test_remote import RemoteKiosk, wait_until

TOKEN = "openapi-e2e-0b5d9e"
SCHEMATHESIS = vm.REPO / "scripts" / "schemathesis"
CONFIG = Path(__file__).resolve().parent / "schemathesis.toml"
DOCUMENT_SOURCE = vm.REPO / "Sources" / "RemoteHTTP" / "OpenAPIDocument.swift"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"
EXAMPLES = int(os.environ.get("VITRINE_SCHEMATHESIS_EXAMPLES", "50"))
SEED = int(os.environ.get("VITRINE_SCHEMATHESIS_SEED", "26"))


def repository_document() -> bytes:
    """The JSON between the raw string's delimiters in OpenAPIDocument.swift, as the server sends it."""
    source = DOCUMENT_SOURCE.read_text()
    start = source.index('#"""\n') + len('#"""\n')
    return source[start:source.index('\n"""#', start)].encode()


def fetch(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


class SchemathesisRun:
    """One `st run` against `base` (http://127.0.0.1:PORT), in a scratch folder of its own."""

    def __init__(self, test: unittest.TestCase, base: str, scratch: Path) -> None:
        self.test = test
        self.base = base
        self.scratch = scratch

    def excluded_paths(self) -> list[str]:
        # GET / is the status page's (SPEC §14), described before its branch lands: left out, saying
        # so, only while the server's own list of endpoints (its 404 answer) does not have it.
        _, _, text = fetch(f"{self.base}/no-such-endpoint")
        if re.search(r"GET /(,|$)", text.decode().strip()):
            return []
        print(f"\n  GET / is not served here (the status page has not landed): left out of the run")
        return ["/"]

    def run(self) -> str:
        # From a file with the base URL, not from the URL: schemathesis leaves out the operation
        # that serves the document it was given (GET /openapi.json), which is one to test too.
        status, _, document = fetch(f"{self.base}/openapi.json")
        self.test.assertEqual((status, document), (200, repository_document()))
        (self.scratch / "openapi.json").write_bytes(document)
        command = [str(SCHEMATHESIS), "--no-color", "--config-file", str(CONFIG), "run",
                   str(self.scratch / "openapi.json"), "--url", self.base,
                   "--checks", CHECKS, "--max-examples", str(EXAMPLES),
                   "--seed", str(SEED), "--header", f"Authorization: Bearer {TOKEN}",
                   "--report", "junit", "--report-dir", str(self.scratch / "report")]
        excluded = self.excluded_paths()
        for path in excluded:
            command += ["--exclude-path", path]
        started = time.monotonic()
        result = subprocess.run(command, cwd=self.scratch, capture_output=True, text=True, timeout=1200,
                                env={**os.environ, "NO_COLOR": "1"})
        output = result.stdout + result.stderr
        print(f"\n  schemathesis: {time.monotonic() - started:.0f} s, exit {result.returncode}\n"
              + "\n".join(f"  | {line}" for line in output.strip().splitlines()[-12:]))
        self.test.assertEqual(result.returncode, 0, f"schemathesis found problems (seed {SEED}):\n{output}")
        # It ran cases on every operation, not zero because the document did not load.
        report = next((self.scratch / "report").glob("*.xml")).read_text()
        tested = set(re.findall(r'<testcase name="([^"]+)"', report))
        expected = {"GET /openapi.json", "GET /status", "GET /metrics", "GET /screenshot", "POST /control", "GET /"}
        self.test.assertEqual(tested, expected - {f"GET {path}" for path in excluded}, report)
        self.test.assertNotIn("<failure", report)
        self.test.assertNotIn("<error", report)
        return output


class OpenAPIWhileWaitingForADisplayTest(unittest.TestCase):
    """`vitrine run` on this host (no /dev/dri): the server answers while it waits for a display."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.scratch = tempfile.TemporaryDirectory(prefix="vitrine-openapi-")
        cls.folder = Path(cls.scratch.name)
        token_file = cls.folder / "remote.token"
        token_file.write_text(TOKEN + "\n")
        cls.kiosk = RemoteKiosk(cls.folder, token_file)

    @classmethod
    def tearDownClass(cls) -> None:
        code, log = cls.kiosk.stop()
        cls.scratch.cleanup()
        if code != 0:
            raise AssertionError(f"vitrine exited {code} on SIGTERM:\n{log}")
        errors = [line for line in log.splitlines() if "[error]" in line or "[critical]" in line]
        if errors:
            raise AssertionError("vitrine logged errors:\n" + "\n".join(errors))

    def test_the_served_document_is_the_repositorys(self) -> None:
        status, headers, body = fetch(f"http://127.0.0.1:{self.kiosk.port}/openapi.json")
        self.assertEqual(status, 200)
        self.assertEqual(headers["content-type"], "application/json")
        self.assertEqual(body, repository_document())
        document = json.loads(body)
        self.assertRegex(document["openapi"], r"^3\.1\.\d+$")
        self.assertEqual(set(document["paths"]), {"/", "/openapi.json", "/status", "/metrics", "/screenshot", "/control"})

    def test_schemathesis_finds_nothing(self) -> None:
        folder = self.folder / "schemathesis"
        folder.mkdir()
        SchemathesisRun(self, f"http://127.0.0.1:{self.kiosk.port}", folder).run()
        self.assertIsNone(self.kiosk.process.poll(), "vitrine exited")
        status, _, body = fetch(f"http://127.0.0.1:{self.kiosk.port}/status")
        self.assertEqual((status, json.loads(body)["state"]), (200, "waiting_for_display"))


class OpenAPIOnARealDisplayTest(kiosk.KioskTestCase):
    """The kiosk in qemu, its remote server on the guest's network, reached from here."""

    base_config = kiosk.config(remote={"listen": "0.0.0.0:9180", "token_file": "/etc/remote.token"})
    extra_files = {"/etc/remote.token": (TOKEN + "\n").encode()}
    guest_ports = (9180,)
    guest_tools = ()

    def test_schemathesis_finds_nothing(self) -> None:
        machine = self.machine
        self.start_vitrine()
        machine.wait_for_log("vitrine", "remote: listening on 0.0.0.0:9180", timeout=10)
        base = f"http://127.0.0.1:{machine.host_port(9180)}"
        def reachable():
            try:
                return fetch(f"{base}/status")
            except OSError:
                return None
        status, _, body = wait_until(reachable, 20, "/status through the forward")
        self.assertEqual((status, json.loads(body)["state"]), (200, "showing"))
        self.assertEqual(fetch(f"{base}/openapi.json")[2], repository_document())
        # The screenshot is there to be checked: a frame, with the token.
        status, headers, body = fetch(f"{base}/screenshot", {"Authorization": f"Bearer {TOKEN}"})
        self.assertEqual((status, headers["content-type"], body[:4]), (200, "image/png", b"\x89PNG"))

        with tempfile.TemporaryDirectory(prefix="vitrine-openapi-") as scratch:
            SchemathesisRun(self, base, Path(scratch)).run()
        log = machine.log_of("vitrine")
        # The actions it sent were carried out, and the kiosk runs on, showing.
        self.assertRegex(log, r"remote: (next|previous|open \d+|close|reload|display (off|on))")
        self.assertEqual(machine.run("kill -0 $(cat /tmp/bg/vitrine.pid)").code, 0, f"vitrine exited:\n{log}")
        errors = [line for line in log.splitlines() if "[error]" in line or "[critical]" in line]
        self.assertEqual(errors, [], log)
        self.assertEqual(fetch(f"{base}/status")[0], 200)


if __name__ == "__main__":
    unittest.main()
