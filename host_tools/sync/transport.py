"""The one adapter between the sync and mpremote (pinned in pyproject.toml,
extra `sync`): a bowl's store reached over its USB serial.

    bowl = SerialBowl(port, root="/data")
    bowl.open()          # reach the REPL, even from a kiosk game (below)
    ...                  # bowl_id(), listing(), fetch(), acknowledge(): a syncer source
    bowl.resume()        # back to the game: `import main` at the REPL

Reaching the store during kiosk play, where Ctrl-C is disabled: the host
writes the line `sync` (SYNC_LINE) first.  A kiosk bowl with a key answers
with a challenge (firmware/app/gate.py), which the host answers with the key
of the generation the bowl names, from `keys` (host_tools/sync/keystore.py); the
key itself never crosses the line.  The bowl's application then, in any
mode, finishes the press in progress, prints the JSON line
{"event": "sync"}, enables Ctrl-C and leaves to the MicroPython REPL.  The
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

import errno
import json
import time

from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

from bobing.hmacsha import hmac_sha256
from host_tools.sync.syncer import SyncError, printable

try:  # pyserial's POSIX flush() raises termios.error, which is no OSError, when the pty is gone
    from termios import error as TtyError
except ImportError:  # Windows: no termios, pyserial raises OSError there
    TtyError = OSError

SYNC_LINE = b"\r\nsync\r\n"  # the leading line end closes any garbage before it
SYNC_EVENT = b'{"event": "sync"}'
CHALLENGE = b'{"event": "challenge"'
REFUSED = b'{"event": "refused"'
PROMPT = b">>> "
BAUD = 115200
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"  # its ">" is left for mpremote's exec
RAW_TRIES = 3
RAW_TIMEOUT = 3.0  # seconds for the raw REPL's banner after Ctrl-A, over all RAW_TRIES
# A program whose answer the raw REPL gives after everything it said before:
# its output (not its own text), then the ends of its output and of its errors.
SETTLE = b"print('bobing', 6 * 7)\x04"
SETTLED = (b"bobing 42", b"\x04\x04")
READ_TIMEOUT = 5.0  # seconds without a byte before the link counts as stalled
POLL = 0.2  # seconds a read waits while the host looks for a marker before a deadline

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

# The bowl's key generation and its MAC of the host's nonce: "key <gen> <hex>",
# "key -" (no key), or "key ?" (a key file, but no firmware to read it with: a
# deploy between writing a ROMFS image and the reset).  The key stays on the bowl.
_PROVE = """import os
try:
 from bobing.keyed import load
 from bobing.hmacsha import hmac_sha256
 from binascii import hexlify
 k=load(%(root)r)
except ImportError:
 k=None
 try:
  os.stat(%(root)r+'.key')
  k=0
 except OSError:
  pass
