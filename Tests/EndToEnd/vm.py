#!/usr/bin/env python3
"""Boot a real Debian kernel in qemu with virtio-gpu and drive it from the host.

Used as a library by the end-to-end tests and as a tool by itself:

    python3 Tests/EndToEnd/vm.py [--binary PATH]... [--file SRC:DEST]... [--screendump OUT.ppm] -- COMMAND

boots the guest, runs COMMAND in it, prints its output and exits with its exit code.

The pieces, in the order a test uses them:

    kernel = prepare_kernel()                      # cached in .build/e2e-cache
    initramfs = build_initramfs(path, kernel, binaries={"/bin/x": host_path}, files={...})
    with VM(kernel, initramfs) as vm:              # boots, waits for the command channel
        vm.run("ls /dev/dri")                      # -> CommandResult(code, output)
        vm.start("app", "/bin/x --flag")           # background; output in /tmp/bg/app.log
        vm.wait_for_log("app", "ready", timeout=10)
        image = vm.screendump()                    # Image: width, height, pixel(x, y) -> (r, g, b)
        vm.signal("app", "TERM")
        code, log = vm.wait_exit("app", timeout=5)

Guest side: /init mounts proc, sys, devtmpfs, loads the virtio-gpu and input modules in order
(and virtio-net, with lo and eth0 up, for an initramfs built with network=True) and then either runs /payload (exit code printed as "@@PAYLOAD-EXIT N" on the console, then power off)
or serves commands on a virtio-serial port, one shell command per line, each answered by
its output and a "@@DONE ID CODE" line. The kernel console (ttyS0) goes to a log file.

Standard library only. Facts behind the choices: shared/VM-NOTES.md.
"""

from __future__ import annotations

import argparse
import fcntl
import gzip
import io
import lzma
import os
import re
import shlex
import shutil
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time
import json
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE_ENV = "VITRINE_E2E_CACHE"

# Load order for virtio-gpu, virtio input, evdev and uinput (VM-NOTES.md).
MODULES = [
    "virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev", "virtio_pci",
    "virtio_input", "evdev", "uinput", "drm", "drm_kms_helper", "drm_shmem_helper",
    "virtio_dma_buf", "virtio-gpu",
]
# The harness's own: the command channel is a virtio-serial port (see INIT_SCRIPT).
HARNESS_MODULES = ["virtio_console"]
# Guest networking (build_initramfs(network=True) with VM(forwards=...)): virtio-net on qemu's
# user-mode network, the guest at GUEST_ADDRESS; the host reaches it only through the forwards.
NETWORK_MODULES = ["failover", "net_failover", "virtio_net"]
GUEST_ADDRESS = "10.0.2.15"
# busybox insmod does not read /proc/cmdline: parameters go on the insmod line.
# fbdev_emulation=0 keeps the kernel's text console off the display.
MODULE_PARAMETERS = {"drm_kms_helper": "fbdev_emulation=0"}

READY_MARKER = "@@READY"
DONE_MARKER = "@@DONE"
PAYLOAD_EXIT_MARKER = "@@PAYLOAD-EXIT"


class VMError(Exception):
    """The harness could not do what was asked; the message says what and where to look."""


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or REPO / ".build" / "e2e-cache")


def host_architecture() -> str:
    """This machine's Debian architecture (amd64 here)."""
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip() or "amd64"


@dataclass(frozen=True)
class Emulator:
    """How qemu runs a guest of one Debian architecture: its program, machine, the serial console's
    name in the guest and what the kernel's command line needs there."""

    architecture: str
    program: str
    machine: tuple[str, ...]
    cpu: str            # under TCG
    console: str
    kernel_parameters: str = ""

    def binary(self) -> str | None:
        return shutil.which(self.program)

    def arguments(self) -> list[str]:
        """The machine and accelerator: hardware KVM for a guest of this machine's architecture
        where there is one, TCG otherwise."""
        if self.architecture == host_architecture() and hardware_kvm():
            return [*self.machine, "-accel", "kvm", "-cpu", "host,-arch-capabilities"]
        return [*self.machine, "-accel", "tcg", "-cpu", self.cpu]


EMULATORS = {
    # no_timer_check: under TCG on a loaded host the kernel's check that the 8254 timer reaches
    # the IO-APIC can miss its window and panic ("IO-APIC + timer doesn't work!").
    "amd64": Emulator("amd64", "qemu-system-x86_64", ("-machine", "pc"), "max", "ttyS0",
                      "no_timer_check"),
    # A Raspberry Pi 4's cores (Cortex-A72) on qemu's generic board: PCIe for virtio-gpu-pci and
    # virtio-serial-pci, the PL011 UART as the console.
    "arm64": Emulator("arm64", "qemu-system-aarch64", ("-machine", "virt"), "cortex-a72", "ttyAMA0"),
}


def emulator(architecture: str) -> Emulator:
    if architecture not in EMULATORS:
        raise VMError(f"no emulator for architecture {architecture} (known: {', '.join(EMULATORS)})")
    return EMULATORS[architecture]


def qemu_binary(architecture: str = "amd64") -> str | None:
    return emulator(architecture).binary()


