#!/usr/bin/env python3
"""Debian 12 booted in qemu with systemd as PID 1 and the Vitrine package installed, driven from
the host: the guest of the real-systemd tests.

    kernel = vm.prepare_kernel()
    root = installed_root(deb, kernel, workdir)     # debootstrap'd bookworm (cached), then
                                                    # `apt-get install ./vitrine_*.deb` in a chroot
    image = root_image(root, workdir / "root.cpio.lz4")
    with SystemdVM(kernel, image, files={"/etc/vitrine/vitrine.toml": b"..."},
                   append="modprobe.blacklist=virtio_gpu") as guest:
        guest.wait_until_booted()                   # systemctl is-system-running --wait
        guest.check("systemctl is-active vitrine")  # vm.VM's API: run, check, spawn, screendump...

Every boot starts from the same image (the root is the initramfs, a tmpfs), plus `files`: a
second cpio appended to it, so a boot can carry a drop-in (`/etc/systemd/system/vitrine.service.d/
x.conf`) and a config of its own. Units already enabled start at boot as on a kiosk.

    python3 Tests/EndToEnd/systemd_vm.py [--deb out/vitrine_*.deb] [--file SRC:DEST]... -- COMMAND

boots one guest, runs COMMAND once the system is up, prints its output and exits with its code.

The base root (debootstrap --variant=minbase with systemd-sysv, udev, dbus, kmod) is cached in
~/.cache/vitrine-e2e (VITRINE_E2E_ROOT_CACHE), keyed by a hash of what goes in; the mirror is
VITRINE_DEBIAN_MIRROR (default deb.debian.org). Facts behind the choices: shared/SYSTEMD-VM-NOTES.md.
Needs root (debootstrap, chroot) and network for the first build and for the package's dependencies.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm  # noqa: E402
from vm import VMError  # noqa: E402

SUITE = "bookworm"
MIRROR = os.environ.get("VITRINE_DEBIAN_MIRROR") or "http://deb.debian.org/debian"
BASE_PACKAGES = ["systemd-sysv", "udev", "dbus", "kmod"]
# Change when the base root's recipe changes: a new cache key.
ROOT_RECIPE = 1
# What the guest needs loaded (udev loads them by modalias; uinput on first open), with their
# dependencies added from the modules' own depends= lists.
GUEST_MODULES = ["virtio_pci", "virtio_input", "evdev", "uinput", "virtio-gpu", "virtio_console"]
# Left out of the image: the package manager's caches and what nobody reads in a test.
# (apt's folders stay: apt-get purge in the guest wants them.)
IMAGE_EXCLUDES = ["./var/cache/apt/*.bin", "./var/cache/apt/archives/*.deb", "./var/lib/apt/lists/*_*",
                  "./usr/share/doc", "./usr/share/man", "./usr/share/locale", "./usr/share/info"]
GUEST_TOOLS = "/usr/local/bin"

COMMANDS_UNIT = """[Unit]
Description=End-to-end test: the host's command channel (virtio-serial port vitrine.commands)

[Service]
ExecStart=/usr/local/sbin/vm-command-loop
"""


def root_cache_dir() -> Path:
    return Path(os.environ.get("VITRINE_E2E_ROOT_CACHE") or Path.home() / ".cache" / "vitrine-e2e")


def log(message: str) -> None:
    print(f"[systemd-vm] {message}", file=sys.stderr, flush=True)


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return vm._run(command, **kwargs)


def base_root(cache: Path | None = None) -> Path:
    """The debootstrap'd bookworm with systemd, made once and reused while its recipe is the same."""
    cache = cache or root_cache_dir()
    arch = _run(["dpkg", "--print-architecture"]).stdout.strip()
    recipe = json.dumps([ROOT_RECIPE, SUITE, MIRROR, BASE_PACKAGES, arch, "minbase"])
    root = cache / f"debian-{SUITE}-systemd-{hashlib.sha256(recipe.encode()).hexdigest()[:16]}"
    if (root / ".complete").exists():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / ".complete").exists():
            partial = root.with_name(root.name + ".partial")
            shutil.rmtree(partial, ignore_errors=True)
            shutil.rmtree(root, ignore_errors=True)
            debootstrap = shutil.which("debootstrap") or "/usr/sbin/debootstrap"
            log(f"debootstrap {SUITE} into {root} (once; a few minutes)")
            started = time.monotonic()
            _run([debootstrap, "--variant=minbase", "--include=" + ",".join(BASE_PACKAGES),
                  SUITE, str(partial), MIRROR])
            partial.rename(root)
            (root / ".recipe").write_text(recipe + "\n")
            (root / ".complete").touch()
            log(f"debootstrap took {time.monotonic() - started:.0f} s")
    return root


