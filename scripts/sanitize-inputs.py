#!/usr/bin/env python3
"""Makes the odd-sized inputs scripts/sanitize runs (into the folder given, once: what exists is kept).

Every size from 1x1 to 17x17 and widths 1-33 (heights 1, 2, 8, 9 and 17) around the SIMD block sizes of
the C libraries (8 and 16 pixels, 32 and 64 bytes), each as:
  stills/  PNG (grey 1-bit, palette, RGB, RGBA, RGBA 16-bit, RGBA interlaced; written here),
           JPEG (cjpeg: 4:2:0, 4:2:2, 4:4:4, greyscale, progressive),
           WebP (cwebp: lossy, lossless, lossy with alpha),
           HEIF (heif-enc, x265) and AVIF (avifenc, 4:2:0 and 4:4:4) at fewer sizes (slow encoders);
  clips/   one- or two-frame clips made by ffmpeg: raw yuv420p, full-range yuv420p, yuv422p and
           nv12 in Matroska, FFV1 10-bit 4:2:0 and 4:4:4, VP9, MJPEG (yuvj420p) in .mov, and
           H.264 at the even sizes (libx264 needs them).
Only Debian's encoders (ffmpeg, libjpeg-turbo-progs, webp, libheif-examples, libavif-bin) and
Python's standard library are used.
"""
import os
import struct
import subprocess
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor

out = sys.argv[1]
stills = os.path.join(out, "stills")
clips = os.path.join(out, "clips")
os.makedirs(stills, exist_ok=True)
os.makedirs(clips, exist_ok=True)

# libswscale's SIMD YUV-to-RGB path takes even heights only: every width at heights 2 and 8 too.
SIZES = sorted({(w, h) for w in range(1, 18) for h in range(1, 18)}
               | {(w, h) for w in range(1, 34) for h in (1, 2, 8, 9, 17)})
# The slow encoders (x265, aom, ffmpeg's start-up): squares and one height for every width.
FEW_SIZES = sorted({(n, n) for n in range(1, 18)} | {(w, 9) for w in range(1, 34)} | {(w, 1) for w in (1, 7, 9, 15, 17, 31, 33)})
CLIP_SIZES = sorted(set(FEW_SIZES) | {(w, h) for w in range(1, 34) for h in (2, 8)})