def hardware_kvm() -> bool:
    """/dev/kvm is real KVM. PVM's /dev/kvm (kvm_pvm loaded) runs only PVM guest kernels, so it
    does not count; VITRINE_E2E_TCG=1 never uses KVM."""
    return os.path.exists("/dev/kvm") and os.access("/dev/kvm", os.R_OK | os.W_OK) \
        and not os.path.exists("/sys/module/kvm_pvm") and os.environ.get("VITRINE_E2E_TCG") is None


def report_timing(label: str, started: float, built: float, prepared: float, boot_seconds: float) -> None:
    """One stderr line on where a test class's time went (monotonic times; tests are what is left)."""
    finished = time.monotonic()
    print(f"\n[e2e timing] {label}: build {built - started:.1f} s, kernel+initramfs {prepared - built:.1f} s, "
          f"boot to command channel {boot_seconds:.1f} s, tests {finished - prepared - boot_seconds:.1f} s, "
          f"total {finished - started:.1f} s", file=sys.stderr)


def log(message: str) -> None:
    print(f"[vm] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Kernel


@dataclass
class Kernel:
    version: str
    root: Path          # the unpacked package
    vmlinux: Path       # what qemu's -kernel boots: amd64's uncompressed ELF with the PVH note,
                        # arm64's Image
    architecture: str = "amd64"

    @property
    def modules_dir(self) -> Path:
        return self.root / "lib" / "modules" / self.version

    def module_path(self, name: str) -> Path:
        """The module's file: NAME.ko, or compressed (Debian 13 ships NAME.ko.xz)."""
        for candidate in {name, name.replace("-", "_"), name.replace("_", "-")}:
            for suffix in (".ko", ".ko.xz", ".ko.zst"):
                found = list((self.modules_dir / "kernel").rglob(candidate + suffix))
                if found:
                    return found[0]
        raise VMError(f"module {name}.ko not found under {self.modules_dir}")

    def builtin(self, name: str) -> bool:
        """The module is part of the kernel image (modules.builtin), so there is no file to load."""
        listed = self.modules_dir / "modules.builtin"
        if not listed.exists():
            return False
        key = name.replace("-", "_")
        return any(Path(line.strip()).name.split(".ko")[0].replace("-", "_") == key
                   for line in listed.read_text().splitlines())


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise VMError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    return result


def kernel_package() -> str:
    """The linux-image-6.1.0-NN-amd64 package that linux-image-amd64 depends on."""
    depends = _run(["apt-cache", "depends", "linux-image-amd64"]).stdout
    match = re.search(r"Depends:\s*(linux-image-\S+-amd64)", depends)
    if not match:
        raise VMError("apt-cache depends linux-image-amd64 names no linux-image-*-amd64 "
                      "(run apt-get update?)")
    return match.group(1)


def prepare_kernel(cache: Path | None = None) -> Kernel:
    """Downloads, unpacks and prepares the Debian kernel once; later calls reuse the cache."""
    cache = cache or cache_dir()
    package = kernel_package()
    version = package.removeprefix("linux-image-")
    root = cache / package
    vmlinux = cache / f"vmlinux-{version}"
    kernel = Kernel(version=version, root=root, vmlinux=vmlinux)
    if vmlinux.exists() and (root / ".complete").exists():
        return kernel
    cache.mkdir(parents=True, exist_ok=True)
    # Two test runs at once: the second waits for the first's download instead of racing it.
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (vmlinux.exists() and (root / ".complete").exists()):
            _download_kernel(package, version, root, vmlinux, cache)
    return kernel


def _download_kernel(package: str, version: str, root: Path, vmlinux: Path, cache: Path) -> None:
    with tempfile.TemporaryDirectory(dir=cache) as download:
        log(f"downloading {package}")
        _run(["apt-get", "download", package], cwd=download)
        debs = list(Path(download).glob("*.deb"))
        if not debs:
            raise VMError(f"apt-get download {package} left no .deb")
        if root.exists():
            shutil.rmtree(root)
        _run(["dpkg", "-x", str(debs[0]), str(root)])
    # Debian ships no modules.dep; insmod by path needs none, but modprobe in a later test would.
    depmod = shutil.which("depmod") or next((p for p in ("/sbin/depmod", "/usr/sbin/depmod")
                                             if os.path.exists(p)), None)
    if depmod:
        _run([depmod, "-b", str(root), version])
    vmlinuz = root / "boot" / f"vmlinuz-{version}"
    data = extract_vmlinux(vmlinuz.read_bytes())
    vmlinux.write_bytes(data)
    (root / ".complete").touch()


XZ_MAGIC = b"\xfd7zXZ\x00"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def extract_vmlinux(vmlinuz: bytes) -> bytes:
    """The uncompressed ELF inside a bzImage, the payload its setup header points at (Debian 12
    compresses it with xz, Debian 13 with zstd), carrying the Xen PVH entry note (qemu's -kernel
    then boots it through PVH, skipping SeaBIOS)."""
    if len(vmlinuz) < 0x250 or vmlinuz[0x202:0x206] != b"HdrS":
        raise VMError("not a bzImage (no HdrS setup header)")
    setup_sectors = vmlinuz[0x1F1] or 4
    payload_offset, payload_length = struct.unpack_from("<II", vmlinuz, 0x248)
    start = (setup_sectors + 1) * 512 + payload_offset
    # The payload ends with the uncompressed size (4 bytes), which neither decompressor wants.
    payload = vmlinuz[start:start + payload_length - 4]
    if payload.startswith(XZ_MAGIC):
        data = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
    elif payload.startswith(ZSTD_MAGIC):
        result = subprocess.run(["zstd", "-dc"], input=payload, capture_output=True)
        if result.returncode != 0:
            raise VMError(f"zstd -dc of the kernel's payload failed: {result.stderr.decode().strip()}")
        data = result.stdout
    else:
        raise VMError(f"the bzImage's payload is neither xz nor zstd (starts {payload[:6].hex()})")
    if not data.startswith(b"\x7fELF"):
        raise VMError("the bzImage's payload is not an ELF")
    if not has_pvh_note(data):
        raise VMError("the kernel's vmlinux has no Xen PVH note (CONFIG_PVH off?)")
    return data


ARM64_MAGIC = b"ARM\x64"


def arm64_image(vmlinuz: bytes) -> bytes:
    """The arm64 kernel's Image (the header's magic "ARM\\x64" at offset 56) from Debian's vmlinuz:
    gzip-compressed, or an EFI zboot image (an "MZ" stub saying "zimg", then the payload's offset,
    size and compression), or the Image itself. qemu 7.2 boots the Image or a gzip, not zboot."""
    if vmlinuz[:2] == b"MZ" and vmlinuz[4:8] == b"zimg":
        offset, size = struct.unpack_from("<II", vmlinuz, 8)
        compression = vmlinuz[24:32].rstrip(b"\0").decode(errors="replace")
        payload = vmlinuz[offset:offset + size]
        if compression == "gzip":
            image = gzip.decompress(payload)
        elif compression == "xzkern":
            image = lzma.decompress(payload)
        elif compression == "zstd22":
            image = subprocess.run(["zstd", "-dc"], input=payload, capture_output=True, check=True).stdout
        else:
            raise VMError(f"EFI zboot kernel compressed with {compression!r}: not supported here")
    elif vmlinuz[:2] == b"\x1f\x8b":
        image = gzip.decompress(vmlinuz)
    else:
        image = vmlinuz
    if image[56:60] != ARM64_MAGIC:
        raise VMError("not an arm64 kernel Image (no ARM\\x64 magic at offset 56)")
    return image


def has_pvh_note(elf: bytes) -> bool:
    """True when a PT_NOTE segment holds name "Xen", type 18 (XEN_ELFNOTE_PHYS32_ENTRY)."""
    if elf[4] != 2 or elf[5] != 1:  # 64-bit little-endian only
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for index in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", elf, phoff + index * phentsize)
        if p_type != 4:  # PT_NOTE
            continue
        position, end = p_offset, p_offset + p_filesz
        while position + 12 <= end:
            namesz, descsz, note_type = struct.unpack_from("<III", elf, position)
            name = elf[position + 12:position + 12 + namesz].rstrip(b"\0")
            if name == b"Xen" and note_type == 18:
                return True
            position += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def module_dependencies(path: Path) -> list[str]:
    """The depends= list in a module's .modinfo (what depmod would record)."""
    data = path.read_bytes()
    if path.suffix == ".xz":
        data = lzma.decompress(data)
    elif path.suffix == ".zst":
        data = subprocess.run(["zstd", "-dc", str(path)], capture_output=True, check=True).stdout
    match = re.search(rb"(?:^|\0)depends=([^\0]*)", data)
    if not match or not match.group(1):
        return []
    return match.group(1).decode().split(",")


def check_module_order(kernel: Kernel, modules: list[str]) -> None:
    """Every module's dependencies come before it, so insmod in this order works."""
    loaded: set[str] = set()
    for name in modules:
        for dependency in module_dependencies(kernel.module_path(name)):
            if dependency.replace("-", "_") not in loaded:
                raise VMError(f"module {name} needs {dependency}, which is not loaded before it; "
                              f"fix MODULES in vm.py for kernel {kernel.version}")
        loaded.add(name.replace("-", "_"))


# ---------------------------------------------------------------------------------------------
# initramfs


class Cpio:
    """A newc cpio archive written by hand, so device nodes need no root and no cpio tool."""

    def __init__(self) -> None:
        self.out = io.BytesIO()
        self.inode = 1
        self.seen: set[str] = set()

    def _entry(self, name: str, mode: int, data: bytes = b"", rdev: tuple[int, int] = (0, 0)) -> None:
        name = name.lstrip("/")
        header = "070701" + "".join(f"{value:08x}" for value in (
            self.inode, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name) + 1, 0))
        self.inode += 1
        self.out.write(header.encode() + name.encode() + b"\0")
        self._pad()
        self.out.write(data)
        self._pad()

    def _pad(self) -> None:
        self.out.write(b"\0" * (-self.out.tell() % 4))

    def directory(self, path: str) -> None:
        path = path.strip("/")
        if not path or path in self.seen:
            return
        self.directory(os.path.dirname(path))
        self.seen.add(path)
        self._entry(path, stat.S_IFDIR | 0o755)

    def file(self, path: str, data: bytes, mode: int = 0o644) -> None:
        self.directory(os.path.dirname(path.strip("/")))
        self.seen.add(path.strip("/"))
        self._entry(path, stat.S_IFREG | mode, data)

    def symlink(self, path: str, target: str) -> None:
        self.directory(os.path.dirname(path.strip("/")))
        self.seen.add(path.strip("/"))
        self._entry(path, stat.S_IFLNK | 0o777, target.encode())

    def char_device(self, path: str, major: int, minor: int, mode: int = 0o600) -> None:
        self.directory(os.path.dirname(path.strip("/")))
        self._entry(path, stat.S_IFCHR | mode, rdev=(major, minor))

    def finish(self) -> bytes:
        self._entry("TRAILER!!!", 0)
        return self.out.getvalue()


