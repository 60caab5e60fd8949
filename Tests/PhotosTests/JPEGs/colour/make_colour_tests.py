#!/usr/bin/env python3
"""Makes the colour-management test files in this folder (run from anywhere; needs Pillow, Debian's
liblcms2-2 and exiftool). Committed with its output: the tests only read the files.

- display_p3.icc: a Display P3 profile made by Little CMS itself (cmsCreateRGBProfile: D65 white,
  SMPTE EG 432-1 primaries, the sRGB curve, as Apple's Display P3 is), saved with cmsSaveProfileToMem.
- flower_p3.jpg: variants/jxl_flower_q85_420_R13B.jpg reduced to 300x200, 4:4:4, quality 92, with
  display_p3.icc embedded by exiftool (-icc_profile<=), so its pixels are read as Display P3.
- flower_p3.srgb-pillow.png: the reference: flower_p3.jpg decoded by Pillow and converted to sRGB
  by Pillow's ImageCms (Little CMS; perceptual intent, as Vitrine).
- flower_p3.srgb-jpgicc.jpg is not kept: `jpgicc -q 100` re-encodes, which adds its own error;
  the script prints how far it is from the Pillow reference, as a cross-check of the two tools.
"""
import ctypes, io, os, subprocess, sys
from PIL import Image, ImageCms

here = os.path.dirname(os.path.abspath(__file__))
source = os.path.join(here, "..", "variants", "jxl_flower_q85_420_R13B.jpg")

class xyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]

class Triple(ctypes.Structure):
    _fields_ = [("red", xyY), ("green", xyY), ("blue", xyY)]

lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(xyY), ctypes.POINTER(Triple), ctypes.c_void_p * 3]
lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
lcms.cmsMD5computeID.argtypes = [ctypes.c_void_p]

srgb_curve = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
curve = lcms.cmsBuildParametricToneCurve(None, 4, srgb_curve)
white = xyY(0.3127, 0.3290, 1.0)
primaries = Triple(xyY(0.680, 0.320, 1.0), xyY(0.265, 0.690, 1.0), xyY(0.150, 0.060, 1.0))
profile = lcms.cmsCreateRGBProfile(ctypes.byref(white), ctypes.byref(primaries), (ctypes.c_void_p * 3)(curve, curve, curve))
lcms.cmsMD5computeID(profile)
size = ctypes.c_uint32(0)
lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
buffer = ctypes.create_string_buffer(size.value)
lcms.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
icc = buffer.raw[: size.value]
with open(os.path.join(here, "display_p3.icc"), "wb") as f:
    f.write(icc)

image = Image.open(source).convert("RGB").resize((300, 200), Image.Resampling.LANCZOS)
jpeg = os.path.join(here, "flower_p3.jpg")
image.save(jpeg, quality=92, subsampling=0)
subprocess.run(["exiftool", "-q", "-overwrite_original", "-icc_profile<=" + os.path.join(here, "display_p3.icc"), jpeg], check=True)

decoded = Image.open(jpeg)
assert decoded.info.get("icc_profile") == icc, "the profile did not go in whole"
reference = ImageCms.profileToProfile(decoded, ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("sRGB"),
                                      renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
reference.save(os.path.join(here, "flower_p3.srgb-pillow.png"))

try:
    out = "/tmp/flower_p3.srgb-jpgicc.jpg"
    subprocess.run(["jpgicc", "-q", "100", jpeg, out], check=True)
    other = Image.open(out).convert("RGB")
    diffs = [abs(a - b) for a, b in zip(reference.tobytes(), other.tobytes())]
    print(f"jpgicc -q 100 vs Pillow: mean {sum(diffs) / len(diffs):.3f}, max {max(diffs)}")
except FileNotFoundError:
    print("jpgicc not installed (liblcms2-utils): no cross-check", file=sys.stderr)
