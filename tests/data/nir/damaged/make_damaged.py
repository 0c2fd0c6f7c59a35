"""Writes the damaged NIR files of this folder: ../two_lif.nir (make_fixtures.py) with one byte
inverted.

Each offset was found by inverting every byte of offsets 800-900 and 2050-2400 (around the
file's global heap, at 2064), one at a time, and running
`volley nir info` on the result with VOLLEY_HDF5_PREFLIGHT=0: these crash libhdf5 1.10.8 with
SIGSEGV inside H5HG_read (a variable-length string whose global-heap id is damaged, read by
H5Dread from the reader's read_whole_dataset). The `loop` files make the same read run forever
(H5T__conv_vlen clearing a buffer of a damaged length; H5HG_read walking a damaged global heap).
Run: python3 make_damaged.py
"""
import pathlib

here = pathlib.Path(__file__).parent
source = (here.parent / "two_lif.nir").read_bytes()
for offset in (2113, 2284):
    data = bytearray(source)
    data[offset] ^= 0xFF
    (here / f"two_lif_flip{offset}.nir").write_bytes(bytes(data))
for offset in (2051, 2304):
    data = bytearray(source)
    data[offset] ^= 0xFF
    (here / f"two_lif_loop{offset}.nir").write_bytes(bytes(data))
