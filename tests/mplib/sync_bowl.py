"""A bowl on a serial line without hardware (CPython side of the sync tests and bench).

The real MicroPython unix port runs in a folder holding a store written by
the firmware (sync_game.py) and sync_main.py as its main.py, on a
pseudo-terminal; a bridge thread copies bytes between that terminal and a
second one whose path the host (mpremote) opens, as it would a USB serial.
The bridge can pace bytes at a baud rate (10 bits a byte, as a UART) and
can cut the link after a number of bytes, like a pulled cable: the host's
side of the terminal goes away, and connect() plugs in a new one.
"""

import os
import select
import shutil
import subprocess
import sys
import threading
import time
import tty

import slowdown

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
FIRMWARE = os.path.join(ROOT, "firmware")


def make_store(folder, throws, seed, players=6):
    """Play `throws` presses into folder/data with the firmware's code; the tip."""
    env = dict(os.environ, MICROPYPATH=FIRMWARE)
    out = subprocess.run(
        [
            MICROPYTHON,
            "-X",
            "heapsize=4000000",
            os.path.join(HERE, "sync_game.py"),
            "data",
            str(throws),
            str(seed),
            str(players),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(out.split()[-1])


class VirtualBowl:
    """MicroPython in `folder` on a pty, behind a bridge; path: the host's port."""

    def __init__(self, folder, baud=None):
        self.folder = folder
        self.baud = baud  # None: as fast as the terminals go
        shutil.copy(os.path.join(HERE, "sync_main.py"), os.path.join(folder, "main.py"))
        self.bowl_fd, slave = os.openpty()
        os.set_blocking(self.bowl_fd, False)
        tty.setraw(slave)
        env = dict(os.environ, MICROPYPATH=FIRMWARE + os.pathsep)
        self.proc = subprocess.Popen(
            [MICROPYTHON, "-X", "heapsize=4000000"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=folder,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.host_fd = None
        self.path = None
        self.cut_after = None  # bytes (both ways) before the link is cut
        self.moved = 0
        self.lock = threading.Lock()
        self.stopped = False
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()
        self.connect()

    def connect(self, cut_after=None):
        """Plug in a fresh host side; the link is cut after cut_after bytes."""
        with self.lock:
            if self.host_fd is not None:
                os.close(self.host_fd)
            self.host_fd, slave = os.openpty()
            os.set_blocking(self.host_fd, False)
            tty.setraw(slave)
            self.path = os.ttyname(slave)
            self._slave = slave  # kept open, so the terminal lives while the host reopens it
            self.moved = 0
            self.cut_after = cut_after
        return self.path

    def cut(self):
        with self.lock:
            self._cut()

    def _cut(self):
        if self.host_fd is not None:
            os.close(self.host_fd)
            os.close(self._slave)
            self.host_fd = None

    def _pump(self):
        while not self.stopped:
            fds = [self.bowl_fd] + ([self.host_fd] if self.host_fd is not None else [])
            try:
                ready = select.select(fds, [], [], 0.05)[0]
            except (OSError, ValueError):
                continue
            for fd in ready:
                with self.lock:
                    if fd != self.bowl_fd and fd != self.host_fd:
                        continue
                    try:
                        data = os.read(fd, 64 if self.baud else 4096)
                    except OSError:
                        continue
                    if fd == self.bowl_fd and self.host_fd is None:
                        continue  # nobody listening: the bytes are lost, as on a UART
                    if self.cut_after is not None and self.moved + len(data) > self.cut_after:
                        data = data[: self.cut_after - self.moved]
                        self._write(self.host_fd if fd == self.bowl_fd else self.bowl_fd, data)
                        self._cut()
                        self.cut_after = None
                        continue
                    self.moved += len(data)
                    self._write(self.host_fd if fd == self.bowl_fd else self.bowl_fd, data)
                if self.baud:
                    time.sleep(len(data) * 10.0 / self.baud)

    @staticmethod
    def _write(fd, data):
        """Write what the terminal takes; the rest is dropped when nobody
        reads for a second (a UART's receiver overflowing), so the bridge
        never blocks."""
        end = time.monotonic() + slowdown.seconds(1.0)
        while data and time.monotonic() < end:
            try:
                data = data[os.write(fd, data) :]
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                return

    def type(self, text):
        """Type at the bowl's serial console, as a person on the host's port
        would: behind whatever the host wrote before, on the same line (typed
        past the bridge, a press could overtake the host's `import main`)."""
        with self.lock:
            self._write(self._slave, text)

    def close(self):
        self.stopped = True
        self.thread.join()
        self.proc.kill()
        self.proc.wait()
        for fd in (self.bowl_fd, self.host_fd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