def shared_libraries(binary: str | Path) -> list[str]:
    """The libraries ldd finds for a dynamic binary, with the dynamic loader at its own path.
    A static binary has none."""
    result = subprocess.run(["ldd", str(binary)], capture_output=True, text=True)
    if result.returncode != 0:
        return []  # "not a dynamic executable"
    libraries = []
    for line in result.stdout.splitlines():
        if "not found" in line:
            raise VMError(f"ldd {binary}: {line.strip()}")
        match = re.search(r"=>\s*(/\S+)", line) or re.match(r"\s*(/\S+)\s+\(", line)
        if match:
            libraries.append(match.group(1))
    return libraries


# The guest end of the command channel (VM.run), also run by systemd_vm.py's guest as a service.
COMMAND_LOOP = r"""# Command channel on the virtio-serial port named vitrine.commands: one command per line
# "ID COMMAND", answered by the command's output and "\n@@DONE ID CODE". (virtio rather than a
# second 8250 UART: under TCG the UART's transmit interrupt sometimes stalls until more input.)
port=
for _ in $(seq 200); do
    for name in /sys/class/virtio-ports/*/name; do
        [ "$(cat "$name" 2>/dev/null)" = vitrine.commands ] && port=/dev/$(basename "$(dirname "$name")")
    done
    [ -n "$port" ] && [ -e "$port" ] && break
    usleep 10000
done
[ -n "$port" ] || { echo "@@NO-COMMAND-PORT"; poweroff -f; }
exec 3<>"$port"
printf '@@READY\n' >&3
while IFS= read -r line <&3; do
    id=${line%% *}
    command=${line#* }
    sh -c "$command" </dev/null >/tmp/.vm-out 2>&1 3>&-
    code=$?
    cat /tmp/.vm-out >&3
    printf '\n@@DONE %s %s\n' "$id" "$code" >&3
done
"""

