"""The access settings of issue 11 item 4 (docs/accessibility.md): idle timeout,
high contrast, vibration motor.

The idle timeout and the vibration are played through the shipped app on the
virtual board (sim.run, virtual clock, `pause MS` for time without a press),
read from the live events and the trace (screen calls, `backlight`, `lamp`,
`motor` lines); the motor's timing and the panels' contrast under MicroPython
directly.  The high-contrast screens have golden images
(tests/test_screens_golden.py, scenes contrast_*).
"""

import pytest
from app import menu as M
from app import settings as S
from mp import run_micropython
from test_sim import lines, replayed, sim

MIN_MS = 60_000


def bowl(tmp_path, trace, board="devkit"):
    """sim.run's arguments: a 3-player bowl on its own flash image, the trace to `trace`."""
    image = str(tmp_path / (board + ".img"))
    return ["--board", board, "--flash", image, "--players", "3", "--seed", "4", "--trace", trace]


def menu_to(item, presses=1):
    """The REFEREE-long menu, `item` (an ITEMS index) stepped `presses` times, Back."""
    back = len(M.ITEMS) - 1
    return (
        ["referee-long"] + ["referee"] * item + ["throw"] * presses + ["referee"] * (back - item) + ["throw"]
    )


def item_of(setting):
    return list(M._SETTING).index(setting)


def after(shown, start, prefix):
    """Index of the first line from `start` on that starts with prefix."""
    return next(i for i in range(start, len(shown)) if shown[i].startswith(prefix))


def test_the_new_settings_default_to_off_and_an_older_file_keeps_its_choices(tmp_path):
    code = """
import os, struct
from binascii import crc32
from app import settings as S
from app.menu import values
os.mkdir("%(dir)s")
path = "%(dir)s/settings"
body = bytearray(b"BS1")
old = S.Settings(path).values[:15]  # the defaults of the firmware before these settings: 15 values
old[S.SPEECH_VOLUME] = 12
body.append(len(old))
for v in old:
    body.extend(struct.pack("<H", v))
body.extend(struct.pack("<I", crc32(body)))
with open(path, "wb") as f:
    f.write(body)
s = S.Settings(path)
print(s.load(), s[S.SPEECH_VOLUME], s[S.IDLE_MIN], s[S.CONTRAST], s[S.VIBRATION], s[S.SCAN])
shown = values(s)
for _ in range(3):
    s.step(S.IDLE_MIN)
s.step(S.CONTRAST)
s.step(S.VIBRATION)
s.save()
t = S.Settings(path)
print(t.load(), t[S.IDLE_MIN], t[S.CONTRAST], t[S.VIBRATION])
print("|".join(shown[-5:-1]), "|".join(values(t)[-5:-1]))
for _ in range(10):
    t.step(S.IDLE_MIN)
print(t[S.IDLE_MIN])
"""
    out = run_micropython(code % {"dir": tmp_path / "data"}).splitlines()
    assert out[0] == "None 12 0 0 0 0"  # idle off (the switch user's need), contrast, vibration, scan off
    assert out[1] == "None 15 1 1"
    assert out[2] == "off|off|off|off 15 min|on|on|off"  # the menu: idle, contrast, vibration, scan
    assert out[3] == "0"  # 60 min is the last step: one more wraps to off


@pytest.mark.slow  # ten minutes of the bowl's time, polled every 5 ms
def test_idle_timeout_darkens_the_bowl_and_the_waking_press_only_wakes_it(tmp_path):
    trace = str(tmp_path / "trace")
    five = menu_to(item_of(S.IDLE_MIN))  # off -> 5 min
    # a pause begins as soon as the bowl waits, the result's 4 s hold included
    commands = ["throw", *five, "pause %d" % (5 * MIN_MS - 10_000), "throw"]
    commands += ["pause %d" % (5 * MIN_MS + 10_000), "throw", "throw", "throw"]
    code, events, err = sim("unix64", bowl(tmp_path, trace), commands)
    assert code == 0, err
    kinds = [e["event"] for e in events]
    # 4 min 50 s without a press: still lit, that press throws; 5 min: dark, the next
    # press only wakes (no throw), and the two after it throw in the same game
    assert kinds == ["game", "throw", "throw", "idle", "throw", "throw"], kinds
    replayed(events[0], [e for e in events if e["event"] == "throw"])  # seat after seat: nothing skipped
    shown = lines(trace)
    dark = shown.index("backlight off")
    assert shown.count("backlight off") == 1
    assert shown[dark + 1] == "lamp off"
    lit = after(shown, dark, "backlight on")
    assert shown[lit + 1] == "lamp on"
    # nothing drawn while dark, nor on waking: the panel kept the game's picture
    # (display on again), and the next thing drawn is the next throw's roll
    assert not [s for s in shown[dark:lit] if s.startswith("screen ")]
    assert after(shown, lit, "screen ") == after(shown, lit, "screen roll")
    drawn_before = [s for s in shown[:dark] if s.startswith("screen ")][-1]
    assert drawn_before.startswith("screen turn ")  # what the dark panel still holds


@pytest.mark.slow  # 75 minutes of the bowl's time, polled every 5 ms
def test_with_idle_off_a_switch_user_who_takes_thirty_minutes_still_gets_their_turn(tmp_path):
    trace = str(tmp_path / "trace")
    commands = ["throw", "pause %d" % (30 * MIN_MS), "throw", "pause %d" % (45 * MIN_MS), "throw"]
    code, events, err = sim("unix64", bowl(tmp_path, trace), commands)
    assert code == 0, err
    assert [e["event"] for e in events] == ["game", "throw", "throw", "throw"]
    assert not [s for s in lines(trace) if s.startswith("backlight")]


