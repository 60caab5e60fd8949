"""scripts/check-elf, the packaging's check that a binary needs nothing newer than its release has:
fed programs built here against a library with symbol versions, checked against a made-up release
root whose copy of that library is older (lacks the newest version), lacks it, or has it; and the
real glibc of this machine.

    python3 -m unittest discover -s Tests/EndToEnd -p 'test_check_elf.py' -v
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "scripts" / "check-elf"
TRIPLET = {"x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu"}
MACHINE = subprocess.run(["uname", "-m"], capture_output=True, text=True).stdout.strip()
ARCH = {"x86_64": "amd64", "aarch64": "arm64"}.get(MACHINE, MACHINE)

LIBRARY = """
int vitrine_probe_old(void) { return 1; }
int vitrine_probe_new(void) { return 2; }
"""
# The library's newer build defines VITRINE_PROBE_2 (as a newer glibc defines GLIBC_2.42); the
# older one, as a release would have it, only VITRINE_PROBE_1.
NEW_VERSIONS = "VITRINE_PROBE_1 { global: vitrine_probe_old; local: *; };\nVITRINE_PROBE_2 { global: vitrine_probe_new; } VITRINE_PROBE_1;\n"
OLD_VERSIONS = "VITRINE_PROBE_1 { global: vitrine_probe_old; vitrine_probe_new; local: *; };\n"
PROGRAM = """
int vitrine_probe_old(void);
int vitrine_probe_new(void);
int main(void) { return vitrine_probe_old() + vitrine_probe_new() == 3 ? 0 : 1; }
"""


@unittest.skipUnless(shutil.which("gcc") and shutil.which("readelf") and ARCH in ("amd64", "arm64"),
                     "gcc and readelf are needed to build the probes")
class CheckElfTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls) -> None:
        cls.scratch = Path(tempfile.mkdtemp(prefix="vitrine-check-elf-"))
        (cls.scratch / "probe.c").write_text(LIBRARY)
        (cls.scratch / "main.c").write_text(PROGRAM)
        cls.new_library = cls.library("new", NEW_VERSIONS)
        cls.old_library = cls.library("old", OLD_VERSIONS)
        # The program linked against the newer library needs VITRINE_PROBE_2.
        cls.program = cls.scratch / "program"
        cls.gcc("-o", str(cls.program), str(cls.scratch / "main.c"), str(cls.new_library))

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @staticmethod
    def gcc(*arguments: str) -> None:
        subprocess.run(["gcc", *arguments], check=True, capture_output=True)

    @classmethod
    def library(cls, name: str, versions: str) -> Path:
        folder = cls.scratch / name
        folder.mkdir()
        (folder / "probe.map").write_text(versions)
        path = folder / "libvitrineprobe.so.1"
        cls.gcc("-shared", "-fPIC", "-Wl,-soname,libvitrineprobe.so.1", f"-Wl,--version-script,{folder / 'probe.map'}",
                "-o", str(path), str(cls.scratch / "probe.c"))
        return path

    def release_root(self, library: Path | None) -> Path:
        """A made-up release: this machine's C library, and the probe library as given (or none)."""
        root = Path(tempfile.mkdtemp(prefix="root-", dir=self.scratch))
        libraries = root / "usr" / "lib" / TRIPLET[MACHINE]
        libraries.mkdir(parents=True)
        for name in ("libc.so.6",):
            shutil.copy(Path("/lib") / TRIPLET[MACHINE] / name, libraries / name)
        if library:
            shutil.copy(library, libraries / library.name)
        return root

    def check(self, root: Path, *files: Path) -> subprocess.CompletedProcess:
        return subprocess.run([str(CHECK), "--root", str(root), "--arch", ARCH, "--release", "Debian 99 (probe)",
                               *map(str, files)], capture_output=True, text=True)

    def test_a_symbol_version_the_release_lacks_fails_and_says_which(self) -> None:
        result = self.check(self.release_root(self.old_library), self.program)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("program needs VITRINE_PROBE_2 from libvitrineprobe.so.1, newer than Debian 99 (probe) "
                      f"{ARCH} has (its libvitrineprobe.so.1 goes up to VITRINE_PROBE_1)", result.stderr)

    def test_the_release_with_that_version_passes(self) -> None:
        result = self.check(self.release_root(self.new_library), self.program)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("need nothing newer than Debian 99 (probe)", result.stdout)

    def test_a_library_the_release_lacks_fails(self) -> None:
        result = self.check(self.release_root(None), self.program)
        self.assertEqual(result.returncode, 1)
        self.assertIn("program needs libvitrineprobe.so.1, which Debian 99 (probe)", result.stderr)

    def test_a_private_folder_supplies_a_library(self) -> None:
        """The package's own folder (--private) counts: a runtime carried in /usr/lib/vitrine."""
        result = subprocess.run([str(CHECK), "--root", str(self.release_root(None)), "--arch", ARCH,
                                 "--private", str(self.new_library.parent), str(self.program)], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_glibc_versions_are_checked_like_any_library(self) -> None:
        """A program of this machine needs this machine's glibc versions: against the real root it
        passes, against a root whose libc.so.6 is the probe's (no GLIBC_ versions) it names them."""
        self.assertEqual(self.check(Path("/"), self.program).returncode, 1, "the probe library is in no real root")
        root = self.release_root(self.new_library)
        shutil.copy(self.old_library, root / "usr" / "lib" / TRIPLET[MACHINE] / "libc.so.6")
        result = self.check(root, self.program)
        self.assertEqual(result.returncode, 1)
        self.assertRegex(result.stderr, r"program needs GLIBC_2\.[0-9.]+ from libc\.so\.6, newer than")

    def test_another_architecture_is_refused(self) -> None:
        other = "arm64" if ARCH == "amd64" else "amd64"
        result = subprocess.run([str(CHECK), "--root", "/", "--arch", other, str(self.program)], capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"not {other}", result.stderr)


if __name__ == "__main__":
    unittest.main()
