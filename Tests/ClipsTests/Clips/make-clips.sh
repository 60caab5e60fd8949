#!/bin/sh
# Remakes the test clips made for this project (MIT; see ATTRIBUTION.md) from ffmpeg's test
# sources, with Debian 12's ffmpeg 5.1 (libx264, libx265, libvpx, libaom). Each is a few KB to
# ~100 KB. The bad ones are made from the good ones by cutting or patching bytes.
set -eu
cd "$(dirname "$0")"
ff="ffmpeg -hide_banner -loglevel error -y -bitexact"
src="testsrc2=size=320x240"

$ff -f lavfi -i "$src:rate=30" -t 2 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -g 30 -movflags +faststart h264-30fps.mp4
$ff -f lavfi -i "$src:rate=24" -t 2 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p -g 24 h264-24fps.mov
$ff -f lavfi -i "$src:rate=30" -t 1 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuvj420p h264-fullrange.m4v
$ff -f lavfi -i "$src:rate=30" -t 1 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p10le h264-10bit.mkv
$ff -f lavfi -i "$src:rate=25" -t 1 -c:v libx265 -preset veryfast -crf 32 -tag:v hvc1 -x265-params log-level=error hevc.mp4
$ff -f lavfi -i "$src:rate=30" -t 1 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 200k vp9.webm
$ff -f lavfi -i "$src:rate=24" -t 1 -c:v libaom-av1 -cpu-used 8 -b:v 200k av1.webm
# A phone held upright: stored 320x240, the display matrix turns it 90 degrees clockwise
# (ffprobe: rotation -90). ffmpeg 5.1 writes the matrix from the rotate tag only when copying.
$ff -f lavfi -i "$src:rate=30" -t 1 -c:v libx264 -preset veryfast -crf 30 -pix_fmt yuv420p unrotated.mp4
$ff -i unrotated.mp4 -c copy -metadata:s:v:0 rotate=270 rotated-90.mp4
rm unrotated.mp4
# Sound only: no video stream.
$ff -f lavfi -i "sine=frequency=440:sample_rate=8000" -t 1 -c:a aac -b:a 16k bad-audio-only.mp4

# Truncated: the first 40% of the 30 fps clip (its moov is at the start, the frames are cut).
size=$(stat -c %s h264-30fps.mp4)
head -c $((size * 40 / 100)) h264-30fps.mp4 > bad-truncated.mp4
# Not a clip, named like one.
printf 'This is a text file, not a clip.\n' > bad-not-a-clip.mp4

python3 - <<'PY'
import struct

def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload

# An MP4 with no stream at all: ftyp and a moov holding only its movie header.
mvhd = box(b"mvhd", bytes(4) + struct.pack(">IIII", 0, 0, 1000, 1000) + struct.pack(">IH", 0x10000, 0x100)
           + bytes(10) + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000) + bytes(24)
           + struct.pack(">I", 2))
open("bad-no-streams.mp4", "wb").write(box(b"ftyp", b"isom" + struct.pack(">I", 512) + b"isomiso2mp41")
                                        + box(b"moov", mvhd))

# Absurd dimensions: the 30 fps clip's sample entry says 20000 pixels wide.
data = bytearray(open("h264-30fps.mp4", "rb").read())
at = data.index(b"avc1", data.index(b"stsd"))
struct.pack_into(">H", data, at + 28, 20000)
open("bad-absurd-size.mp4", "wb").write(data)

# Zero duration: the 30 fps clip with every duration (movie, track, media, sample deltas) 0.
data = bytearray(open("h264-30fps.mp4", "rb").read())
for kind, offset in ((b"mvhd", 20), (b"tkhd", 24), (b"mdhd", 20)):
    at = data.index(kind)
    assert data[at + 4] == 0  # version 0: 32-bit durations
    struct.pack_into(">I", data, at + offset, 0)
at = data.index(b"stts")
for entry in range(struct.unpack_from(">I", data, at + 8)[0]):
    struct.pack_into(">I", data, at + 12 + 8 * entry + 4, 0)
open("bad-zero-duration.mp4", "wb").write(data)
PY

# The `clip` fuzz target's seeds (Fuzz/Corpus/clip): tiny clips, 64x48 and 4 frames, one per
# container and codec, and cuts of one.
seeds=../../../Fuzz/Corpus/clip
mkdir -p "$seeds"
tiny="testsrc2=size=64x48:rate=10"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libx264 -preset veryfast -crf 35 -pix_fmt yuv420p "$seeds/h264.mp4"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libx264 -preset veryfast -crf 35 -pix_fmt yuvj420p "$seeds/h264-fullrange.mov"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libx264 -preset veryfast -crf 35 -pix_fmt yuv420p10le "$seeds/h264-10bit.mkv"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libx265 -preset veryfast -crf 40 -tag:v hvc1 -x265-params log-level=error "$seeds/hevc.mp4"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 50k "$seeds/vp9.webm"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libvpx -deadline realtime -cpu-used 8 -b:v 50k "$seeds/vp8.webm"
$ff -f lavfi -i "$tiny" -frames:v 4 -c:v libaom-av1 -cpu-used 8 -b:v 50k "$seeds/av1.mkv"
$ff -i "$seeds/h264.mp4" -c copy -metadata:s:v:0 rotate=270 "$seeds/h264-rotated.mp4"
cp bad-no-streams.mp4 "$seeds/bad-no-streams.mp4"
size=$(stat -c %s "$seeds/hevc.mp4")
head -c $((size / 2)) "$seeds/hevc.mp4" > "$seeds/bad-truncated-hevc.mp4"
