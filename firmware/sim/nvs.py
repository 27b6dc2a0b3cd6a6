"""The ESP32's NVS partition on the virtual boards: esp32.NVS's API subset.

The store keeps its tip and id there, outside the LittleFS
(bobing/store/tipkeep.py).  As on the chip, an entry is written whole or
not at all, and a damaged one reads as missing: each entry carries its
CRC-32, and a commit writes the whole partition to its host file in one
write() (a process killed, the virtual board's power cut, never stops a
write() halfway).  The file (the flash image's name + ".nvs", beside it)
is opened before the flash becomes / and kept open, as the ROMFS partition
is (sim/bare.py).  Without a file the partition lives in memory only (the
tests, the fault campaign).

It also counts what the real partition would be written: `entries`, the
32-byte entries an ESP-IDF NVS page takes for each value set (docs/storage.md
turns them into erases and a flash life).

File layout, entry after entry: u8 key length, key, u8 namespace length,
namespace, u8 kind (1: i32, 2: blob), u8 value length, value (i32
little-endian, or the blob), CRC-32 of everything before it in the entry
(u32 little-endian); a key length of 0 ends it.
"""

import struct
from binascii import crc32

I32 = 1
BLOB = 2
_ENTRY = 32  # an NVS entry's bytes; a blob takes an index entry and a header entry besides its data


def _missing(key):
    return OSError(2, "NVS key %s not found" % key)  # as esp32.NVS: OSError, ESP_ERR_NVS_NOT_FOUND


class Partition:
    """Every namespace's {key: int or bytes}; file: the open host file, or None."""

    def __init__(self, file=None):
        self.file = file
        self.spaces = {}
        self.entries = 0
        if file is not None:
            self._load(file.read())

    @classmethod
    def beside(cls, image, erased=False):
        """The partition kept in the host file `image` + ".nvs" (made empty if
        missing); erased: emptied, for a flash image made new (a chip whose
        flash was erased has an empty NVS too)."""
        path = image + ".nvs"
        try:
            file = open("" if erased else path, "r+b")
        except OSError:
            file = open(path, "w+b")
        return cls(file)

    def open(self, namespace):
        """esp32.NVS(namespace) on this partition."""
        return NVS(namespace, self)

    def _load(self, data):
        at = 0
        while at < len(data) and data[at]:
            start = at
            try:
                key = data[at + 1 : at + 1 + data[at]].decode()
                at += 1 + data[at]
                space = data[at + 1 : at + 1 + data[at]].decode()
                at += 1 + data[at]
                kind, size = data[at], data[at + 1]
                value = bytes(data[at + 2 : at + 2 + size])
                at += 2 + size
                whole = crc32(data[start:at]) == struct.unpack_from("<I", data, at)[0]
            except (IndexError, ValueError, UnicodeError):
                return  # the rest is damaged: its keys read as missing
            at += 4
            if whole:
                self.spaces.setdefault(space, {})[key] = (
                    struct.unpack("<i", value)[0] if kind == I32 else value
                )

    def commit(self):
        """Every entry to the file, in one write()."""
        if self.file is None:
            return
        out = bytearray()
        for space, values in self.spaces.items():
            for key, value in values.items():
                kind = BLOB if isinstance(value, bytes) else I32
                raw = value if kind == BLOB else struct.pack("<i", value)
                entry = bytes((len(key),)) + key.encode() + bytes((len(space),)) + space.encode()
                entry += bytes((kind, len(raw))) + raw
                out += entry + struct.pack("<I", crc32(entry))
        out.append(0)
        self.file.seek(0)
        self.file.write(out)
        self.file.flush()

    def copy(self):
        """A partition in memory holding what this one holds (the fault campaign's)."""
        other = Partition()
        other.spaces = {space: dict(values) for space, values in self.spaces.items()}
        return other


class NVS:
    """esp32.NVS: get_i32/set_i32, get_blob/set_blob, erase_key, commit."""

    def __init__(self, namespace, partition):
        self.partition = partition
        self.values = partition.spaces.setdefault(namespace, {})

    def get_i32(self, key):
        value = self.values.get(key)
        if not isinstance(value, int):
            raise _missing(key)
        return value

    def set_i32(self, key, value):
        self.values[key] = value
        self.partition.entries += 1

    def get_blob(self, key, buffer):
        value = self.values.get(key)
        if not isinstance(value, bytes):
            raise _missing(key)
        if len(value) > len(buffer):
            raise OSError(22, "NVS blob %s longer than the buffer" % key)
        buffer[: len(value)] = value
        return len(value)

    def set_blob(self, key, value):
        self.values[key] = bytes(value)
        self.partition.entries += 2 + (len(value) + _ENTRY - 1) // _ENTRY

    def erase_key(self, key):
        if self.values.pop(key, None) is None:
            raise _missing(key)

    def commit(self):
        self.partition.commit()
