#!/usr/bin/env python3
"""Writes reference.txt: for every valid PngSuite file (and Pillow's extras), its size and an FNV-1a
64 hash of its pixels as Vitrine's PNG decoder must give them at their own size: 8-bit RGB from
Pillow 13 (16-bit samples: the high byte, as Pillow and libspng take it), alpha (and tRNS) composed
over black as (value * alpha + 127) // 255, each pixel the little-endian bytes of 0x00RRGGBB.
Run from this folder: python3 make-reference.py > reference.txt"""
import glob
import os
import numpy as np
from PIL import Image


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def rgba(path):
    im = Image.open(path)
    if im.mode in ('I;16', 'I;16B', 'I'):
        grey16 = np.array(im, dtype=np.uint32)
        grey = (grey16 >> 8).astype(np.uint8)
        alpha = np.full(grey.shape, 255, np.uint8)
        if 'transparency' in im.info:
            alpha[grey16 == im.info['transparency']] = 0
        return np.dstack([grey, grey, grey, alpha])
    depth = open(path, 'rb').read()[24]
    if im.mode == 'L' and 'transparency' in im.info and depth < 8:
        # Pillow scales the samples to 8 bits but keeps the tRNS key at the file's depth (ps_tbbn0g04).
        grey = np.array(im, dtype=np.uint8)
        alpha = np.where(grey == im.info['transparency'] * 255 // (2 ** depth - 1), 0, 255).astype(np.uint8)
        return np.dstack([grey, grey, grey, alpha])
    return np.array(im.convert('RGBA'), dtype=np.uint8)


def main():
    files = sorted(f for f in glob.glob('pngsuite/ps_*.png') if not os.path.basename(f).startswith('ps_x'))
    files += sorted(glob.glob('pil_*.png'))
    for path in files:
        px = rgba(path).astype(np.uint32)
        a = px[..., 3]
        r, g, b = ((px[..., i] * a + 127) // 255 for i in range(3))
        xrgb = (r << 16 | g << 8 | b).astype('<u4')
        h, w = xrgb.shape
        print(f'{path} {w}x{h} {fnv1a64(xrgb.tobytes()):016x}')


main()