INIT_SCRIPT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root
mkdir -p /proc /sys /dev /tmp /run /root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts /dev/shm
while read -r module parameters; do
    insmod /lib/modules/"$module".ko $parameters || echo "@@INSMOD-FAILED $module"
done < /etc/modules-load
# The card node appears once virtio-gpu has probed.
for _ in $(seq 200); do [ -e /dev/dri/card0 ] && break; usleep 10000; done
[ -e /dev/dri/card0 ] || echo "@@NO-DRI"
if [ -e /etc/guest-network ]; then
    ip link set lo up
    for _ in $(seq 200); do [ -e /sys/class/net/eth0 ] && break; usleep 10000; done
    ip link set eth0 up && ip addr add "$(cat /etc/guest-network)" dev eth0 || echo "@@NO-NETWORK"
fi
echo "@@BOOTED $(cut -d' ' -f1 /proc/uptime)"
if [ -x /payload ]; then
    /payload
    echo "@@PAYLOAD-EXIT $?"
    poweroff -f
fi
""" + COMMAND_LOOP + "poweroff -f\n"

# vm-bg NAME COMMAND...: COMMAND in the background; pid, output and exit code in /tmp/bg/NAME.*
BACKGROUND_SCRIPT = r"""#!/bin/sh
name=$1; shift
mkdir -p /tmp/bg
rm -f /tmp/bg/$name.rc /tmp/bg/$name.pid
(
    "$@" </dev/null >/tmp/bg/$name.log 2>&1 &
    echo $! >/tmp/bg/$name.pid
    wait $!
    echo $? >/tmp/bg/$name.rc.new && mv /tmp/bg/$name.rc.new /tmp/bg/$name.rc
) >/dev/null 2>&1 &
while [ ! -s /tmp/bg/$name.pid ]; do usleep 1000; done
cat /tmp/bg/$name.pid
"""

# vm-wait SECONDS COMMAND...: runs COMMAND every 20 ms until it succeeds; exit 1 on timeout.
WAIT_SCRIPT = r"""#!/bin/sh
deadline=$(( $(cut -d. -f1 /proc/uptime) + $1 + 1 )); shift
until "$@" >/dev/null 2>&1; do
    [ "$(cut -d. -f1 /proc/uptime)" -ge "$deadline" ] && exit 1
    usleep 20000