def test_high_contrast_from_the_menu_redraws_in_its_palette_and_survives_a_restart(tmp_path):
    trace = str(tmp_path / "trace")
    args = bowl(tmp_path, trace)
    code, events, err = sim("unix64", args, ["throw", *menu_to(item_of(S.CONTRAST)), "throw"])
    assert code == 0, err
    shown = lines(trace)
    on = shown.index("screen set_contrast high=on")
    assert after(shown, on, "screen menu ") > on  # the menu itself is drawn again in it
    code, events, err = sim("unix64", args, ["throw"])  # power again: the setting was saved
    assert code == 0, err
    again = lines(trace)[len(shown) :]
    assert "screen set_contrast high=on" in again


def test_the_oled_panel_takes_full_contrast_and_back():
    code = """
from sim import panels
screen, glass = panels.mono_screen("ssd1306")
first = glass.contrast
screen.set_contrast(1)
high = glass.contrast
screen.set_contrast(0)
print(first, high, glass.contrast)
"""
    assert run_micropython(code).split() == ["207", "255", "207"]  # 0xCF as initialised, 0xFF


MOTOR = """
import asyncio
from app.sounds import TIER_PATTERNS, VOID
from board.sound import Sound
from sim.vclock import VirtualClock
clock = VirtualClock()
clock.install()
felt = []
s = Sound(lambda hz, v: None, clock, lambda on: felt.append((clock.now, on)))
s.vibrate = %(vibrate)d
s.muted = True  # the motor is for players who cannot hear: it buzzes with the piezo muted
async def main():
    asyncio.create_task(s.run())  # as bowl.py runs it
    for pattern in TIER_PATTERNS + (VOID,):
        felt.clear()
        s.play(pattern)
        await clock.sleep_ms(3000)
        print(" ".join("%%d:%%d" %% (t, on) for t, on in felt))
    felt.clear()
    s.play(TIER_PATTERNS[6])
    await clock.sleep_ms(100)
    s.play(TIER_PATTERNS[1])  # a new pattern cuts the pulse being felt
    await clock.sleep_ms(3000)
    print(" ".join("%%d:%%d" %% (t, on) for t, on in felt))
asyncio.run(main())
"""


def pulses(line):
    """[(start ms, length ms)] of the motor from "ms:on ms:off ..."."""
    marks = [tuple(map(int, m.split(":"))) for m in line.split()]
    out, start = [], None
    for ms, on in marks:
        if on:
            start = ms
        elif start is not None:
            out.append((start, ms - start))
            start = None
    return out


def test_the_motor_counts_the_prize_tier_in_long_pulses_even_with_the_piezo_muted():
    rows = [pulses(line) for line in run_micropython(MOTOR % {"vibrate": 1}).splitlines()]
    lengths = [[length for _, length in row] for row in rows[:8]]
    assert lengths[0] == [80]  # won nothing: one short pulse
    for tier in range(1, 6):  # 一秀 .. 对堂: as many long pulses as the tier
        assert lengths[tier] == [200] * tier
    assert lengths[6] == [200] * 6  # 状元
    assert lengths[7] == [80, 80]  # the void
    for row in rows[:8]:  # pulses far enough apart to be counted by hand
        assert all(b[0] - (a[0] + a[1]) >= 150 for a, b in zip(row, row[1:], strict=False))
    start = rows[8][0][0]
    assert rows[8] == [(start, 100), (start + 100, 200)]  # cut at once, then the new pattern's pulse


def test_vibration_off_never_drives_the_motor():
    assert run_micropython(MOTOR % {"vibrate": 0}).split() == []


@pytest.mark.slow  # two boards' games (the motor's patterns: test_the_motor_counts_...)
def test_the_sim_bowl_buzzes_each_throw_once_vibration_is_on_and_the_cyd_has_no_motor(tmp_path):
    for board in ("devkit", "cyd"):
        trace = str(tmp_path / (board + ".trace"))
        args = bowl(tmp_path, trace, board)
        # 3 s after each throw: the longest buzz (2.1 s) is felt whole before the next
        commands = menu_to(item_of(S.VIBRATION)) + ["throw", "pause 3000"] * 6
        code, events, err = sim("unix64", args, commands)
        assert code == 0, err
        shown = lines(trace)
        assert len([e for e in events if e["event"] == "throw"]) == 6
        if board == "cyd":
            assert not [s for s in shown if s.startswith("motor")]
            continue
        played = [i for i, s in enumerate(shown) if s.startswith("sound ")]
        felt = []
        for k, i in enumerate(played):
            end = played[k + 1] if k + 1 < len(played) else len(shown)
            notes = [n.split(":") for n in shown[i].split()[2:]]
            felt.append((shown[i:end].count("motor on"), sum(1 for hz, _ in notes if hz != "0")))
            assert shown[i:end].count("motor on") == shown[i:end].count("motor off")
        felt = felt[1:]  # the click that turned vibration on came before it was on
        throw_sounds = felt[-6:]  # after the menu's clicks, buzzed too
        assert all(buzzes == notes for buzzes, notes in felt), felt  # a pulse a note of every pattern
        assert sum(buzzes for buzzes, _ in throw_sounds) >= 6