print('key -' if k is None else 'key ?' if k==0 else 'key %%d %%s'%%(k[1],hexlify(hmac_sha256(k[0],b'bobing bowl ',%(nonce)r)).decode()))
"""

_ACK = """import os
with open(%r,'wb') as f:f.write(%r)
os.rename(%r,%r)
"""


# A line of the store's listing that does not parse: noise on the link, not the bowl's doing.
GARBLED = "%s: a garbled line came over the link (noise on the cable?): nothing was written, sync again"


def port_error(port, error):
    """One line for a serial port that would not open (a pyserial exception)."""
    text = str(error)
    if "exclusively lock" in text or getattr(error, "errno", None) in (errno.EBUSY, errno.EAGAIN):
        return "%s: port in use by another program" % port
    if getattr(error, "errno", None) == errno.ENOENT or "No such file" in text:
        return "%s: cannot open the port: no such port" % port
    return "%s: cannot open the port: %s" % (port, text.splitlines()[0] if text else type(error).__name__)


def open_serial(port, baud, timeout):
    """pyserial's Serial on port, locked against other programs (flock, as
    mpremote locks it): a second watch or a sync cannot steal its bytes.
    SyncError with port_error's line if it would not open."""
    import serial

    try:
        return serial.Serial(port, baud, timeout=timeout, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        raise SyncError(port_error(port, e)) from None


class SerialBowl:
    """A bowl on a serial port, as a syncer source."""

    def __init__(self, port, root="/data", wait=10.0, baud=BAUD, keys=None):
        self.port = port
        self.keys = keys  # a keystore.KeyStore, for a kiosk bowl's challenge
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
            self.transport = SerialTransport(self.port, baudrate=self.baud, timeout=POLL)
        except TransportError:
            open_serial(self.port, self.baud, 0).close()  # mpremote hides why: ask the port again
            raise SyncError("%s: cannot open the port" % self.port) from None
        try:
            serial = self.transport.serial
            serial.write(SYNC_LINE)
            seen = self._read_for((SYNC_EVENT, PROMPT, CHALLENGE), self.wait)
            if seen == CHALLENGE:
                seen = self._answer(self._read_line())
            self.saw_app = seen == SYNC_EVENT
            self._enter_raw_repl()
        except SyncError:
            self.close()
            raise
        except (TransportError, OSError, TtyError) as e:
            self.close()
            raise SyncError(
                "%s: no MicroPython bowl answers (%s)"
                % (self.port, str(e).splitlines()[0] if str(e) else "no REPL")
            ) from None

    def _read_line(self):
        """The rest of the line being received (bytes, without its end)."""
        serial = self.transport.serial
        line = b""
        end = time.monotonic() + READ_TIMEOUT
        while not line.endswith(b"\n") and len(line) < 256 and time.monotonic() < end:
            line += serial.read(1)
        return line.strip()

    def _answer(self, rest):
        """Answer a kiosk bowl's challenge (the line after CHALLENGE) with its key;
        the marker the bowl then sent (SyncError if it refused or said nothing)."""
        try:
            challenge = json.loads(CHALLENGE + rest)
            bowl, generation, nonce = challenge["bowl"], challenge["key"], challenge["nonce"]
        except (ValueError, KeyError, TypeError):
            raise SyncError("%s: garbled challenge from the bowl: try again" % self.port) from None
        key = None if self.keys is None else self.keys.key(bowl, generation)
        if key is None:
            raise SyncError(
                "%s: bowl %s is in kiosk mode and %s holds no key %s for it"
                % (self.port, bowl, self.keys.path if self.keys else "this host", generation)
            )
        answer = hmac_sha256(key, b"bobing sync ", nonce.encode()).hex()
        self.transport.serial.write(b"auth %s\r\n" % answer.encode())
        seen = self._read_for((SYNC_EVENT, REFUSED), self.wait)
        if seen != SYNC_EVENT:
            raise SyncError(
                "%s: bowl %s %s"
                % (
                    self.port,
                    bowl,
                    "refused this host's key: a forged bowl, or one keyed elsewhere"
                    if seen == REFUSED
                    else "did not answer the key",
                )
            )
        return seen

    def _enter_raw_repl(self):
        """mpremote's enter_raw_repl without a soft reset (which would restart
        the application), with a deadline that a stream of garbage cannot
        hold off (mpremote's times out only when the line goes quiet)."""
        serial = self.transport.serial
        for _ in range(RAW_TRIES):
            # the bowl says `sync` a moment before its REPL reads again: a
            # Ctrl-A that came while it was still stopping is asked again
            serial.write(b"\r\x03")  # Ctrl-C: stop a program left running by a cut link
            time.sleep(0.05)
            serial.reset_input_buffer()
            serial.write(b"\r\x01")  # Ctrl-A: raw REPL
            if self._read_for((RAW_BANNER,), RAW_TIMEOUT / RAW_TRIES) is not None:
                self._settle()
                self.transport.in_raw_repl = True
                # mpremote's raw paste takes a read that times out for garbage:
                # in the raw REPL a link is stalled after READ_TIMEOUT, as everywhere
                serial.timeout = READ_TIMEOUT
                return
        raise TransportError("no raw REPL")

    def _settle(self):
        """Read past whatever the raw REPL still owes: a Ctrl-A tried again
        because the first banner came late (a loaded host) gets a second
        banner, and mpremote's exec, taking it for the answer to its raw
        paste request, fails.  The bytes on the line are in order, so once
        SETTLE's answer is in, nothing older is left but the prompt, which
        stays for mpremote's exec."""
        self.transport.serial.write(SETTLE)
        for marker in SETTLED:
            if self._read_for((marker,), READ_TIMEOUT) is None:
                raise TransportError("no answer in the raw REPL")

    def _read_for(self, markers, timeout):
        """Read until one of markers arrives (returned) or timeout (None);
        byte by byte, so nothing after the marker is taken."""
        serial = self.transport.serial
        serial.timeout = POLL
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
                "%s: the bowl failed: %s" % (self.port, printable((str(e).strip().splitlines() or ["?"])[-1]))
            ) from None
        except (OSError, TtyError) as e:
            raise SyncError("%s: link lost: %s" % (self.port, getattr(e, "strerror", None) or e)) from None

    def relist(self):
        """Forget the listing read so far: a program changed the store."""
        self._listing = None

    def run(self, code):
        """What a raw-REPL program printed (text); SyncError if it failed."""
        return self._exec(code).decode("utf-8", "replace")

    def _list(self):
        if self._listing is not None:
            return
        lines = self._exec(_LIST % self.root).decode("utf-8", "replace").splitlines()
        if not lines or not lines[0].startswith("id "):
            raise SyncError(GARBLED % self.port)
        self._id = None if lines[0] == "id -" else lines[0][3:]
        listing = {}
        for line in lines[1:]:
            if line == "nostore":
                raise SyncError("%s: no store at %s on the bowl" % (self.port, self.root))
            if line.endswith("/"):
                listing[line] = (-1, 0)
                continue
            parts = line.split(" ")
            if (
                len(parts) != 3
                or not parts[1].isdigit()
                or not parts[2].isdigit()
                or not parts[0].isprintable()
            ):
                raise SyncError(GARBLED % self.port)
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
        from host_tools.sync.syncer import file_sum

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
                    "%s: the bowl failed: %s"
                    % (self.port, printable((err or tail).decode("utf-8", "replace").strip()[-80:]))
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

    def bowl_key(self, nonce):
        """(generation, HMAC of "bobing bowl " + nonce under the bowl's key), or None: no key;
        (0, b"") for a key the bowl cannot read now (no firmware to read it with)."""
        answer = self._exec(_PROVE % {"root": self.root, "nonce": nonce}).decode("utf-8", "replace").split()
        if answer == ["key", "-"]:
            return None
        if answer == ["key", "?"]:
            return 0, b""
        if len(answer) != 3 or answer[0] != "key" or not answer[1].isdigit():
            raise SyncError("%s: unexpected answer from the bowl: %r" % (self.port, " ".join(answer)[:60]))
        try:
            return int(answer[1]), bytes.fromhex(answer[2])
        except ValueError:
            raise SyncError("%s: garbled answer from the bowl: try again" % self.port) from None

    def prove_key(self):
        """SyncError, before anything is read, if the host holds keys for this
        bowl's id and the bowl cannot show it holds the one it names."""
        import hmac
        import secrets

        bowl = self.bowl_id()
        if self.keys is None or bowl is None or not self.keys.all(bowl):
            return
        nonce = secrets.token_hex(16).encode()
        shown = self.bowl_key(nonce)
        if shown is None:
            raise SyncError(
                "%s: bowl %s holds no key, but this host keyed it: a forged bowl, or its key was erased; "
                "nothing synced" % (self.port, bowl)
            )
        key = self.keys.key(bowl, shown[0])
        if key is None or not hmac.compare_digest(hmac_sha256(key, b"bobing bowl ", nonce), shown[1]):
            raise SyncError(
                "%s: bowl %s does not hold the key this host gave it: a forged bowl; nothing synced"
                % (self.port, bowl)
            )

    def acknowledge(self, data):
        ack = self.root + "/ack"
        self._exec(_ACK % (ack + ".tmp", data, ack + ".tmp", ack))
