"""The operator's settings, kept in a small file on the flash.

Each setting is an int with a default and a range; the file is a magic,
the count, each value as u16 little-endian and a CRC-32, written through a
temp file and a rename (LittleFS renames atomically), so a power cut leaves
the old settings or the new ones.  A damaged or foreign file gives the
defaults, and load() says so (the app shows and logs it).

The count byte lets the list grow: a file written before a setting existed
(fewer values) is read, and the settings it lacks keep their defaults.
Settings are only ever appended, never renumbered.
"""

import struct
from binascii import crc32

from micropython import const

from bobing.store.log import read_file, write_file

PLAYERS = const(0)
PRESET = const(1)  # bobing.rules.PRESETS index
SETS = const(2)
STARTER = const(3)  # 0: the 答起 draw, 1: seat 1 starts
VOLUME = const(4)  # 1..10
MUTE = const(5)
LANGUAGE = const(6)  # 0: pinyin, 1: English (the visitor line)
ACCEPT_MS = const(7)
REARM_MS = const(8)
LONG_MS = const(9)
KIOSK = const(10)
PIN = const(11)  # 4 digits, 0000..9999
SPEECH = const(12)  # 1: announcements spoken on the DFPlayer (silent without one)
SPEECH_LANGUAGE = const(13)  # the card folder: 1 Mandarin, 2 Cantonese, 3 English, 4..9 recordings
SPEECH_VOLUME = const(14)  # the module's 0..30 (hardware/README.md 4.5: <= 20 on a small speaker)
IDLE_MIN = const(15)  # minutes without a press before the screen goes dark, 0: never (switch users)
CONTRAST = const(16)  # 1: high contrast (colour: white and yellow on black; OLED: full contrast)
VIBRATION = const(17)  # 1: the vibration motor buzzes with the piezo (a pulse a note)
SCAN = const(18)  # one-switch scan: seconds each offer stays open, 0: off (THROW throws)
_COUNT = const(19)

# default, lowest, highest, step of each setting, in the order above: four
# u16 little-endian each (one bytes object, read in place from the flash)
_RANGES = (
    b"\x04\x00\x02\x00\x14\x00\x01\x00"  # PLAYERS: 4, 2..20 step 1
    b"\x00\x00\x00\x00\x02\x00\x01\x00"  # PRESET: 0, 0..2 step 1
    b"\x01\x00\x01\x00\x08\x00\x01\x00"  # SETS: 1, 1..8 step 1
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # STARTER: 0, 0..1 step 1
    b"\x06\x00\x01\x00\x0a\x00\x01\x00"  # VOLUME: 6, 1..10 step 1
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # MUTE: 0, 0..1 step 1
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # LANGUAGE: 0, 0..1 step 1
    b"\x1e\x00\x1e\x00\xd0\x07\x0a\x00"  # ACCEPT_MS: 30, 30..2000 step 10
    b"\x64\x00\x64\x00\xe8\x03\x32\x00"  # REARM_MS: 100, 100..1000 step 50
    b"\xd0\x07\xe8\x03\x88\x13\xf4\x01"  # LONG_MS: 2000, 1000..5000 step 500
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # KIOSK: 0, 0..1 step 1
    b"\x00\x00\x00\x00\x0f\x27\x01\x00"  # PIN: 0, 0..9999 step 1
    b"\x01\x00\x00\x00\x01\x00\x01\x00"  # SPEECH: 1, 0..1 step 1
    b"\x01\x00\x01\x00\x09\x00\x01\x00"  # SPEECH_LANGUAGE: 1, 1..9 step 1
    b"\x14\x00\x00\x00\x1e\x00\x01\x00"  # SPEECH_VOLUME: 20, 0..30 step 1
    b"\x00\x00\x00\x00\x3c\x00\x05\x00"  # IDLE_MIN: 0, 0..60 step 5
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # CONTRAST: 0, 0..1 step 1
    b"\x00\x00\x00\x00\x01\x00\x01\x00"  # VIBRATION: 0, 0..1 step 1
    b"\x00\x00\x00\x00\x14\x00\x02\x00"  # SCAN: 0, 0..20 step 2
)


class Settings:
    def __init__(self, path):
        self.path = path
        self.values = [struct.unpack_from("<H", _RANGES, 8 * i)[0] for i in range(_COUNT)]

    def load(self):
        """Read the file; None if it is fine or absent, else one line saying
        what was wrong (the defaults are then in use)."""
        data = read_file(self.path)
        if data is None:
            return None
        count = data[3] if len(data) > 3 else 0
        size = 4 + 2 * count + 4
        if (
            not 0 < count <= _COUNT
            or len(data) != size
            or data[:3] != b"BS1"  # the magic
            or crc32(memoryview(data)[: size - 4]) != struct.unpack_from("<I", data, size - 4)[0]
        ):
            return "settings file damaged: defaults in use"
        for i in range(count):
            v = struct.unpack_from("<H", data, 4 + 2 * i)[0]
            _, low, high, _ = struct.unpack_from("<4H", _RANGES, 8 * i)
            if not low <= v <= high:
                self.values = Settings(self.path).values  # the defaults
                return "settings file damaged: defaults in use"
            self.values[i] = v
        return None

    def save(self):
        """StoreFull if the flash has no room (the old file stays)."""
        body = bytearray(b"BS1")
        body.append(_COUNT)
        for v in self.values:
            body.extend(struct.pack("<H", v))
        body.extend(struct.pack("<I", crc32(body)))
        write_file(self.path, body, self.path + ".tmp")

    def __getitem__(self, i):
        return self.values[i]

    def __setitem__(self, i, value):
        self.values[i] = value

    def step(self, i):
        """The next value of setting i, wrapping from the highest to the lowest."""
        _, low, high, step = struct.unpack_from("<4H", _RANGES, 8 * i)
        v = self.values[i] + step
        self.values[i] = low if v > high else v
