"""The settings file (app/settings.py) under MicroPython: a bowl updated to a
firmware with more settings keeps its operator's choices, and a damaged
file is never read as the operator's."""

from mp import run_micropython

CODE = """
import os, struct
from binascii import crc32
from app import settings as S
os.mkdir("%(dir)s")
path = "%(dir)s/settings"

def write(values):
    body = bytearray(b"BS1")
    body.append(len(values))
    for v in values:
        body.extend(struct.pack("<H", v))
    body.extend(struct.pack("<I", crc32(body)))
    with open(path, "wb") as f:
        f.write(body)

# a file of the firmware before speech: 12 settings, 6 players, kiosk on, PIN 4321
old = S.Settings(path).values[:12]  # the defaults
old[S.PLAYERS] = 6
old[S.KIOSK] = 1
old[S.PIN] = 4321
write(old)
s = S.Settings(path)
print(s.load(), s[S.PLAYERS], s[S.KIOSK], s[S.PIN], s[S.SPEECH], s[S.SPEECH_LANGUAGE], s[S.SPEECH_VOLUME])
s[S.SPEECH_VOLUME] = 12
s.save()
t = S.Settings(path)
print(t.load(), t[S.PLAYERS], t[S.SPEECH_VOLUME])
write(S.Settings(path).values + [0])  # more settings than this firmware knows: damaged
print(S.Settings(path).load())
s.save()  # 6 players, kiosk on, PIN 4321
with open(path, "r+b") as f:
    f.seek(4 + 2 * S.PLAYERS)
    f.write(bytes([7]))  # 7 players: in range, so only the CRC tells
d = S.Settings(path)
print(d.load(), d[S.PLAYERS], d[S.KIOSK], d[S.PIN])
"""


def test_an_old_settings_file_is_read_and_the_new_settings_take_their_defaults(tmp_path):
    lines = run_micropython(CODE % {"dir": tmp_path / "data"}).splitlines()
    assert lines[0] == "None 6 1 4321 1 1 20"  # speech on, Mandarin, volume 20 (hardware/README.md 4.5)
    assert lines[1] == "None 6 12"
    assert lines[2] == "settings file damaged: defaults in use"


def test_a_damaged_value_still_in_range_is_caught_by_the_crc(tmp_path):
    """A bit gone wrong in the players' count (6 read as 7) is said, and the
    defaults are used, never the damaged value nor the rest of that file."""
    lines = run_micropython(CODE % {"dir": tmp_path / "data"}).splitlines()
    assert lines[3] == "settings file damaged: defaults in use 4 0 0"
