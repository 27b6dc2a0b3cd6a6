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
COUNT = const(18)

# default, lowest, highest, step of each setting, in the order above
RANGES = (
    (4, 2, 20, 1),
    (0, 0, 2, 1),
    (1, 1, 8, 1),
    (0, 0, 1, 1),
    (6, 1, 10, 1),
    (0, 0, 1, 1),
    (0, 0, 1, 1),
    (30, 30, 2000, 10),
    (100, 100, 1000, 50),
    (2000, 1000, 5000, 500),
    (0, 0, 1, 1),
    (0, 0, 9999, 1),
    (1, 0, 1, 1),
    (1, 1, 9, 1),
    (20, 0, 30, 1),
    (0, 0, 60, 5),
    (0, 0, 1, 1),
    (0, 0, 1, 1),
)

_MAGIC = b"BS1"


class Settings:
    def __init__(self, path):
        self.path = path
        self.values = [r[0] for r in RANGES]

    def load(self):
        """Read the file; None if it is fine or absent, else one line saying
        what was wrong (the defaults are then in use)."""
        data = read_file(self.path)
        if data is None:
            return None
        count = data[3] if len(data) > 3 else 0
        size = 4 + 2 * count + 4
        if (
            not 0 < count <= COUNT
            or len(data) != size
            or data[:3] != _MAGIC
            or crc32(memoryview(data)[: size - 4]) != struct.unpack_from("<I", data, size - 4)[0]
        ):
            return "settings file damaged: defaults in use"
        for i in range(count):
            v = struct.unpack_from("<H", data, 4 + 2 * i)[0]
            low, high = RANGES[i][1], RANGES[i][2]
            if not low <= v <= high:
                self.values = [r[0] for r in RANGES]
                return "settings file damaged: defaults in use"
            self.values[i] = v
        return None

    def save(self):
        """StoreFull if the flash has no room (the old file stays)."""
        body = bytearray(_MAGIC)
        body.append(COUNT)
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
        _, low, high, step = RANGES[i]
        v = self.values[i] + step
        self.values[i] = low if v > high else v
