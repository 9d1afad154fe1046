"""Image files for the window-system test scripts, with only the standard library.
An image is (width, height, rgb) with rgb a bytes object of width*height*3 (rows top to bottom)."""
import struct
import zlib


def _channel(pixel, mask):
    if not mask:
        return 0
    shift = (mask & -mask).bit_length() - 1
    bits = bin(mask).count("1")
    return ((pixel & mask) >> shift) * 255 // ((1 << bits) - 1)


def read_xwd(path):
    """An xwd dump (ZPixmap, TrueColor, 16/24/32 bits per pixel)."""
    data = open(path, "rb").read()
    h = struct.unpack(">25I", data[:100])
    header_size, fmt, width, height, byte_order = h[0], h[2], h[4], h[5], h[7]
    bpp, bytes_per_line, red, green, blue, ncolors = h[11], h[12], h[14], h[15], h[16], h[19]
    if fmt != 2 or bpp not in (16, 24, 32):
        raise ValueError(f"{path}: unsupported xwd: format {fmt}, {bpp} bits per pixel")
    pixels = data[header_size + 12 * ncolors:]
    if len(pixels) < bytes_per_line * height:
        raise ValueError(f"{path}: truncated xwd")
    step = bpp // 8
    order = "little" if byte_order == 0 else "big"
    rgb = bytearray(width * height * 3)
    # Byte-aligned 8-bit channels (Xvfb's depth 24 visual): slice whole rows instead of per pixel.
    masks = (red, green, blue)
    if bpp == 32 and all(m in (0xFF, 0xFF00, 0xFF0000, 0xFF000000) for m in masks):
        offsets = [((m.bit_length() - 1) // 8) for m in masks]
        if order == "big":
            offsets = [3 - o for o in offsets]
        for y in range(height):
            line = pixels[y * bytes_per_line:y * bytes_per_line + width * 4]
            base = y * width * 3
            for c, o in enumerate(offsets):
                rgb[base + c:base + width * 3:3] = line[o::4]
        return width, height, bytes(rgb)
    i = 0
    for y in range(height):
        line = pixels[y * bytes_per_line:(y + 1) * bytes_per_line]
        for x in range(width):
            p = int.from_bytes(line[x * step:(x + 1) * step], order)
            rgb[i:i + 3] = bytes((_channel(p, red), _channel(p, green), _channel(p, blue)))
            i += 3
    return width, height, bytes(rgb)


def read_ppm(path):
    """A binary PPM (P6, maxval 255) as written by KILN_WSI_DUMP_DIR."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval, separated by whitespace
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not a P6 PPM with maxval 255")
    width, height = int(fields[1]), int(fields[2])
    rgb = data[pos + 1:pos + 1 + width * height * 3]
    if len(rgb) != width * height * 3:
        raise ValueError(f"{path}: truncated PPM")
    return width, height, rgb


def write_png(path, image):
    width, height, rgb = image

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride:(y + 1) * stride] for y in range(height))  # filter 0
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


def read_png(path):
    """An 8-bit, non-interlaced RGB or RGBA PNG (as weston-screenshooter writes), alpha dropped."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    if not header:
        raise ValueError(f"{path}: no IHDR")
    width, height, depth, color, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(color)
    if depth != 8 or not channels or interlace:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    previous = bytearray(stride)
    rgb = bytearray(width * height * 3)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:    # Sub
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:  # Up
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:  # Average
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:  # Paeth
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        for c in range(3):
            rgb[y * width * 3 + c:(y + 1) * width * 3:3] = line[c::channels]
        previous = line
    return width, height, bytes(rgb)
