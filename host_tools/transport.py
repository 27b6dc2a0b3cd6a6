"""The one adapter between the sync and mpremote (pinned in pyproject.toml,
extra `sync`): a bowl's store reached over its USB serial.

    bowl = SerialBowl(port, root="/data")
    bowl.open()          # reach the REPL, even from a kiosk game (below)
    ...                  # bowl_id(), listing(), fetch(), acknowledge(): a syncer source
    bowl.resume()        # back to the game: `import main` at the REPL

Reaching the store during kiosk play, where Ctrl-C is disabled: the host
writes the line `sync` (SYNC_LINE) first.  The bowl's application answers,
in any mode, by finishing the press in progress, printing the JSON line
{"event": "sync"}, enabling Ctrl-C and leaving to the MicroPython REPL.  The
host waits for that line (`wait` seconds); if the REPL answers instead
(its prompt, after a NameError for `sync`), no application was running and
the host goes on.  Then mpremote's raw REPL runs the small programs below;
binary file contents come back length-framed through sys.stdout.buffer
(raw bytes, not repr: over 90 % of what the bowl sends is record bytes,
bench/py_sync.py, against well under
50 % for mpremote's fs_readfile).  resume() leaves the raw REPL and types
`import main` without waiting: main.py starts the application from flash,
which replays the log and resumes the game; it also applies the ack.

`root` is the store folder on the bowl: /data on the ESP32; a relative
folder on the MicroPython unix port (tests, the virtual bowl).
"""

import time

from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

from host_tools.syncer import SyncError

try:  # pyserial's POSIX flush() raises termios.error, which is no OSError, when the pty is gone
    from termios import error as TtyError
except ImportError:  # Windows: no termios, pyserial raises OSError there
    TtyError = OSError

SYNC_LINE = b"\r\nsync\r\n"  # the leading line end closes any garbage before it
SYNC_EVENT = b'{"event": "sync"}'
PROMPT = b">>> "
BAUD = 115200
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"  # its ">" is left for mpremote's exec
RAW_TIMEOUT = 3.0  # seconds for the raw REPL's banner after Ctrl-A
READ_TIMEOUT = 5.0  # seconds without a byte before the link counts as stalled

# Lists the store: "id <id or ->", then "<path>/" per folder and
# "<path> <size> <sum>" per file, sum = the first 4 bytes of SHA-256, LE.
_LIST = """import os,hashlib
R=%r
b=bytearray(512)
def s(p):
 h=hashlib.sha256()
 with open(p,'rb') as f:
  while 1:
   n=f.readinto(b)
   if not n:break
   h.update(memoryview(b)[:n])
 d=h.digest()
 return d[0]|d[1]<<8|d[2]<<16|d[3]<<24
def L(d,top):
 for e in os.ilistdir(R+'/'+d if d else R):
  p=d+e[0]
  if e[1]&0x4000:
   print(p+'/')
   if top:L(p+'/',0)
  else:print(p,os.stat(R+'/'+p)[6],s(R+'/'+p))
try:
 with open(R+'/id') as f:print('id',f.read().strip() or '-')
except OSError:
 print('id -')
try:
 L('',1)
except OSError:
 print('nostore')
"""

# Sends each file as "<size>\\n" + raw bytes ("-1\\n": unreadable).
_FETCH = """import os,sys
R=%r
w=sys.stdout.buffer.write
b=bytearray(512)
for p in %r:
 try:
  f=open(R+'/'+p,'rb')
 except OSError:
  w(b'-1\\n')
  continue
 w(b'%%d\\n'%%os.stat(R+'/'+p)[6])
 while 1:
  n=f.readinto(b)
  if not n:break
  w(memoryview(b)[:n])
 f.close()
"""

_ACK = """import os
with open(%r,'wb') as f:f.write(%r)
os.rename(%r,%r)
"""


