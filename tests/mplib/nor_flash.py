"""A NOR flash chip in RAM, as a MicroPython block device for vfs.VfsLfs2.

It speaks the extended block protocol LittleFS uses (program at an offset,
erase a block), keeps NOR semantics (a program can only clear bits, an erase
sets a whole block to 0xFF) and counts what is done to it.  It can also:

  * cut the power at operation number `cut_at` (programs and erases counted
    from 0): that operation is torn, half of it done, and PowerCut is raised;
    every later operation raises PowerCut too, as a dead chip would;
  * record every operation (`trace`) so a run can be replayed to any point;
  * count its reads (`read_calls`): each allocates one small memoryview,
    which a C block device (the ESP32's flash partition) would not, so a
    heap figure of the code above it can leave them out; writes allocate
    nothing unless traced or torn.
"""


class PowerCut(Exception):
    """The simulated power went off; nothing after it reached the flash."""


class NorFlash:
    def __init__(self, blocks, block_size=4096, image=None):
        self.block_size = block_size
        self._erased = b"\xff" * block_size
        self.blocks = blocks
        if image is not None:
            self.mem = bytearray(image)
        else:  # erased, filled a block at a time so the image is allocated only once
            self.mem = bytearray(blocks * block_size)
            for block in range(blocks):
                self.erase(block)
        self.ops = 0  # programs + erases so far
        self.programmed = 0  # bytes programmed
        self.erases = 0
        self.block_erases = [0] * blocks
        self.read_bytes = 0
        self.cut_at = -1  # operation index at which the power goes; -1: never
        self.trace = None  # a list to record (block, offset, bytes or None for erase)
        self.read_calls = 0
        self._view = memoryview(self.mem)

    def _step(self):
        if 0 <= self.cut_at < self.ops:
            raise PowerCut()
        self.ops += 1
        return self.cut_at == self.ops - 1

    def readblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        try:
            buf[:] = self._view[start : start + len(buf)]
        except MemoryError:  # a finaliser of a file a power cut left open: the heap is locked
            mem = self.mem
            for i in range(len(buf)):
                buf[i] = mem[start + i]
        self.read_bytes += len(buf)
        self.read_calls += 1

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # basic protocol: whole blocks, erased first
            for i in range(len(buf) // self.block_size):
                self.ioctl(6, block + i)
            offset = 0
        torn = self._step()
        data = buf  # a copy only when it is kept or torn: an untraced write allocates nothing
        if torn or self.trace is not None:
            data = bytes(buf[: len(buf) // 2]) if torn else bytes(buf)
        self.program(block * self.block_size + offset, data)
        self.programmed += len(data)
        if self.trace is not None:
            self.trace.append((block * self.block_size + offset, data))
        if torn:
            raise PowerCut()

    def program(self, start, data):
        mem = self.mem
        for i in range(len(data)):
            mem[start + i] &= data[i]

    def erase(self, block, torn=False):
        start = block * self.block_size
        size = self.block_size // 2 if torn else self.block_size
        try:
            self.mem[start : start + size] = self._erased[:size]
        except MemoryError:  # as in readblocks
            mem = self.mem
            for i in range(start, start + size):
                mem[i] = 0xFF

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.block_size
        if op == 6:
            torn = self._step()
            self.erase(arg, torn)
            self.erases += 1
            self.block_erases[arg] += 1
            if self.trace is not None:
                self.trace.append((arg, None))
            if torn:
                raise PowerCut()
        return 0
