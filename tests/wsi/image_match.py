"""Comparing captured frames (images from image_io) with only the standard library."""


def fraction_within(a, b, tolerance, step=1):
    """Fraction of pixels whose three channels all differ by at most `tolerance` (0..255).
    step > 1 looks only at every step-th pixel of every step-th row (a quick coarse score)."""
    width, height, pa = a
    wb, hb, pb = b
    if (width, height) != (wb, hb):
        return 0.0
    good = total = 0
    stride = width * 3
    for y in range(0, height, step):
        row_a = pa[y * stride:(y + 1) * stride]
        row_b = pb[y * stride:(y + 1) * stride]
        if step == 1 and row_a == row_b:
            good += width
            total += width
            continue
        for x in range(0, stride, 3 * step):
            total += 1
            if (abs(row_a[x] - row_b[x]) <= tolerance and abs(row_a[x + 1] - row_b[x + 1]) <= tolerance
                    and abs(row_a[x + 2] - row_b[x + 2]) <= tolerance):
                good += 1
    return good / total


def best_match(target, candidates, tolerance, shortlist=4):
    """(index, fraction) of the candidate closest to target: a coarse score over every candidate,
    then the exact score for the best `shortlist` of them."""
    coarse = sorted(range(len(candidates)),
                    key=lambda i: -fraction_within(target, candidates[i], tolerance, step=5))
    scored = [(i, fraction_within(target, candidates[i], tolerance)) for i in coarse[:shortlist]]
    return max(scored, key=lambda s: s[1])


def flipped_vertically(image):
    width, height, rgb = image
    stride = width * 3
    return width, height, b"".join(rgb[y * stride:(y + 1) * stride] for y in reversed(range(height)))


def red_blue_swapped(image):
    width, height, rgb = image
    out = bytearray(rgb)
    out[0::3], out[2::3] = rgb[2::3], rgb[0::3]
    return width, height, bytes(out)


def difference_image(a, b):
    """Per-channel |a-b| times 4 (small differences become visible); black where b is missing."""
    width, height, pa = a
    pb = b[2] if b[:2] == a[:2] else bytes(len(pa))
    return width, height, bytes(min(255, 4 * abs(x - y)) for x, y in zip(pa, pb))


def texture_removed(image):
    """Every pixel that is not background (the top-left pixel's colour) painted with the mean
    colour of those pixels: what an untextured cube would look like."""
    width, height, rgb = image
    background = rgb[0:3]
    pixels = [rgb[i:i + 3] for i in range(0, len(rgb), 3)]
    cube = [p for p in pixels if p != background]
    if not cube:
        return image
    mean = bytes(sum(p[c] for p in cube) // len(cube) for c in range(3))
    return width, height, b"".join(background if p == background else mean for p in pixels)
