#!/usr/bin/env python3
"""Converts an xwd dump (ZPixmap, TrueColor, 16/24/32 bits per pixel) to an RGB PNG, with only
the standard library. Usage: xwd-to-png.py IN.xwd OUT.png"""
import os
import sys

sys.dont_write_bytecode = True  # ctest runs this from the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from image_io import read_xwd, write_png  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write_png(sys.argv[2], read_xwd(sys.argv[1]))
