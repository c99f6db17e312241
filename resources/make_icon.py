#!/usr/bin/env python3
"""Writes resources/strata.png, the 64x64 application icon: stacked rounded layers (strata) in the
timeline's palette. Plain python3 (zlib + struct), no imaging library needed."""
import os
import struct
import zlib

W = H = 64
LAYERS = [  # (top, bottom, left, right, rgb)
    (8, 20, 6, 46, (0x3b, 0x82, 0xc4)),
    (24, 36, 14, 58, (0x4c, 0xaf, 0x7a)),
    (40, 52, 6, 38, (0xe0, 0x8a, 0x2c)),
    (40, 52, 42, 58, (0xc2, 0x4b, 0x5a)),
]


def pixel(x, y):
    for top, bottom, left, right, rgb in LAYERS:
        if top <= y < bottom and left <= x < right:
            # round the corners by 2 px
            cx = min(x - left, right - 1 - x)
            cy = min(y - top, bottom - 1 - y)
            if cx + cy < 2:
                continue
            return rgb + (255,)
    return (0, 0, 0, 0)


def chunk(tag, data):
    c = struct.pack(">I", len(data)) + tag + data
    return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(W)) for y in range(H))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strata.png")
open(out, "wb").write(png)
print(out, len(png), "bytes")
