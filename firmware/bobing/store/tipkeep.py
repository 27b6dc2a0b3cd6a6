"""The bowl's tip and id kept a second time, outside the filesystem: in NVS.

LittleFS can fall back to an older state of a file or folder (a flipped bit
in a folder's newest commit): the newest record's slot rolled back, the
whole store put back a few records, or the root back to before the store
existed.  The flash then holds a state the bowl really was in, and nothing
in the filesystem says otherwise.  The ESP32's NVS partition is another
part of the flash with its own log-structured format, wear levelling and a
CRC-checked entry written whole or not at all (esp32.NVS; the virtual
boards' sim/nvs.py): one i32 there per record costs the LittleFS nothing.

The order per record: the record durable in its slot, then its number
here (set and commit), then the throw shown.  So this number is never
behind a shown throw: at boot the store's tip is raised to it, and the
numbers between are a reported loss, never used again (store.py).

Keys in namespace NAMESPACE: "tip" (i32, the newest record number written
or skipped) and "id" (blob, the bowl id's 16 hex digits).  Best effort: an
NVS that cannot be opened, read or written leaves the store as it is
without it (reported at boot), never a crash.
"""

from bobing.store.bowlid import is_hex

NAMESPACE = "bobing"
_TIP = "tip"
_ID = "id"


class KeptTip:
    """nvs: esp32.NVS or an emulation's constructor (None: the board keeps none).

    After load(): id, the bowl id kept (None: none); tip, the record number
    kept (-1: none); lost, the board keeps one but it had no id and tip (a
    first power-up, or lost).  The store sets tip to -1 if id is not its own."""

    def __init__(self, nvs):
        self.nvs = nvs
        self.id = None
        self.tip = -1
        self.lost = False

    def load(self, issues):
        make = self.nvs
        self.nvs = None
        if make is None:
            return
        try:
            nvs = make(NAMESPACE)
        except Exception as e:  # noqa: BLE001  (whatever the chip's NVS raises: the store goes on without it)
            issues.append("NVS cannot be opened (%r): the tip is kept in the filesystem only" % e)
            return
        self.nvs = nvs
        buf = bytearray(16)
        try:
            if nvs.get_blob(_ID, buf) == 16 and is_hex(buf):
                self.id, self.tip = bytes(buf).decode(), nvs.get_i32(_TIP)
                return
        except OSError:
            pass
        self.lost = True

    def save(self, seq, bowl_id=None):
        """Record `seq` is durable: kept here before it is shown (no
        allocation); at boot with bowl_id, the id too if NVS has another."""
        nvs = self.nvs
        if nvs is None or seq == self.tip and bowl_id == self.id:
            return
        try:
            if bowl_id is not None and self.id != bowl_id:
                nvs.set_blob(_ID, bowl_id.encode())
                self.id = bowl_id
            nvs.set_i32(_TIP, seq)
            nvs.commit()
            self.tip = seq
        except OSError:
            self.nvs = None  # the next boot opens it again, and says if it still fails