def pixel(x, y, w, h):
    """A gradient with an edge, so that every channel and both chroma phases vary."""
    return ((x * 255) // max(1, w - 1), (y * 255) // max(1, h - 1), 255 if (x + y) % 2 else 40)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(w, h, colour_type, depth, rows, interlace=0, palette=None):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, colour_type, 0, 0, interlace)
    body = png_chunk(b"IHDR", ihdr)
    if palette:
        body += png_chunk(b"PLTE", palette)
    body += png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def raw_rows(w, h, bytes_of_pixel, row_filter=0):
    return b"".join(bytes([row_filter]) + b"".join(bytes_of_pixel(x, y) for x in range(w)) for y in range(h))


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def adam7_rows(w, h, bytes_of_pixel):
    data = b""
    for x0, y0, dx, dy in ADAM7:
        xs = range(x0, w, dx)
        if not xs:
            continue
        for y in range(y0, h, dy):
            data += b"\x00" + b"".join(bytes_of_pixel(x, y) for x in xs)
    return data


def bits_rows(w, h):
    """1-bit grey, a checkerboard, rows packed MSB first."""
    data = b""
    for y in range(h):
        bits = [(x + y) % 2 for x in range(w)] + [0] * 7
        data += b"\x00" + bytes(sum(b << (7 - i) for i, b in enumerate(bits[k:k + 8])) for k in range(0, w, 8))
    return data


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def make_pngs(w, h):
    rgb = lambda x, y: bytes(pixel(x, y, w, h))
    rgba = lambda x, y: bytes(pixel(x, y, w, h)) + bytes([(x * 37 + y * 11) % 256])
    rgba16 = lambda x, y: b"".join(struct.pack(">H", c * 257) for c in pixel(x, y, w, h)) + b"\x80\x00"
    palette = bytes(c for i in range(4) for c in (i * 80, 255 - i * 80, 128))
    name = f"{w}x{h}"
    write(f"{stills}/{name}-grey1.png", png(w, h, 0, 1, bits_rows(w, h)))
    write(f"{stills}/{name}-palette.png", png(w, h, 3, 8, raw_rows(w, h, lambda x, y: bytes([(x + y) % 4])), palette=palette))
    write(f"{stills}/{name}-rgb.png", png(w, h, 2, 8, raw_rows(w, h, rgb)))
    write(f"{stills}/{name}-rgba.png", png(w, h, 6, 8, raw_rows(w, h, rgba)))
    write(f"{stills}/{name}-rgba16.png", png(w, h, 6, 16, raw_rows(w, h, rgba16)))
    write(f"{stills}/{name}-rgba-interlaced.png", png(w, h, 6, 8, adam7_rows(w, h, rgba), interlace=1))
    ppm = f"P6 {w} {h} 255\n".encode() + b"".join(bytes(pixel(x, y, w, h)) for y in range(h) for x in range(w))
    write(f"{stills}/.{name}.ppm", ppm)


def run(command):
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        return f"{' '.join(command)}: {result.stderr.decode(errors='replace').strip()[:200]}"
    return None


def still_commands(w, h):
    name = f"{stills}/{w}x{h}"
    ppm, rgb, rgba = f"{stills}/.{w}x{h}.ppm", f"{name}-rgb.png", f"{name}-rgba.png"
    commands = []
    for label, options in (("420", ["-sample", "2x2"]), ("422", ["-sample", "2x1"]), ("444", ["-sample", "1x1"]),
                           ("grey", ["-grayscale"]), ("progressive", ["-progressive", "-sample", "2x2"])):
        commands.append(["cjpeg", "-quality", "90", *options, "-outfile", f"{name}-{label}.jpg", ppm])
    commands.append(["cwebp", "-quiet", "-q", "80", rgb, "-o", f"{name}-lossy.webp"])
    commands.append(["cwebp", "-quiet", "-lossless", rgba, "-o", f"{name}-lossless.webp"])
    commands.append(["cwebp", "-quiet", "-q", "80", "-alpha_q", "90", rgba, "-o", f"{name}-alpha.webp"])
    if (w, h) in FEW_SIZES:
        commands.append(["heif-enc", "-q", "60", "-o", f"{name}.heic", rgb])
        commands.append(["avifenc", "-s", "10", "-y", "420", rgba, f"{name}-420.avif"])
        commands.append(["avifenc", "-s", "10", "-y", "444", rgb, f"{name}-444.avif"])
    return [c for c in commands if not os.path.exists(c[c.index("-o") + 1] if "-o" in c else c[c.index("-outfile") + 1] if "-outfile" in c else c[-1])]


CLIP_KINDS = [  # name, extension, ffmpeg options, even sizes only
    ("raw-yuv420p", "mkv", ["-c:v", "rawvideo", "-pix_fmt", "yuv420p"], False),
    ("raw-yuvj420p", "mkv", ["-c:v", "rawvideo", "-pix_fmt", "yuvj420p", "-color_range", "pc"], False),
    ("raw-yuv422p", "mkv", ["-c:v", "rawvideo", "-pix_fmt", "yuv422p"], False),
    ("raw-nv12", "mkv", ["-c:v", "rawvideo", "-pix_fmt", "nv12"], False),
    ("ffv1-yuv420p10", "mkv", ["-c:v", "ffv1", "-pix_fmt", "yuv420p10le"], False),
    ("ffv1-yuv444p", "mkv", ["-c:v", "ffv1", "-pix_fmt", "yuv444p"], False),
    ("vp9", "webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-pix_fmt", "yuv420p"], False),
    ("mjpeg", "mov", ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p"], False),
    ("h264", "mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"], True),
]


def clip_command(kind, extension, options, sizes):
    """One ffmpeg run making the clip of every size for one kind: the test source split and scaled."""
    sizes = [s for s in sizes if not os.path.exists(f"{clips}/{s[0]}x{s[1]}-{kind}.{extension}")]
    if not sizes:
        return None
    graph = f"[0:v]split={len(sizes)}" + "".join(f"[s{i}]" for i in range(len(sizes))) + ";"
    graph += ";".join(f"[s{i}]scale={w}:{h}:flags=bilinear[o{i}]" for i, (w, h) in enumerate(sizes))
    command = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10",
               "-filter_complex", graph]
    for i, (w, h) in enumerate(sizes):
        command += ["-map", f"[o{i}]", "-frames:v", "2", *options, f"{clips}/{w}x{h}-{kind}.{extension}"]
    return command


def main():
    for w, h in SIZES:
        if not os.path.exists(f"{stills}/.{w}x{h}.ppm"):
            make_pngs(w, h)
    commands = [c for w, h in SIZES for c in still_commands(w, h)]
    for kind, extension, options, even in CLIP_KINDS:
        sizes = [s for s in CLIP_SIZES if not even or (s[0] % 2 == 0 and s[1] % 2 == 0)]
        sizes += [(300, 300), (1, 64), (64, 1)] if not even else [(300, 300)]
        # ffmpeg runs for many outputs at once; split in groups so a failing size loses few.
        for start in range(0, len(sizes), 16):
            command = clip_command(kind, extension, options, sizes[start:start + 16])
            if command:
                commands.append(command)
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for f in pool.map(run, commands) if f]
    for failure in failures:
        print("not made:", failure, file=sys.stderr)
    print(f"{len(os.listdir(stills))} stills, {len(os.listdir(clips))} clips in {out} ({len(failures)} encoder runs failed)")


main()