done
"""

# vm-wait-log NAME SECONDS TEXT: until /tmp/bg/NAME.log contains TEXT (exit 0), or NAME exited
# without printing it or the time is up (exit 1).
WAIT_LOG_SCRIPT = r"""#!/bin/sh
name=$1; text=$3
deadline=$(( $(cut -d. -f1 /proc/uptime) + $2 + 1 ))
until grep -qF -- "$text" /tmp/bg/$name.log 2>/dev/null; do
    if [ -e /tmp/bg/$name.rc ]; then grep -qF -- "$text" /tmp/bg/$name.log; exit $?; fi
    [ "$(cut -d. -f1 /proc/uptime)" -ge "$deadline" ] && exit 1
    usleep 20000
done
"""


def stripped(binary: Path) -> bytes:
    """The binary without its debug information, as the package installs it (dh_strip): a release
    vitrine is 120 MB with it, and the guest's memory holds the whole initramfs twice while the
    kernel unpacks it. The binary itself when `strip` is not there."""
    strip = shutil.which("strip")
    if strip is None:
        return binary.read_bytes()
    with tempfile.TemporaryDirectory(prefix="vitrine-strip-") as folder:
        output = Path(folder) / binary.name
        result = subprocess.run([strip, "--strip-unneeded", "-o", str(output), str(binary)], capture_output=True)
        return output.read_bytes() if result.returncode == 0 else binary.read_bytes()


def build_initramfs(output: Path, kernel: Kernel, binaries: dict[str, str | Path] | None = None,
                    files: dict[str, str | Path | bytes] | None = None, payload: str | None = None,
                    modules: list[str] = MODULES + HARNESS_MODULES, deferred: list[str] = (),
                    compress: bool = True, network: bool = False) -> Path:
    """Writes an initramfs with busybox, the modules, `binaries` (guest path -> host path) with
    the shared libraries ldd finds for them, `files` (guest path -> host path or bytes) and,
    if given, a /payload shell script that runs instead of the command channel. Modules named in
    `deferred` are in /lib/modules but not loaded at boot (a test insmods them: a late driver).
    With `network`, virtio-net too, and /init brings up lo and eth0 at GUEST_ADDRESS/24 (for a VM
    with `forwards`). lz4 (legacy format, which the kernel reads) when the lz4 tool is there, else
    uncompressed."""
    if network:
        modules = [*modules, *(name for name in NETWORK_MODULES if name not in modules)]
    check_module_order(kernel, modules)
    archive = Cpio()
    for directory in ("bin", "sbin", "usr/bin", "usr/sbin", "etc", "proc", "sys", "dev", "tmp", "run", "root"):
        archive.directory(directory)
    # The kernel opens /dev/console before /init runs, before devtmpfs is mounted.
    archive.char_device("dev/console", 5, 1)
    archive.char_device("dev/null", 1, 3, 0o666)
    busybox = shutil.which("busybox") or "/bin/busybox"
    archive.file("bin/busybox", Path(busybox).read_bytes(), 0o755)
    archive.symlink("bin/sh", "busybox")
    archive.file("init", INIT_SCRIPT.encode(), 0o755)
    archive.file("bin/vm-bg", BACKGROUND_SCRIPT.encode(), 0o755)
    archive.file("bin/vm-wait", WAIT_SCRIPT.encode(), 0o755)
    archive.file("bin/vm-wait-log", WAIT_LOG_SCRIPT.encode(), 0o755)
    load_list = []
    for name in modules:
        archive.file(f"lib/modules/{name}.ko", kernel.module_path(name).read_bytes())
        if name in deferred:
            continue
        load_list.append(f"{name} {MODULE_PARAMETERS.get(name.replace('-', '_'), '')}".strip())
    archive.file("etc/modules-load", ("\n".join(load_list) + "\n").encode())
    # No /etc/passwd in the guest otherwise; some programs look up the user.
    archive.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    archive.file("etc/group", b"root:x:0:\nvideo:x:44:\ninput:x:105:\n")
    if network:
        archive.file("etc/guest-network", f"{GUEST_ADDRESS}/24\n".encode())

    libraries: set[str] = set()
    for guest_path, host_path in (binaries or {}).items():
        archive.file(guest_path, stripped(Path(host_path)), 0o755)
        libraries.update(shared_libraries(host_path))
    for library in sorted(libraries):
        # Keep the path ldd printed (the loader's path is baked into the binary).
        archive.file(library, Path(library).read_bytes(), 0o755)
    for guest_path, source in (files or {}).items():
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        archive.file(guest_path, data, 0o755 if guest_path.endswith(".sh") else 0o644)
    if payload is not None:
        archive.file("payload", ("#!/bin/sh\n" + payload + "\n").encode(), 0o755)

    data = archive.finish()
    output.parent.mkdir(parents=True, exist_ok=True)
    lz4 = shutil.which("lz4")
    if compress and lz4:
        result = subprocess.run([lz4, "-l", "-1", "-c"], input=data, capture_output=True)
        if result.returncode != 0:
            raise VMError(f"lz4 failed: {result.stderr.decode().strip()}")
        data = result.stdout
    output.write_bytes(data)
    return output


# ---------------------------------------------------------------------------------------------
# Screenshots


@dataclass
class Image:
    width: int
    height: int
    rgb: bytes  # width * height * 3 bytes, rows top to bottom

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        offset = (y * self.width + x) * 3
        return self.rgb[offset], self.rgb[offset + 1], self.rgb[offset + 2]

    def region_colors(self, x0: int, y0: int, x1: int, y1: int, step: int = 7) -> set[tuple[int, int, int]]:
        """The distinct colours in [x0, x1) x [y0, y1), sampled every `step` pixels."""
        return {self.pixel(x, y) for y in range(y0, y1, step) for x in range(x0, x1, step)}


def read_ppm(data: bytes) -> Image:
    """A binary PPM (P6, maxval 255), as qemu's screendump writes it."""
    fields: list[bytes] = []
    position = 0
    while len(fields) < 4:
        while position < len(data) and data[position:position + 1].isspace():
            position += 1
        if data[position:position + 1] == b"#":
            position = data.index(b"\n", position) + 1
            continue
        start = position
        while position < len(data) and not data[position:position + 1].isspace():
            position += 1
        fields.append(data[start:position])
    if fields[0] != b"P6":
        raise VMError(f"not a binary PPM: magic {fields[0]!r}")
    width, height, maxval = (int(value) for value in fields[1:])
    if maxval != 255:
        raise VMError(f"PPM maxval {maxval} not supported")
    pixels = data[position + 1:position + 1 + width * height * 3]
    if len(pixels) != width * height * 3:
        raise VMError(f"PPM truncated: {len(pixels)} of {width * height * 3} bytes")
    return Image(width, height, pixels)


