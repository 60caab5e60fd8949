#!/usr/bin/env python3
"""Debian booted in qemu with systemd as PID 1 and the Vitrine package, driven from the host: the
guest of the real-systemd tests, for each platform the package is built for (a Debian release on an
architecture: Debian 12 amd64, Debian 13 amd64 and arm64).

    platform = Platform("trixie", "arm64")          # or host_platform(): this machine's
    base = base_root(platform)                      # mmdebstrap'd minbase with systemd (cached)
    kernel = platform_kernel(platform)              # that release's linux-image-ARCH (cached)
    root = installed_root(deb, kernel, workdir, platform)   # `apt-get install ./vitrine_*.deb` in a chroot
    root = seeded_root(deb, kernel, workdir, platform)      # or: the package and a local apt
                                                    # repository of its dependencies, for the guest
                                                    # to install as a user does
    image = root_image(root, workdir / "root.cpio.lz4")
    with SystemdVM(kernel, image, files={"/etc/vitrine/vitrine.toml": b"..."},
                   append="modprobe.blacklist=virtio_gpu") as guest:
        guest.wait_until_booted()                   # systemctl is-system-running --wait
        guest.check("systemctl is-active vitrine")  # vm.VM's API: run, check, spawn, screendump...

Every boot starts from the same image (the root is the initramfs, a tmpfs), plus `files`: a
second cpio appended to it, so a boot can carry a drop-in (`/etc/systemd/system/vitrine.service.d/
x.conf`) and a config of its own. Units already enabled start at boot as on a kiosk. An arm64 guest
runs in qemu-system-aarch64 (`-M virt -cpu cortex-a72`, TCG), its root made through
qemu-user-static (binfmt).

    python3 Tests/EndToEnd/systemd_vm.py [--platform trixie-arm64] [--deb out/vitrine_*.deb] [--seed]
                                         [--file SRC:DEST]... -- COMMAND

boots one guest, runs COMMAND once the system is up, prints its output and exits with its code.

The base roots (mmdebstrap --variant=minbase with systemd-sysv, udev, dbus, kmod, busybox) are
cached in ~/.cache/vitrine-e2e (VITRINE_E2E_ROOT_CACHE), keyed by a hash of what goes in; the
kernels in vm.py's cache; the mirror is VITRINE_DEBIAN_MIRROR (default deb.debian.org). Facts
behind the choices: shared/SYSTEMD-VM-NOTES.md. Needs root (mmdebstrap, chroot) and network for
the first build of each root and for the package's dependencies.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vm  # noqa: E402
from vm import VMError  # noqa: E402

MIRROR = os.environ.get("VITRINE_DEBIAN_MIRROR") or "http://deb.debian.org/debian"
SECURITY_MIRROR = os.environ.get("VITRINE_DEBIAN_SECURITY_MIRROR") or "http://deb.debian.org/debian-security"
# busybox: the harness's usleep.
BASE_PACKAGES = ["systemd-sysv", "udev", "dbus", "kmod", "busybox"]
# Change when the base root's recipe changes: a new cache key.
ROOT_RECIPE = 3
# What the guest needs loaded (udev loads them by modalias; uinput on first open), with their
# dependencies added from the modules' own depends= lists.
GUEST_MODULES = ["virtio_pci", "virtio_input", "evdev", "uinput", "virtio-gpu", "virtio_console"]
# Left out of the image: the package manager's caches and what nobody reads in a test.
# (apt's folders stay: apt-get purge in the guest wants them. The lists of a seeded root's local
# repository stay too: they are not Debian's, see seeded_root.)
IMAGE_EXCLUDES = ["./var/cache/apt/*.bin", "./var/cache/apt/archives/*.deb", "./var/lib/apt/lists/*debian*_*",
                  "./usr/share/doc", "./usr/share/man", "./usr/share/locale", "./usr/share/info"]
GUEST_TOOLS = "/usr/local/bin"
# seeded_root's apt repository of the package's dependencies, in the guest.
LOCAL_REPOSITORY = "/var/local/vitrine-deps"


@dataclass(frozen=True)
class Platform:
    """A Debian release on an architecture: what a root, its kernel and a package are made for."""

    release: str        # bookworm, trixie
    architecture: str   # amd64, arm64

    @property
    def name(self) -> str:
        return f"{self.release}-{self.architecture}"

    @property
    def emulator(self) -> vm.Emulator:
        return vm.emulator(self.architecture)

    @staticmethod
    def parse(name: str) -> "Platform":
        """"trixie-arm64" -> Platform("trixie", "arm64")."""
        release, _, architecture = name.partition("-")
        if not release or architecture not in vm.EMULATORS:
            raise VMError(f"platform {name!r}: RELEASE-ARCH, ARCH one of {', '.join(vm.EMULATORS)}")
        return Platform(release, architecture)


def host_platform() -> Platform:
    """This machine's release and architecture (bookworm-amd64 here)."""
    release = next((line.split("=", 1)[1].strip().strip('"') for line in Path("/etc/os-release").read_text().splitlines()
                    if line.startswith("VERSION_CODENAME=")), "bookworm")
    return Platform(release, vm.host_architecture())

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


