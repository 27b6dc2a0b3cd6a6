"""How long a kiosk bowl plays between syncs before its flash is full.

A full flash refuses throws ("sync needed") until the host syncs: a user
notices it as a bowl that stops in the middle of a festival week.  The store
has no size of its own: it refuses once LittleFS reports fewer than
RESERVE_BLOCKS free, so what it holds follows the filesystem it is given.
hardware/README.md §11 promises the recommended build (ESP32-S3 N8R8, a
6 MiB filesystem) at least 7 days of 20,000 throws; docs/storage.md,
"Capacity", has the measured figures.

Filling the full 6 MiB image takes minutes of CPU (docs/storage.md gives
the command), so this test fills two small images of the same filesystem,
through the shipped store, and holds the S3's image, deployed firmware and
fonts on it, to the rate they show.
"""

import os

import pytest
from mp import run_micropython
from test_heap_flow import MPLIB

from host_tools.deploy import firmware_tree

SCRIPT = os.path.join(MPLIB, "capacity.py")
S3_BLOCKS = 6 * 1024 * 1024 // 4096  # the vfs partition: 8 MiB flash less the 2 MiB of boot and app
KIOSK_DAY = 20_000
DAYS = 7


def capacity(image, blocks, deploy=None, fill=True):
    """(free blocks before the store's first write, records taken, record of the first warning)."""
    args = [str(image), str(blocks), *([str(deploy)] if deploy else []), *([] if fill else ["--no-fill"])]
    out = run_micropython(SCRIPT, 200_000, (MPLIB,), script_args=args, port="esp32word").split()
    return [int(field.split("=")[1]) for field in out]


def deploy_tree(folder):
    """What bobing deploy puts beside the store on an S3 (host_tools.deploy.firmware_tree.bowl_files())."""
    for rel, data in firmware_tree.bowl_files().items():
        path = os.path.join(folder, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return folder


@pytest.mark.slow  # a week of play
def test_the_s3s_flash_holds_a_week_of_kiosk_play_between_syncs(tmp_path):
    small_free, small, _ = capacity(tmp_path / "small.img", 128)
    large_free, large, warned = capacity(tmp_path / "large.img", 256)
    per_block = (large - small) / (large_free - small_free)
    # a 4 KB segment holds 128 throws; LittleFS's metadata takes a few of them
    assert 110 <= per_block <= 128, per_block
    assert 0 < warned < large  # "flash nearly full" comes before the refusal
    s3_free = capacity(tmp_path / "s3.img", S3_BLOCKS, deploy_tree(tmp_path / "deploy"), fill=False)[0]
    throws = large + (s3_free - large_free) * per_block
    assert throws >= DAYS * KIOSK_DAY, "%d throws: %.1f days" % (throws, throws / KIOSK_DAY)