@contextlib.contextmanager
def chroot_mounts(root: Path):
    """/proc, /sys and /dev in the chroot while the package manager runs there."""
    mounted = []
    try:
        for source, kind in (("/proc", "proc"), ("/sys", "sysfs"), ("/dev", "devtmpfs")):
            target = root / source.lstrip("/")
            target.mkdir(exist_ok=True)
            _run(["mount", "-t", kind, kind, str(target)])
            mounted.append(target)
        yield
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", "-l", str(target)], check=False)
        # The root is deleted later: the host's /dev must not be in it then.
        still = [str(target) for target in mounted if os.path.ismount(target)]
        if still:
            raise VMError(f"could not unmount {', '.join(still)}; remove the root by hand after unmounting")


def in_chroot(root: Path, command: str) -> str:
    environment = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive",
                   "LC_ALL": "C.UTF-8"}
    result = subprocess.run(["chroot", str(root), "sh", "-c", command], capture_output=True, text=True,
                            env=environment)
    if result.returncode != 0:
        raise VMError(f"in the chroot: `{command}` exited {result.returncode}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return result.stdout


def module_closure(kernel: vm.Kernel, names: list[str]) -> list[Path]:
    """The modules' files with everything they depend on."""
    seen: dict[str, Path] = {}
    pending = list(names)
    while pending:
        name = pending.pop()
        key = name.replace("-", "_")
        if key in seen:
            continue
        path = kernel.module_path(name)
        seen[key] = path
        pending.extend(vm.module_dependencies(path))
    return sorted(seen.values())


def installed_root(deb: Path, kernel: vm.Kernel, workdir: Path, tools: dict[str, Path] | None = None) -> Path:
    """A copy of the base root in `workdir`/root with the package installed by apt (its
    dependencies from Debian; no Swift), the kernel's modules, the harness (command channel
    service, vm-bg & co., busybox for usleep) and `tools` (name -> static binary) in /usr/local/bin.
    The package's own postinst enables the unit."""
    root = workdir / "root"
    _run(["cp", "-a", str(base_root()), str(root)])
    shutil.copy(deb, root / "tmp" / deb.name)
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    with chroot_mounts(root):
        install = f"apt-get install -y --no-install-recommends /tmp/{deb.name}"
        try:
            in_chroot(root, install)
        except VMError:
            log("apt-get install failed; apt-get update and again (the cached lists may be old)")
            in_chroot(root, "apt-get update -qq")
            in_chroot(root, install)
    (root / "tmp" / deb.name).unlink()

    version = kernel.version
    modules = root / "lib" / "modules" / version
    for path in module_closure(kernel, GUEST_MODULES):
        target = modules / path.relative_to(kernel.modules_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    for name in ("modules.builtin", "modules.builtin.modinfo", "modules.order"):
        shutil.copy(kernel.modules_dir / name, modules / name)
    depmod = shutil.which("depmod") or "/usr/sbin/depmod"
    _run([depmod, "-b", str(root), version])

    local = root / GUEST_TOOLS.lstrip("/")
    local.mkdir(parents=True, exist_ok=True)
    shutil.copy(shutil.which("busybox") or "/bin/busybox", local / "busybox")
    (local / "usleep").symlink_to("busybox")
    for name, script in (("vm-bg", vm.BACKGROUND_SCRIPT), ("vm-wait", vm.WAIT_SCRIPT),
                         ("vm-wait-log", vm.WAIT_LOG_SCRIPT)):
        (local / name).write_text(script)
        (local / name).chmod(0o755)
    for name, path in (tools or {}).items():
        shutil.copy(path, local / name)
    loop = root / "usr" / "local" / "sbin" / "vm-command-loop"
    loop.parent.mkdir(parents=True, exist_ok=True)
    loop.write_text("#!/bin/sh\n" + vm.COMMAND_LOOP + "systemctl poweroff\n")
    loop.chmod(0o755)
    units = root / "etc" / "systemd" / "system"
    (units / "vm-commands.service").write_text(COMMANDS_UNIT)
    wants = units / "multi-user.target.wants"
    wants.mkdir(exist_ok=True)
    (wants / "vm-commands.service").symlink_to("/etc/systemd/system/vm-commands.service")
    return root


def root_image(root: Path, output: Path) -> Path:
    """The root as an lz4 (legacy) newc cpio, the whole of it the initramfs."""
    prune = " -o ".join(f"-path '{path}'" for path in IMAGE_EXCLUDES)
    script = (f"cd {root} && find . -xdev \\( {prune} \\) -prune -o -print "
              f"| cpio -o -H newc --quiet | lz4 -l -1 -q -c > {output}")
    result = subprocess.run(["bash", "-c", "set -o pipefail; " + script], capture_output=True, text=True)
    if result.returncode != 0:
        raise VMError(f"making the root image failed: {result.stderr.strip()}")
    return output


class SystemdVM(vm.VM):
    """A guest booted from `root_image` with systemd as PID 1, 2 CPUs and 1 GiB (the rootfs
    tmpfs may take half); `files` (guest path -> bytes or host path) are appended for this boot
    only; `append` adds kernel parameters."""

    def __init__(self, kernel: vm.Kernel, image: Path, files: dict[str, bytes | str | Path] | None = None,
                 append: str = "", xres: int = 1280, yres: int = 800, **options) -> None:
        workdir = Path(tempfile.mkdtemp(prefix="vitrine-systemd-vm-"))
        initramfs = workdir / "initramfs"
        archive = vm.Cpio()
        for path, source in (files or {}).items():
            data = source if isinstance(source, bytes) else Path(source).read_bytes()
            archive.file(path, data)
        # lz4 too: the kernel's decoder of the legacy lz4 format reads to the end of its input, so
        # an uncompressed archive after it is "Decoding failed"; a second lz4 stream is read on.
        extra = subprocess.run(["lz4", "-l", "-1", "-q", "-c"], input=archive.finish(), capture_output=True, check=True).stdout
        with open(initramfs, "wb") as out, open(image, "rb") as base:
            shutil.copyfileobj(base, out)
            out.write(extra)
        super().__init__(kernel, initramfs, workdir=workdir, xres=xres, yres=yres, memory_mib=1536,
                         append=f"rdinit=/lib/systemd/systemd {append}".strip(), cpus=2,
                         boot_timeout=180, **options)
        self._own_workdir = True

    def boot(self, wait_for_commands: bool = True) -> "SystemdVM":
        super().boot(wait_for_commands)
        if "Initramfs unpacking failed" in self.console():
            raise VMError(f"the kernel could not unpack the root image:\n{self.console()[-3000:]}")
        return self

    def wait_until_booted(self, timeout: float = 120) -> str:
        """Until systemd has finished starting up; returns is-system-running's answer
        (running, or degraded with the failed units listed)."""
        state = self.run("systemctl is-system-running --wait", timeout=timeout).output.strip().splitlines()[-1]
        if state != "running":
            state += "\n" + self.run("systemctl --failed --no-legend").output
        return state

    def journal(self, unit: str) -> str:
        return self.run(f"journalctl -b -u {unit} --no-pager -o cat").output

    def service(self, unit: str) -> dict[str, str]:
        """systemctl show's properties that tell where a service is."""
        output = self.check(f"systemctl show -p ActiveState,SubState,MainPID,Result,NRestarts,ExecMainStatus {unit}")
        return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)


def main() -> int:
    parser = argparse.ArgumentParser(description="Boot Debian 12 with systemd and the Vitrine package; run one command.")
    parser.add_argument("--deb", type=Path, help="the package (default: the newest out/vitrine_*.deb)")
    parser.add_argument("--file", action="append", default=[], metavar="SRC:DEST", help="a file for this boot")
    parser.add_argument("--append", default="", help="more kernel parameters")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the shell command to run (after --)")
    options = parser.parse_args()
    command = " ".join(word for word in options.command if word != "--") or "systemctl status vitrine --no-pager"
    deb = options.deb or max((vm.REPO / "out").glob("vitrine_*.deb"), key=lambda p: p.stat().st_mtime)
    kernel = vm.prepare_kernel()
    with tempfile.TemporaryDirectory(prefix="vitrine-systemd-root-") as scratch:
        root = installed_root(deb, kernel, Path(scratch))
        image = root_image(root, Path(scratch) / "root.cpio.lz4")
        files = {dest: Path(src) for src, _, dest in (spec.partition(":") for spec in options.file)}
        with SystemdVM(kernel, image, files=files, append=options.append) as guest:
            log(f"booted: {guest.wait_until_booted()}")
            result = guest.run(command, timeout=300)
            print(result.output)
    return result.code


if __name__ == "__main__":
    sys.exit(main())