def base_root_recipe(platform: Platform, cache: Path) -> tuple[list[str], str, Path]:
    """The base root's apt sources, its recipe (what goes in) and its folder, named by the recipe."""
    # The release with its updates and security suites, as an installed system has them: a package
    # built against the current libraries may depend on versions only those have.
    sources = [f"deb {MIRROR} {platform.release} main", f"deb {MIRROR} {platform.release}-updates main",
               f"deb {SECURITY_MIRROR} {platform.release}-security main"]
    recipe = json.dumps([ROOT_RECIPE, sources, BASE_PACKAGES, platform.architecture, "minbase"])
    root = cache / f"debian-{platform.name}-systemd-{hashlib.sha256(recipe.encode()).hexdigest()[:16]}"
    return sources, recipe, root


def base_root(platform: Platform | None = None, cache: Path | None = None) -> Path:
    """The platform's minbase root with systemd, made once by mmdebstrap and reused while its
    recipe is the same. A foreign architecture's maintainer scripts run under qemu-user-static.
    apt's lists are kept (installed_root and seeded_root resolve the package's dependencies
    with them, updated when they are too old)."""
    platform = platform or host_platform()
    cache = cache or root_cache_dir()
    sources, recipe, root = base_root_recipe(platform, cache)
    if (root / ".complete").exists():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / ".complete").exists():
            partial = root.with_name(root.name + ".partial")
            shutil.rmtree(partial, ignore_errors=True)
            shutil.rmtree(root, ignore_errors=True)
            log(f"mmdebstrap {platform.name} into {root} (once; minutes, more for a foreign architecture)")
            started = time.monotonic()
            _run(["mmdebstrap", "--variant=minbase", f"--architectures={platform.architecture}",
                  "--include=" + ",".join(BASE_PACKAGES), "--skip=cleanup/apt/lists",
                  platform.release, str(partial), *sources])
            partial.rename(root)
            (root / ".recipe").write_text(recipe + "\n")
            (root / ".complete").touch()
            log(f"mmdebstrap {platform.name} took {time.monotonic() - started:.0f} s")
    return root