class SerialBowl:
    """A bowl on a serial port, as a syncer source."""

    def __init__(self, port, root="/data", wait=10.0, baud=BAUD):
        self.port = port
        self.name = port
        self.root = root.rstrip("/") or "/"
        self.wait = wait
        self.baud = baud
        self.transport = None
        self.saw_app = False  # the application answered the sync line
        self._listing = None
        self._id = None

    # --- reaching the REPL -------------------------------------------------

    def open(self):
        try:
            self.transport = SerialTransport(self.port, baudrate=self.baud, timeout=0.2)
        except TransportError:
            raise SyncError(
                "%s: cannot open the port (no such port, or another program has it)" % self.port
            ) from None
        try:
            serial = self.transport.serial
            serial.write(SYNC_LINE)
            seen = self._read_for((SYNC_EVENT, PROMPT), self.wait)
            self.saw_app = seen == SYNC_EVENT
            self._enter_raw_repl()
        except (TransportError, OSError, TtyError) as e:
            self.close()
            raise SyncError(
                "%s: no MicroPython bowl answers (%s)"
                % (self.port, str(e).splitlines()[0] if str(e) else "no REPL")
            ) from None

    def _enter_raw_repl(self):
        """mpremote's enter_raw_repl without a soft reset (which would restart
        the application), with a deadline that a stream of garbage cannot
        hold off (mpremote's times out only when the line goes quiet)."""
        serial = self.transport.serial
        serial.write(b"\r\x03")  # Ctrl-C: stop a program left running by a cut link
        time.sleep(0.05)
        serial.reset_input_buffer()
        serial.write(b"\r\x01")  # Ctrl-A: raw REPL
        if self._read_for((RAW_BANNER,), RAW_TIMEOUT) is None:
            raise TransportError("no raw REPL")
        self.transport.in_raw_repl = True

    def _read_for(self, markers, timeout):
        """Read until one of markers arrives (returned) or timeout (None);
        byte by byte, so nothing after the marker is taken."""
        serial = self.transport.serial
        seen = b""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            data = serial.read(1)
            if data:
                seen = (seen + data)[-256:]
                for m in markers:
                    if m in seen:
                        return m
        return None

    def close(self):
        if self.transport is not None:
            try:
                self.transport.close()
            except (OSError, TtyError):
                pass
            self.transport = None

    def resume(self):
        """Leave the raw REPL and start the application again (not waited for)."""
        try:
            self.transport.exit_raw_repl()
            self.transport.serial.write(b"import main\r\n")
            self.transport.serial.flush()
        except (OSError, TtyError):
            pass  # the link is gone: the bowl restarts the game at its next power-up
        finally:
            self.close()

    # --- the syncer source -------------------------------------------------

    def _exec(self, code):
        try:
            return self.transport.exec(code)
        except TransportError as e:
            raise SyncError(
                "%s: the bowl failed: %s" % (self.port, (str(e).strip().splitlines() or ["?"])[-1])
            ) from None
        except (OSError, TtyError) as e:
            raise SyncError("%s: link lost: %s" % (self.port, getattr(e, "strerror", None) or e)) from None

    def _list(self):
        if self._listing is not None:
            return
        lines = self._exec(_LIST % self.root).decode("utf-8", "replace").splitlines()
        if not lines or not lines[0].startswith("id "):
            raise SyncError("%s: unexpected answer from the bowl: %r" % (self.port, (lines or [""])[0][:60]))
        self._id = None if lines[0] == "id -" else lines[0][3:]
        listing = {}
        for line in lines[1:]:
            if line == "nostore":
                raise SyncError("%s: no store at %s on the bowl" % (self.port, self.root))
            if line.endswith("/"):
                listing[line] = (-1, 0)
                continue
            parts = line.split(" ")
            if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
                raise SyncError("%s: unexpected answer from the bowl: %r" % (self.port, line[:60]))
            listing[parts[0]] = (int(parts[1]), int(parts[2]))
        self._listing = listing

    def bowl_id(self):
        self._list()
        return self._id

    def listing(self):
        self._list()
        return self._listing

    def fetch(self, paths):
        """{path: bytes} of the files, in one raw-REPL program; each file's
        size and sum are checked against the listing (SyncError if not)."""
        from host_tools.syncer import file_sum

        t = self.transport
        try:
            t.exec_raw_no_follow(_FETCH % (self.root, list(paths)))
            out = {}
            for path in paths:
                size = int(self._line())
                if size < 0:
                    raise SyncError("%s: %s could not be read on the bowl" % (self.port, path))
                data = self._exactly(size)
                if (size, file_sum(data)) != self._listing.get(path):
                    raise SyncError(
                        "%s: %s changed or was garbled on the way: sync again" % (self.port, path)
                    )
                out[path] = data
            tail, err = t.follow(READ_TIMEOUT)
            if tail or err:
                raise SyncError(
                    "%s: the bowl failed: %s" % (self.port, (err or tail).decode("utf-8", "replace")[-80:])
                )
            return out
        except ValueError:
            raise SyncError("%s: garbled answer from the bowl: sync again" % self.port) from None
        except TransportError as e:
            raise SyncError("%s: link lost: %s" % (self.port, e)) from None
        except (OSError, TtyError) as e:
            raise SyncError("%s: link lost: %s" % (self.port, getattr(e, "strerror", None) or e)) from None

    def _line(self):
        data = b""
        while not data.endswith(b"\n"):
            data += self._exactly(1)
            if len(data) > 12:
                raise ValueError("no size line")
        return data.decode("ascii")

    def _exactly(self, n):
        serial = self.transport.serial
        data = bytearray()
        last = time.monotonic()
        while len(data) < n:
            chunk = serial.read(n - len(data))
            if chunk:
                data += chunk
                last = time.monotonic()
            elif time.monotonic() - last > READ_TIMEOUT:
                raise SyncError("%s: the bowl stopped answering (stalled link)" % self.port)
        return bytes(data)

    def acknowledge(self, data):
        ack = self.root + "/ack"
        self._exec(_ACK % (ack + ".tmp", data, ack + ".tmp", ack))
