#!/usr/bin/env python3
"""Converts an xwd dump (ZPixmap, TrueColor, 16/24/32 bits per pixel) to an RGB PNG, with only
the standard library. Usage: xwd-to-png.py IN.xwd OUT.png"""
import struct
import sys
import zlib


def channel(pixel, mask):
    if not mask:
        return 0
    shift = (mask & -mask).bit_length() - 1
    bits = bin(mask).count("1")
    value = (pixel & mask) >> shift
    return value * 255 // ((1 << bits) - 1)


def main(src, dst):
    data = open(src, "rb").read()
    h = struct.unpack(">25I", data[:100])
    header_size, fmt, width, height, byte_order = h[0], h[2], h[4], h[5], h[7]
    bpp, bytes_per_line, red, green, blue, ncolors = h[11], h[12], h[14], h[15], h[16], h[19]
    if fmt != 2 or bpp not in (16, 24, 32):
        sys.exit(f"unsupported xwd: format {fmt}, {bpp} bits per pixel")
    pixels = data[header_size + 12 * ncolors:]
    step = bpp // 8
    order = "little" if byte_order == 0 else "big"
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")  # PNG filter type 0
        line = pixels[y * bytes_per_line:(y + 1) * bytes_per_line]
        for x in range(width):
            p = int.from_bytes(line[x * step:(x + 1) * step], order)
            row += bytes((channel(p, red), channel(p, green), channel(p, blue)))
        rows.append(bytes(row))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b"")
    open(dst, "wb").write(png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
