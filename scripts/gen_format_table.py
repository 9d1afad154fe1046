#!/usr/bin/env python3
"""Generates Kiln's one format table from the registry (vk.xml) at build time.

Usage: gen_format_table.py <vk.xml> <outdir>

Output: <outdir>/kiln_format_table.inc, one `kiln::fmt::FormatInfo` initializer per format, sorted by
VkFormat value. memory/format_table.cpp includes it inside its table definition.

Which formats: every <format> of vk.xml's <formats> section that is in the Vulkan 1.3 core
VkFormat enum (the base enum plus formats that the 1.1..1.3 <feature> blocks promote), except
multi-planar/YCbCr formats (those carrying a `chroma` attribute). Extension-only formats (PVRTC,
R16G16_S10_5_NV, ...) are left out.

Where each field comes from:
  - block size, block extent, packed word size and compression scheme: the vk.xml attributes.
  - components (channel, bits, numeric kind, order): the format's *name*, which the spec defines
    authoritatively ("R5G6B5_UNORM_PACK16" is R:5 G:6 B:5, listed MSB first because it is packed).
    The registry's <component> lists carry the same information but have known mistakes in some
    registry versions (KNOWN_REGISTRY_ERRATA); every other disagreement stops the build so a human
    decides which one is right.

Component order in the table is memory order, least significant bit first: for *_PACKn formats the
name lists components from the most significant bit down, so each packed word is reversed. Padding
bits (the X in X8_D24 or R10X6) are kept as components with channel X so that the bit offset of a
component is always the sum of the bits before it. The only bits not described by a component are
the 5-bit shared exponent of E5B9G9R9, which sits above all three mantissas.

The alpha channel of an sRGB format is stored linearly (spec "Numeric Format": SRGB R, G, B are
sRGB-encoded, A is UNORM), so the table gives sRGB alphas the kind UNorm.
"""
import re
import sys
import xml.etree.ElementTree as ET

# Core versions by their <feature number>: registries from 1.4 on split each version into several
# <feature> blocks (VK_BASE_VERSION_1_1, VK_GRAPHICS_VERSION_1_1, ...), so names are not enough.
CORE_VERSIONS = ("1.0", "1.1", "1.2", "1.3")

NUMERIC_KINDS = {  # vk.xml numericFormat / name token -> kiln::fmt::NumericKind
    "UNORM": "UNorm", "SNORM": "SNorm", "USCALED": "UScaled", "SSCALED": "SScaled",
    "UINT": "UInt", "SINT": "SInt", "UFLOAT": "UFloat", "SFLOAT": "SFloat", "SRGB": "SRGB",
}

# Formats whose <component> list in vk.xml 1.3.239 (Debian 12's libvulkan-dev) disagrees with the
# format descriptions in the spec's "Formats" chapter; later registries fix them. The name-derived
# layout is used, and a registry that agrees with the name passes the check anyway.
KNOWN_REGISTRY_ERRATA = {
    "VK_FORMAT_B5G5R5A1_UNORM_PACK16": "components listed B,R,G,A instead of B,G,R,A",
    "VK_FORMAT_R64G64_UINT": "second component listed as B instead of G",
    "VK_FORMAT_R64G64_SINT": "second component listed as B instead of G",
    "VK_FORMAT_R64G64_SFLOAT": "second component listed as B instead of G",
    "VK_FORMAT_B10G11R11_UFLOAT_PACK32": "R listed with 10 bits instead of 11",
    "VK_FORMAT_BC4_SNORM_BLOCK": "numericFormat SRGB instead of SNORM",
    "VK_FORMAT_BC5_SNORM_BLOCK": "numericFormat SRGB instead of SNORM",
}

CHANNEL_GROUP = re.compile(r"^(?:[RGBADSXE]\d+)+$")   # e.g. R8G8B8A8, X8, D24, R10X6G10X6
PACKING = re.compile(r"^(\d*)PACK(\d+)$")              # PACK32, 2PACK16


def check(condition, message):
    """Stops the build with a message (unlike assert, not disabled by python -O)."""
    if not condition:
        sys.exit(f"gen_format_table.py: {message}")


def api_ok(elem):
    api = elem.get("api")
    return api is None or "vulkan" in api.split(",")


def core_format_values(root):
    """name -> VkFormat value for every format of the Vulkan 1.3 core enum (aliases excluded)."""
    values = {}
    for enums in root.findall("enums"):
        if enums.get("name") == "VkFormat":
            for e in enums.findall("enum"):
                if e.get("value") is not None:
                    values[e.get("name")] = int(e.get("value"), 0)
    for feature in root.findall("feature"):
        if feature.get("number") not in CORE_VERSIONS or not api_ok(feature):
            continue
        for require in feature.findall("require"):
            for e in require.findall("enum"):
                if e.get("extends") != "VkFormat" or e.get("alias"):
                    continue
                if e.get("value") is not None:
                    value = int(e.get("value"), 0)
                else:  # the registry's rule for extension enum values
                    value = 1000000000 + (int(e.get("extnumber")) - 1) * 1000 + int(e.get("offset"))
                    if e.get("dir") == "-":
                        value = -value
                values[e.get("name")] = value
    return values


def numeric_kind(channel, token):
    """The kind of a component; an sRGB format's alpha is stored linearly (UNORM)."""
    kind = NUMERIC_KINDS[token]
    return "UNorm" if channel == "A" and kind == "SRGB" else kind