def platform_kernel(platform: Platform | None = None, cache: Path | None = None) -> vm.Kernel:
    """The release's own kernel for the architecture (the package linux-image-ARCH depends on),
    downloaded by apt in the platform's base root, unpacked (never installed) into vm.py's kernel
    cache, its modules indexed by depmod; what qemu boots is made from its vmlinuz."""
    platform = platform or host_platform()
    cache = cache or vm.cache_dir()
    root = base_root(platform)
    meta = f"linux-image-{platform.architecture}"

    def package_name() -> str:
        depends = in_chroot(root, f"apt-cache depends {meta}")
        match = re.search(rf"Depends:\s*(linux-image-\S+-{platform.architecture})\n", depends)
        if not match:
            raise VMError(f"apt-cache depends {meta} in the {platform.name} root names no kernel:\n{depends}")
        return match.group(1)

    package = package_name()
    version = package.removeprefix("linux-image-")
    # The amd64 names are prepare_kernel's: the same kernel is downloaded once.
    boot = f"vmlinux-{version}" if platform.architecture == "amd64" else f"Image-{version}"
    kernel = vm.Kernel(version=version, root=cache / package, vmlinux=cache / boot,
                       architecture=platform.architecture)
    if kernel.vmlinux.exists() and (kernel.root / ".complete").exists():
        return kernel
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kernel.vmlinux.exists() and (kernel.root / ".complete").exists():
            return kernel
        log(f"downloading {package} ({platform.name})")
        shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
        download = root / "tmp" / "kernel-download"
        shutil.rmtree(download, ignore_errors=True)
        download.mkdir()
        with chroot_mounts(root):
            try:
                in_chroot(root, f"cd /tmp/kernel-download && apt-get download -q {package}")
            except VMError:
                log("apt-get download failed; apt-get update and again (the cached lists may be old)")
                in_chroot(root, "apt-get update -qq")
                package = package_name()
                if package.removeprefix("linux-image-") != version:
                    raise VMError(f"{meta} now depends on {package}: run the test again")
                in_chroot(root, f"cd /tmp/kernel-download && apt-get download -q {package}")
        debs = list(download.glob("*.deb"))
        if not debs:
            raise VMError(f"apt-get download {package} left no .deb")
        shutil.rmtree(kernel.root, ignore_errors=True)
        _run(["dpkg", "-x", str(debs[0]), str(kernel.root)])
        shutil.rmtree(download)
        # Debian 13's kernel has its modules in /usr/lib/modules (merged /usr): /lib is a link to
        # usr/lib there, and here, for depmod and vm.Kernel.
        if not (kernel.root / "lib").exists() and (kernel.root / "usr" / "lib" / "modules").is_dir():
            (kernel.root / "lib").symlink_to("usr/lib")
        depmod = shutil.which("depmod") or "/usr/sbin/depmod"
        _run([depmod, "-b", str(kernel.root), version])
        vmlinuz = (kernel.root / "boot" / f"vmlinuz-{version}").read_bytes()
        kernel.vmlinux.write_bytes(vm.extract_vmlinux(vmlinuz) if platform.architecture == "amd64"
                                   else vm.arm64_image(vmlinuz))
        (kernel.root / ".complete").touch()
    return kernel


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
    """The modules' files with everything they depend on (none for those built into the kernel)."""
    seen: dict[str, Path | None] = {}
    pending = list(names)
    while pending:
        name = pending.pop()
        key = name.replace("-", "_")
        if key in seen:
            continue
        if kernel.builtin(name):
            seen[key] = None
            continue
        path = kernel.module_path(name)
        seen[key] = path
        pending.extend(vm.module_dependencies(path))
    return sorted(path for path in seen.values() if path)


def apt_in_chroot(root: Path, command: str) -> str:
    """An apt-get command in the chroot, with the host's DNS; when it fails, the lists are updated
    and it runs again (the cached root's lists may name versions the mirror no longer has)."""
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    with chroot_mounts(root):
        try:
            return in_chroot(root, command)
        except VMError:
            log(f"`{command}` failed; apt-get update and again (the cached lists may be old)")
            in_chroot(root, "apt-get update -qq")
            return in_chroot(root, command)


def copied_base_root(workdir: Path, platform: Platform | None) -> Path:
    root = workdir / "root"
    _run(["cp", "-a", str(base_root(platform)), str(root)])
    return root


def installed_root(deb: Path, kernel: vm.Kernel, workdir: Path, tools: dict[str, Path] | None = None,
                   platform: Platform | None = None) -> Path:
    """A copy of the platform's base root in `workdir`/root with the package installed by apt in a
    chroot (its dependencies from Debian; no Swift) and the harness (add_harness). The package's
    own postinst enables the unit."""
    root = copied_base_root(workdir, platform)
    shutil.copy(deb, root / "tmp" / deb.name)
    apt_in_chroot(root, f"apt-get install -y --no-install-recommends /tmp/{deb.name}")
    (root / "tmp" / deb.name).unlink()
    add_harness(root, kernel, tools)
    return root


def seeded_root(deb: Path, kernel: vm.Kernel, workdir: Path, tools: dict[str, Path] | None = None,
                platform: Platform | None = None) -> Path:
    """A copy of the platform's base root in `workdir`/root where the guest installs the package as
    a user does (`apt install ./vitrine_*.deb`) with no network: the package in /root, and its
    dependencies, fetched by apt from Debian in a chroot, in a local repository (LOCAL_REPOSITORY,
    apt's only source, its lists already read). Plus the harness (add_harness)."""
    root = copied_base_root(workdir, platform)
    shutil.copy(deb, root / "tmp" / deb.name)
    apt_in_chroot(root, f"apt-get install -y --download-only --no-install-recommends /tmp/{deb.name}")
    (root / "tmp" / deb.name).unlink()
    shutil.copy(deb, root / "root" / deb.name)
    repository = root / LOCAL_REPOSITORY.lstrip("/")
    repository.mkdir(parents=True)
    for fetched in (root / "var" / "cache" / "apt" / "archives").glob("*.deb"):
        fetched.rename(repository / fetched.name)
    packages = _run(["dpkg-scanpackages", "--multiversion", "."], cwd=repository).stdout
    (repository / "Packages").write_text(packages)
    for lists in (root / "var" / "lib" / "apt" / "lists").glob("*_*"):
        if lists.is_file():
            lists.unlink()
    for sources in (root / "etc" / "apt" / "sources.list.d").glob("*"):
        sources.unlink()
    (root / "etc" / "apt" / "sources.list").write_text(f"deb [trusted=yes] file:{LOCAL_REPOSITORY} ./\n")
    with chroot_mounts(root):
        in_chroot(root, "apt-get update -qq")
    add_harness(root, kernel, tools)
    return root


