#!/usr/bin/env python3
"""Writes the reference decodes HEIFDecoderTests compares with: libheif's own heif-convert
(libheif-examples 1.15.1) to PNG, then Pillow: alpha composed over black, 8-bit RGB, reduced with a
box filter to the size the test decodes to, or cut to rows around a grid's tile seams.
Run from this folder: python3 make-references.py"""
import os, subprocess, tempfile
from PIL import Image

def reference(source, name, size=None, rows=None):
    with tempfile.TemporaryDirectory() as folder:
        png = os.path.join(folder, "out.png")
        subprocess.run(["heif-convert", "--quiet", source, png], check=True, stdout=subprocess.DEVNULL)
        # heif-convert writes every top-level image (out-1.png, ...); the primary comes first in
        # the files used here.
        image = Image.open(png if os.path.exists(png) else os.path.join(folder, "out-1.png"))
        image.load()
    if image.mode in ("RGBA", "LA"):
        black = Image.new("RGB", image.size, (0, 0, 0))
        black.paste(image.convert("RGB"), mask=image.getchannel("A"))
        image = black
    image = image.convert("RGB")
    if size:
        image = image.resize(size, Image.BOX)
    if rows:
        strips = [image.crop((0, top, image.width, top + 8)) for top in rows]
        image = Image.new("RGB", (image.width, 8 * len(strips)))
        for index, strip in enumerate(strips):
            image.paste(strip, (0, 8 * index))
    image.save(os.path.join("references", name), optimize=True)

os.makedirs("references", exist_ok=True)
reference("heic/phf_arrow.heic", "arrow-378x504.png", (378, 504))
reference("heic/phf_arrow.heic", "arrow-180x240.png", (180, 240))
reference("heic/lhf_example.heic", "example-320x214.png", (320, 214))
reference("heic/phf_RGBA_10__29x100.heif", "rgba10-29x100.png")
reference("avif/linku_fox.profile0.10bpc.yuv420.avif", "fox10-301x200.png", (301, 200))
reference("avif/linku_fox.profile2.12bpc.yuv422.avif", "fox12-301x200.png", (301, 200))
reference("avif/linku_kimono.rotate90.avif", "kimono-rotate90-181x256.png", (181, 256))
reference("avif/linku_kimono.mirror-vertical.rotate270.crop.avif", "kimono-crop-385x330.png")
# The 1x5 grid's tiles are 154 rows high: 4 rows either side of each seam.
reference("avif/lavif_sofa_grid1x5_420.avif", "sofa-seams.png", rows=[150, 304, 458, 612])
reference("avif/lavif_abc_color_irot_alpha_irot.avif", "abc-alpha-irot.png")
reference("avif/lavif_color_grid_alpha_nogrid.avif", "grid-alpha-80x80.png")