def components_from_name(name, packed_word_bits):
    """Returns (memory_order, for_registry_check) for an uncompressed format.

    memory_order: [channel, bits, kind] lists, LSB first, padding (X) and exponent (E) included.
    for_registry_check: (channel, bits, kind) tuples in the name's order without X and E, which is
    how vk.xml's <component> lists are written.
    """
    tokens = name[len("VK_FORMAT_"):].split("_")
    in_name_order, pending, word_count = [], [], 1
    for token in tokens:
        if CHANNEL_GROUP.match(token):
            pending += [[m[0], int(m[1:]), None] for m in re.findall(r"[RGBADSXE]\d+", token)]
        elif token in NUMERIC_KINDS:
            for comp in pending:
                comp[2] = numeric_kind(comp[0], token)
            in_name_order += pending
            pending = []
        elif PACKING.match(token):
            count, bits = PACKING.match(token).groups()
            word_count = int(count or 1)
            check(int(bits) == packed_word_bits, f"{name}: PACK size disagrees with vk.xml")
        else:
            check(False, f"cannot parse '{token}' in {name}")
    in_name_order += pending  # trailing padding-only groups (none in 1.3, kept for robustness)
    for comp in in_name_order:
        if comp[0] == "X":  # padding bits have no numeric kind
            comp[2] = "None"

    memory_order = in_name_order
    if packed_word_bits:
        # Split into words in name order, then list each word's components from its LSB up.
        words, word, used = [], [], 0
        for comp in in_name_order:
            word.append(comp)
            used += comp[1]
            if used == packed_word_bits:
                words.append(list(reversed(word)))
                word, used = [], 0
        check(not word and len(words) == word_count, f"{name}: components do not fill the words")
        memory_order = [c for w in words for c in w]

    # The shared exponent (E5B9G9R9) is not a component; it must be the topmost field so the other
    # components' bit offsets stay the running sum of bits.
    if any(c[0] == "E" for c in memory_order):
        check(memory_order[-1][0] == "E", f"{name}: shared exponent is not the topmost field")
    for_registry_check = [tuple(c) for c in in_name_order if c[0] not in "XE"]
    return memory_order, for_registry_check


def registry_components(fmt, compressed):
    """vk.xml's <component> list as (channel, bits, kind); bits None for compressed formats.

    Older registries give an sRGB format's alpha the numericFormat SRGB, newer ones UNORM; both
    mean a linear alpha, so numeric_kind() normalises them.
    """
    return [(c.get("name"), None if compressed else int(c.get("bits")),
             numeric_kind(c.get("name"), c.get("numericFormat")))
            for c in fmt.findall("component")]


def build_entry(fmt, value):
    name = fmt.get("name")
    block_bytes = int(fmt.get("blockSize"))
    extent = [int(v) for v in fmt.get("blockExtent", "1,1,1").split(",")]
    packed = int(fmt.get("packed", "0"))
    compression = fmt.get("compressed")
    registry = registry_components(fmt, compression is not None)

    if compression:
        # Compressed: channels come from the registry; the kind is the name's numeric token.
        kind_tokens = [t for t in name.split("_") if t in NUMERIC_KINDS]
        check(len(kind_tokens) == 1, f"{name}: expected one numeric kind in the name")
        components = []
        for c in fmt.findall("component"):
            bits = c.get("bits")
            components.append([c.get("name"), 0 if bits == "compressed" else int(bits),
                               numeric_kind(c.get("name"), kind_tokens[0])])
        derived = [(c[0], None, c[2]) for c in components]
    else:
        components, derived = components_from_name(name, packed)
        total = sum(c[1] for c in components)
        check(total == block_bytes * 8, f"{name}: {total} component bits in a {block_bytes}-byte block")
        components = [c for c in components if c[0] != "E"]

    if derived != registry and name not in KNOWN_REGISTRY_ERRATA:
        check(False, f"vk.xml lists {registry} for {name}, but its name says {derived}. "
                     "Check the spec and add it to KNOWN_REGISTRY_ERRATA if vk.xml is wrong.")

    check(len(components) <= 4, f"{name}: more than 4 components")

    channels = {c[0] for c in components}
    aspects = [bit for ch, bit in (("D", "VK_IMAGE_ASPECT_DEPTH_BIT"), ("S", "VK_IMAGE_ASPECT_STENCIL_BIT"))
               if ch in channels] or ["VK_IMAGE_ASPECT_COLOR_BIT"]
    comps = ", ".join(f"{{Channel::{c[0]}, {c[1]}, NumericKind::{c[2]}}}" for c in components)
    compression_text = f'"{compression}"' if compression else "nullptr"
    return (value,
            f"    {{{name}, \"{name}\", {block_bytes}, {extent[0]}, {extent[1]}, {extent[2]}, {packed}, "
            f"{len(components)}, {{{comps}}}, {' | '.join(aspects)}, "
            f"{compression_text}}},")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_format_table.py <vk.xml> <outdir>")
    xml_path, outdir = sys.argv[1], sys.argv[2]
    root = ET.parse(xml_path).getroot()
    core = core_format_values(root)

    entries = []
    for fmt in root.find("formats").findall("format"):
        if fmt.get("chroma") or fmt.get("name") not in core:
            continue
        entries.append(build_entry(fmt, core[fmt.get("name")]))
    entries.sort()

    lines = ["// Generated by scripts/gen_format_table.py from vk.xml. Do not edit.",
             "// {format, name, block_bytes, block_width, block_height, block_depth, packed_bits,",
             "//  component_count, components (memory order, LSB first), aspects, compression}"]
    lines += [text for _, text in entries]
    with open(f"{outdir}/kiln_format_table.inc", "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