def add_harness(root: Path, kernel: vm.Kernel, tools: dict[str, Path] | None = None) -> None:
    """The kernel's modules for virtio, evdev and uinput (with modules.dep), the harness (command
    channel service, vm-bg & co.) and `tools` (name -> static binary) in /usr/local/bin."""
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
    (local / "usleep").symlink_to("/bin/busybox")
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
    """A guest booted from `root_image` with systemd as PID 1, 2 CPUs and 1.5 GiB (the rootfs
    tmpfs may take half: a seeded root, where the guest installs the package, needs more), in the
    kernel's architecture's emulator; `files` (guest path -> bytes or host path) are appended for
    this boot only; `append` adds kernel parameters."""

    def __init__(self, kernel: vm.Kernel, image: Path, files: dict[str, bytes | str | Path] | None = None,
                 append: str = "", xres: int = 1280, yres: int = 800, memory_mib: int = 1536,
                 boot_timeout: float = 600, **options) -> None:
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
        super().__init__(kernel, initramfs, workdir=workdir, xres=xres, yres=yres, memory_mib=memory_mib,
                         append=f"rdinit=/lib/systemd/systemd {append}".strip(), cpus=2,
                         boot_timeout=boot_timeout, **options)
        self._own_workdir = True

    def boot(self, wait_for_commands: bool = True) -> "SystemdVM":
        super().boot(wait_for_commands)
        if "Initramfs unpacking failed" in self.console():
            raise VMError(f"the kernel could not unpack the root image:\n{self.console()[-3000:]}")
        return self

    def wait_until_booted(self, timeout: float = 600) -> str:
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
    parser = argparse.ArgumentParser(description="Boot Debian with systemd and the Vitrine package; run one command.")
    parser.add_argument("--platform", type=Platform.parse, default=host_platform(),
                        help="RELEASE-ARCH: bookworm-amd64, trixie-amd64, trixie-arm64 (default: this machine's)")
    parser.add_argument("--deb", type=Path, help="the package (default: the newest out/vitrine_*_ARCH.deb)")
    parser.add_argument("--seed", action="store_true",
                        help="do not install the package: leave it in /root with a local repository of its "
                             "dependencies, for `apt install ./vitrine_*.deb` in the guest")
    parser.add_argument("--file", action="append", default=[], metavar="SRC:DEST", help="a file for this boot")
    parser.add_argument("--append", default="", help="more kernel parameters")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the shell command to run (after --)")
    options = parser.parse_args()
    platform = options.platform
    command = " ".join(word for word in options.command if word != "--") or "systemctl status vitrine --no-pager"
    deb = options.deb or max((vm.REPO / "out").glob(f"vitrine_*_{platform.architecture}.deb"),
                             key=lambda p: p.stat().st_mtime)
    started = time.monotonic()
    kernel = platform_kernel(platform)
    with tempfile.TemporaryDirectory(prefix="vitrine-systemd-root-") as scratch:
        make_root = seeded_root if options.seed else installed_root
        root = make_root(deb, kernel, Path(scratch), platform=platform)
        image = root_image(root, Path(scratch) / "root.cpio.lz4")
        prepared = time.monotonic()
        files = {dest: Path(src) for src, _, dest in (spec.partition(":") for spec in options.file)}
        with SystemdVM(kernel, image, files=files, append=options.append,
                       memory_mib=3072 if options.seed else 1536) as guest:
            state = guest.wait_until_booted()
            log(f"{platform.name}: root and image {prepared - started:.1f} s, command channel "
                f"{guest.boot_seconds:.1f} s after qemu started, booted ({state}) at "
                f"{time.monotonic() - guest.started_at:.1f} s")
            result = guest.run(command, timeout=900)
            print(result.output)
    return result.code


if __name__ == "__main__":
    sys.exit(main())
