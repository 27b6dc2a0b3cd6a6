"""A flash chip in a host file, as a MicroPython block device for vfs.VfsLfs2.

The virtual board keeps its flash here (it persists between runs: killing
the sim is a power cut); the whole-flow heap test and bench use it too.

Unlike nor_flash.NorFlash the image is not in the MicroPython heap, so a
whole-flow run can have an ESP32-sized heap (-X heapsize=40K) over a 1 MB
filesystem with a long history.  Reads and writes go through the file and
allocate nothing per call but what the unix port's stream methods do.
`cut_at` cuts the power as NorFlash's does: operation number cut_at (programs
and erases from 0) and every later one raise PowerCut, nothing written.
"""

_ERASED = b"\xff" * 256


class PowerCut(Exception):
    """The simulated power went off; nothing after it reached the flash."""


class FileFlash:
    def __init__(self, path, blocks=0, block_size=4096):
        """Open the image at path; with blocks, first make it, erased."""
        self.block_size = block_size
        if blocks:
            with open(path, "wb") as f:
                for _ in range(blocks * block_size // len(_ERASED)):
                    f.write(_ERASED)
        self.file = open(path, "r+b")
        self.blocks = self.file.seek(0, 2) // block_size
        self.ops = 0
        self.cut_at = -1

    def _step(self):
        if 0 <= self.cut_at <= self.ops:
            raise PowerCut()
        self.ops += 1

    def readblocks(self, block, buf, offset=0):
        self.file.seek(block * self.block_size + offset)
        self.file.readinto(buf)

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # basic protocol: whole blocks, erased first
            for i in range(len(buf) // self.block_size):
                self.ioctl(6, block + i)
            offset = 0
        self._step()
        self.file.seek(block * self.block_size + offset)
        self.file.write(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.block_size
        if op == 6:
            self._step()
            self.file.seek(arg * self.block_size)
            for _ in range(self.block_size // len(_ERASED)):
                self.file.write(_ERASED)
        if op == 3:  # sync
            self.file.flush()
        return 0