# ---------------------------------------------------------------------------------------------
# QMP


class QMP:
    """A minimal QMP client: one command at a time, events skipped."""

    def __init__(self, path: Path, timeout: float = 10) -> None:
        self.socket = _connect_unix(path, timeout)
        self.socket.settimeout(timeout)
        self.buffer = b""
        greeting = self._read_message()
        if "QMP" not in greeting:
            raise VMError(f"unexpected QMP greeting {greeting}")
        self.execute("qmp_capabilities")

    def _read_message(self) -> dict:
        while b"\n" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise VMError("QMP connection closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def execute(self, command: str, **arguments) -> object:
        message = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self.socket.sendall(json.dumps(message).encode() + b"\n")
        while True:
            reply = self._read_message()
            if "event" in reply:
                continue
            if "error" in reply:
                raise VMError(f"QMP {command}: {reply['error'].get('desc', reply['error'])}")
            return reply.get("return")

    def close(self) -> None:
        self.socket.close()


def free_port() -> int:
    """A port on the host's 127.0.0.1 that was free a moment ago (the kernel's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _connect_unix(path: Path, timeout: float) -> socket.socket:
    deadline = time.monotonic() + timeout
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            return sock
        except (FileNotFoundError, ConnectionRefusedError):
            sock.close()
            if time.monotonic() > deadline:
                raise VMError(f"could not connect to {path} within {timeout} s")
            time.sleep(0.02)


# ---------------------------------------------------------------------------------------------
# The machine


@dataclass
class CommandResult:
    code: int
    output: str


@dataclass
class VM:
    """A running guest. Use as a context manager: boots on enter, quits (and kills if need be)
    on exit. The console log stays in `workdir` for a failing test to show."""

    kernel: Kernel
    initramfs: Path
    workdir: Path | None = None
    xres: int = 1280
    yres: int = 800
    # The initramfs is unpacked into a tmpfs of half the memory: vitrine (73 MB stripped) and its
    # libraries (170 MB, FFmpeg's codecs most of it) need more than 256 MB.
    memory_mib: int = 1024
    append: str = ""
    extra_arguments: list[str] = field(default_factory=list)
    boot_timeout: float = 60
    cpus: int = 1
    # Guest TCP port -> host port on 127.0.0.1 (0: a free one, see `host_port`), through qemu's
    # user-mode network ("restrict=on": the guest reaches nothing else). The initramfs needs
    # build_initramfs(network=True).
    forwards: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.qmp: QMP | None = None
        self.channel: socket.socket | None = None
        self.channel_buffer = b""
        self.next_id = 1
        self.started_at = 0.0
        self.boot_seconds = 0.0
        self._own_workdir = self.workdir is None
        self.workdir = Path(self.workdir or tempfile.mkdtemp(prefix="vitrine-vm-"))
        self.forwards = {guest: host or free_port() for guest, host in self.forwards.items()}

    def host_port(self, guest_port: int) -> int:
        """The port on the host's 127.0.0.1 that reaches `guest_port` on the guest."""
        return self.forwards[guest_port]

    def network_arguments(self) -> list[str]:
        if not self.forwards:
            return []
        forwards = ",".join(f"hostfwd=tcp:127.0.0.1:{host}-:{guest}" for guest, host in self.forwards.items())
        return ["-netdev", f"user,id=net,restrict=on,{forwards}", "-device", "virtio-net-pci,netdev=net"]

    @property
    def console_path(self) -> Path:
        return self.workdir / "console.log"

    def command_line(self) -> list[str]:
        machine = emulator(self.kernel.architecture)
        qemu = machine.binary()
        if not qemu:
            raise VMError(f"{machine.program} is not installed (scripts/install-deps)")
        return [
            qemu, *machine.arguments(), "-m", str(self.memory_mib), "-smp", str(self.cpus),
            "-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
            "-kernel", str(self.kernel.vmlinux), "-initrd", str(self.initramfs),
            "-append", f"console={machine.console} quiet panic=-1 {machine.kernel_parameters} {self.append}".strip(),
            "-device", f"virtio-gpu-pci,xres={self.xres},yres={self.yres}",
            "-chardev", f"file,id=console,path={self.console_path}",
            "-serial", "chardev:console",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=commands,path={self.workdir / 'commands.sock'},server=on,wait=off",
            "-device", "virtserialport,chardev=commands,name=vitrine.commands",
            "-qmp", f"unix:{self.workdir / 'qmp.sock'},server=on,wait=off",
            *self.network_arguments(),
            *self.extra_arguments,
        ]

    def boot(self, wait_for_commands: bool = True) -> "VM":
        """Starts qemu; with `wait_for_commands`, returns once the guest's command channel is up
        (with a /payload in the initramfs there is none: use wait_for_console instead)."""
        self.console_path.write_bytes(b"")
        self.started_at = time.monotonic()
        with open(self.workdir / "qemu.log", "wb") as qemu_log:
            self.process = subprocess.Popen(self.command_line(), stdin=subprocess.DEVNULL,
                                            stdout=qemu_log, stderr=subprocess.STDOUT)
        self.qmp = QMP(self.workdir / "qmp.sock")
        if wait_for_commands:
            self.channel = _connect_unix(self.workdir / "commands.sock", 10)
            self._read_until(READY_MARKER + "\n", self.boot_timeout)
            self.boot_seconds = time.monotonic() - self.started_at
        return self

    def __enter__(self) -> "VM":
        try:
            return self.boot()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc) -> None:
        self.close()

    # -- console ------------------------------------------------------------------------------

    def console(self) -> str:
        return self.console_path.read_bytes().decode(errors="replace")

    def wait_for_console(self, text: str, timeout: float) -> str:
        """Waits until the console log contains `text`; returns the log."""
        deadline = time.monotonic() + timeout
        while True:
            content = self.console()
            if text in content:
                return content
            self._check_alive(f"waiting for {text!r} on the console")
            if time.monotonic() > deadline:
                raise VMError(f"{text!r} not on the console within {timeout} s; console:\n{content[-3000:]}")
            time.sleep(0.02)

    def wait_payload_exit(self, timeout: float) -> tuple[int, str]:
        """For an initramfs built with a payload: waits for its "@@PAYLOAD-EXIT N" line and
        returns N and the console log."""
        deadline = time.monotonic() + timeout
        while True:
            match = re.search(PAYLOAD_EXIT_MARKER + r" (\d+)\n", self.console())
            if match:
                return int(match.group(1)), self.console()
            if time.monotonic() > deadline:
                raise VMError(f"no {PAYLOAD_EXIT_MARKER} within {timeout} s; console:\n{self.console()[-3000:]}")
            if self.process and self.process.poll() is not None:
                raise VMError(f"qemu exited before the payload finished; console:\n{self.console()[-3000:]}")
            time.sleep(0.05)

    # -- commands -----------------------------------------------------------------------------

    def _read_until(self, marker: str, timeout: float) -> str:
        assert self.channel
        deadline = time.monotonic() + timeout
        encoded = marker.encode()
        while encoded not in self.channel_buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise VMError(f"no {marker.strip()!r} from the guest within {timeout} s; console:\n{self.console()[-3000:]}")
            self._check_alive(f"waiting for {marker.strip()!r}")
            self.channel.settimeout(min(left, 0.25))
            try:
                chunk = self.channel.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise VMError(f"command channel closed; console:\n{self.console()[-3000:]}")
            self.channel_buffer += chunk
        before, self.channel_buffer = self.channel_buffer.split(encoded, 1)
        return before.decode(errors="replace")

    def run(self, command: str, timeout: float = 30) -> CommandResult:
        """Runs one shell command (a single line) in the guest and returns its exit code and
        output (stdout and stderr together)."""
        if "\n" in command:
            raise ValueError("one line per command; write a script with write_file for more")
        if not self.channel:
            raise VMError("no command channel (the VM was started with a payload?)")
        command_id = self.next_id
        self.next_id += 1
        self.channel.sendall(f"{command_id} {command}\n".encode())
        output = self._read_until(f"\n{DONE_MARKER} {command_id} ", timeout)
        code = self._read_until("\n", 5)
        if output.endswith("\n"):
            output = output[:-1]
        return CommandResult(int(code), output)

    def check(self, command: str, timeout: float = 30) -> str:
        """Like run, but a non-zero exit code raises VMError with the output."""
        result = self.run(command, timeout)
        if result.code != 0:
            raise VMError(f"`{command}` exited {result.code}:\n{result.output}")
        return result.output

    def write_file(self, path: str, data: bytes, mode: int = 0o644) -> None:
        import base64
        encoded = base64.b64encode(data).decode()
        self.check(f"echo {encoded} | base64 -d > {path} && chmod {mode:o} {path}")

    # -- background programs ------------------------------------------------------------------

    def spawn(self, name: str, command: str) -> int:
        """Starts `command` (shell words) in the background under `name`; its output goes to
        /tmp/bg/NAME.log and its exit code to /tmp/bg/NAME.rc. Returns its pid."""
        return int(self.check(f"vm-bg {name} {command}").split()[-1])

    def log_of(self, name: str) -> str:
        return self.run(f"cat /tmp/bg/{name}.log").output

    def wait_for_log(self, name: str, text: str, timeout: float = 20) -> str:
        """Waits (inside the guest) until the program's output contains `text`; returns the
        output. Raises VMError with the output if it does not appear, or the program exited."""
        self.run(f"vm-wait-log {name} {timeout:.0f} {shlex.quote(text)}", timeout + 10)
        output = self.log_of(name)
        if text not in output:
            exited = self.run(f"cat /tmp/bg/{name}.rc").output.strip()
            state = f"exited with {exited}" if exited else "still running"
            raise VMError(f"{name} did not print {text!r} within {timeout} s ({state}); its output:\n{output}")
        return output

    def signal(self, name: str, signal: str = "TERM") -> None:
        self.check(f"kill -{signal} $(cat /tmp/bg/{name}.pid)")

    def kill(self, name: str) -> None:
        """SIGKILLs the background program, if still running, and waits up to 5 s for its exit
        code, so that the name can be used again."""
        self.run(f"kill -KILL $(cat /tmp/bg/{name}.pid) 2>/dev/null; vm-wait 5 test -e /tmp/bg/{name}.rc")

    def wait_exit(self, name: str, timeout: float = 10) -> tuple[int, str]:
        """Waits for the background program to exit; returns its exit code (128 + N when
        killed by signal N) and its output."""
        if self.run(f"vm-wait {timeout:.0f} test -e /tmp/bg/{name}.rc", timeout + 10).code != 0:
            raise VMError(f"{name} still running after {timeout} s; its output:\n{self.log_of(name)}")
        code = int(self.check(f"cat /tmp/bg/{name}.rc").strip())
        return code, self.log_of(name)

    # -- screen -------------------------------------------------------------------------------

    def screendump(self, keep_as: Path | None = None) -> Image:
        """The display as qemu shows it now (QMP screendump, a PPM)."""
        assert self.qmp
        path = keep_as or self.workdir / "screen.ppm"
        self.qmp.execute("screendump", filename=str(path))
        return read_ppm(Path(path).read_bytes())

    def close(self) -> None:
        """Asks qemu to quit, waits a moment, kills it if it is still there."""
        if self.channel:
            self.channel.close()
            self.channel = None
        if self.qmp:
            try:
                self.qmp.execute("quit")
            except (VMError, OSError):
                pass
            self.qmp.close()
            self.qmp = None
        if self.process:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        if self._own_workdir and not os.environ.get("VITRINE_E2E_KEEP"):
            shutil.rmtree(self.workdir, ignore_errors=True)

    def _check_alive(self, what: str) -> None:
        if self.process and self.process.poll() is not None:
            qemu_log = (self.workdir / "qemu.log").read_text(errors="replace")
            raise VMError(f"qemu exited ({self.process.returncode}) while {what}; qemu said:\n{qemu_log[-2000:]}"
                          f"\nconsole:\n{self.console()[-3000:]}")


# ---------------------------------------------------------------------------------------------
# By itself


def main() -> int:
    parser = argparse.ArgumentParser(description="Boot the e2e VM and run one command in it.")
    parser.add_argument("--binary", action="append", default=[], metavar="PATH[:GUEST_PATH]",
                        help="a program to put in the guest (default /bin/NAME), with its libraries")
    parser.add_argument("--file", action="append", default=[], metavar="SRC:DEST", help="an extra file")
    parser.add_argument("--screendump", type=Path, help="write the screen after the command to this PPM")
    parser.add_argument("--forward", action="append", default=[], type=int, metavar="GUEST_PORT",
                        help="guest networking, with this guest port reachable from the host (the port is logged)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the shell command to run (after --)")
    options = parser.parse_args()
    command = " ".join(word for word in options.command if word != "--") or "cat /proc/version; ls -l /dev/dri"
    if not qemu_binary():
        print("qemu-system-x86_64 is not installed", file=sys.stderr)
        return 2

    started = time.monotonic()
    kernel = prepare_kernel()
    binaries = {}
    for spec in options.binary:
        host, _, guest = spec.partition(":")
        binaries[guest or f"/bin/{Path(host).name}"] = host
    files = {dest: src for src, _, dest in (spec.partition(":") for spec in options.file)}
    with tempfile.TemporaryDirectory(prefix="vitrine-initramfs-") as scratch:
        initramfs = build_initramfs(Path(scratch) / "initramfs.cpio.lz4", kernel, binaries, files,
                                    network=bool(options.forward))
        prepared = time.monotonic()
        with VM(kernel, initramfs, forwards={port: 0 for port in options.forward}) as vm:
            log(f"prepared in {prepared - started:.1f} s, guest ready {vm.boot_seconds:.1f} s after qemu start")
            for port in options.forward:
                log(f"guest port {port} is 127.0.0.1:{vm.host_port(port)} here")
            result = vm.run(command, timeout=120)
            print(result.output)
            if options.screendump:
                vm.screendump(options.screendump)
    log(f"exit {result.code}, {time.monotonic() - started:.1f} s in all")
    return result.code


if __name__ == "__main__":
    sys.exit(main())
