"""The DFPlayer Mini driver (firmware/board/dfplayer.py) and the simulated module,
under MicroPython: the frames the module gets, the clip queue, and a bowl
with no module fitted, which must stay silent and never wait."""

import pytest
import slowdown
from mp import run_micropython

# A virtual clock, the simulated module and the driver on it, past the boot wait.
SETUP = """
from board.dfplayer import DFPlayer, BOOT_MS, START_MS, MAX_CLIP_MS, POLL_MS
from sim.dfplayer import SimDFPlayer
class Clock:
    def __init__(self):
        self.now = 0
    def ticks_ms(self):
        return self.now
clock = Clock()
def run_until_quiet(player, limit_ms=60000):
    polls = 0
    while player.speaking and polls * POLL_MS < limit_ms:
        player.poll(clock.now)
        clock.now += POLL_MS
        polls += 1
    return polls
"""


def test_play_folder_file_frame_is_the_datasheets():
    """Play folder 01 file 001 is the datasheet's frame 7E FF 06 0F 00 01 01 FE EA EF:
    a wrong byte and the module ignores the bowl."""
    out = run_micropython(
        """
from board.dfplayer import DFPlayer
class Wire:
    def __init__(self):
        self.sent = []
    def write(self, buf):
        self.sent.append(bytes(buf))
wire = Wire()
player = DFPlayer(wire, lambda: 1, 0)
player.say(b"\\x01", 1, 1)
player.poll(2000)
print(wire.sent[0].hex())
"""
    )
    assert out.split() == ["7eff060f000101feeaef"]


def test_every_frame_is_checked_and_decoded_by_the_simulated_module():
    out = run_micropython(
        SETUP
        + """
module = SimDFPlayer(clock.ticks_ms)
player = DFPlayer(module.uart, module.busy, 0)
player.volume(20)
player.say(bytes([1, 101, 134, 255]), 4, 2)
run_until_quiet(player)
print(module.volume, module.played, module.frames)
player.volume(7)
player.say(bytes([5]), 1, 99)
run_until_quiet(player)
print(module.volume, module.played[-1], module.frames)
"""
    )
    assert out.splitlines() == ["20 [(2, 1), (2, 101), (2, 134), (2, 255)] 5", "7 (99, 5) 7"]


def test_simulated_module_rejects_a_frame_the_real_one_would():
    out = run_micropython(
        """
from sim.dfplayer import SimDFPlayer
module = SimDFPlayer(lambda: 0)
good = bytearray(b"\\x7e\\xff\\x06\\x0f\\x00\\x01\\x01\\xfe\\xea\\xef")
module.uart.write(good)
for i, value in ((8, 0xeb), (0, 0x7f), (9, 0xee), (2, 0x07)):
    bad = bytearray(good)
    bad[i] = value
    try:
        module.uart.write(bad)
        print("accepted", i)
    except ValueError:
        print("rejected", i)
print(module.played)
"""
    )
    assert out.splitlines() == ["rejected 8", "rejected 0", "rejected 9", "rejected 2", "[(1, 1)]"]


def test_clips_play_one_after_another_as_busy_says():
    """The next clip starts only once BUSY has gone high: each clip is heard whole."""
    out = run_micropython(
        SETUP
        + """
module = SimDFPlayer(clock.ticks_ms, clip_ms=700)
player = DFPlayer(module.uart, module.busy, 0)
starts = []
player.say(bytes([10, 11, 12]), 3, 1)
seen = 0
while player.speaking:
    player.poll(clock.now)
    if len(module.played) > seen:
        seen = len(module.played)
        starts.append(clock.now)
    clock.now += 20
print(starts[1] - starts[0] >= 700 + 100, starts[2] - starts[1] >= 700 + 100, starts[0] >= BOOT_MS)
print(player.failures, clock.now < BOOT_MS + 3 * 1000)
"""
    )
    assert out.splitlines() == ["True True True", "0 True"]


def test_a_new_announcement_cuts_the_old_one():
    """The referee's repeat or the next throw is heard at once, not after the rest."""
    out = run_micropython(
        SETUP
        + """
module = SimDFPlayer(clock.ticks_ms, clip_ms=500)
player = DFPlayer(module.uart, module.busy, 0)
player.say(bytes([1, 2, 3, 4, 5, 6]), 6, 1)
while len(module.played) < 2:
    player.poll(clock.now)
    clock.now += 20
player.say(bytes([9]), 1, 3)
run_until_quiet(player)
print(module.played)
"""
    )
    assert out.split("\n")[0] == "[(1, 1), (1, 2), (3, 9)]"


def test_no_module_fitted_is_silent_and_never_waits():
    """BUSY pulled up, nothing answering: each poll returns at once, the queue
    empties after one START_MS timeout, and later announcements do the same."""
    out = run_micropython(
        SETUP
        + """
import time
class Nothing:
    def write(self, buf):
        return len(buf)
class PulledUp:
    def value(self):
        return 1
player = DFPlayer(Nothing(), PulledUp(), 0)
player.volume(20)
worst = 0
for n in range(3):
    player.say(bytes(range(1, 41)), 40, 1)
    while player.speaking:
        t = time.ticks_us()
        player.poll(clock.now)
        worst = max(worst, time.ticks_diff(time.ticks_us(), t))
        clock.now += 20
print(player.failures, clock.now < BOOT_MS + 3 * (START_MS + 200), worst < 5000)
"""
    )
    assert out.split() == ["3", "True", "True"]


def test_busy_stuck_low_does_not_hold_the_queue_forever():
    out = run_micropython(
        SETUP
        + """
class Nothing:
    def write(self, buf):
        return len(buf)
player = DFPlayer(Nothing(), lambda: 0, 0)
player.say(bytes([1, 2]), 2, 1)
polls = run_until_quiet(player, 10 * MAX_CLIP_MS)
print(player.speaking, polls * POLL_MS <= BOOT_MS + 2 * MAX_CLIP_MS + 200)
"""
    )
    assert out.split() == ["False", "True"]


def test_nothing_is_allocated_after_construction():
    """say(), volume() and a whole queue of polls run with the heap locked:
    speech never adds garbage to the game loop."""
    out = run_micropython(
        SETUP
        + """
import micropython
class Wire:
    def __init__(self):
        self.frames = 0
    def write(self, buf):
        self.frames += 1
class Busy:
    def __init__(self):
        self.low_until = -1
    def value(self):
        return 0 if clock.now < self.low_until else 1
wire = Wire()
busy = Busy()
player = DFPlayer(wire, busy, 0)
clips = bytearray(range(1, 101))
micropython.heap_lock()
player.volume(25)
player.say(clips, 100, 2)
sent = 0
while player.speaking:
    player.poll(clock.now)
    if wire.frames != sent:
        sent = wire.frames
        busy.low_until = clock.now + 300
    clock.now += 20
micropython.heap_unlock()
print(wire.frames, player.failures)
"""
    )
    assert out.split() == ["101", "0"]


def test_the_asyncio_task_keeps_the_game_loop_running():
    out = run_micropython(
        """
import asyncio, time
from board.dfplayer import DFPlayer, BOOT_MS
from sim.dfplayer import SimDFPlayer
class Clock:
    ticks_ms = staticmethod(time.ticks_ms)
module = SimDFPlayer(time.ticks_ms, clip_ms=60)
player = DFPlayer(module.uart, module.busy, time.ticks_ms() - BOOT_MS)
player.say(bytes([3, 4, 5]), 3, 1)
ticks = [0]
async def game():
    while player.speaking:
        ticks[0] += 1
        await asyncio.sleep_ms(5)
async def main():
    task = asyncio.create_task(player.run(Clock()))
    await asyncio.wait_for(game(), %g)
    task.cancel()
asyncio.run(main())
print(module.played, ticks[0] > 20)
"""
        % slowdown.seconds(5)  # real time: a bound, not a pace
    )
    assert out.split("\n")[0] == "[(1, 3), (1, 4), (1, 5)] True"


@pytest.mark.parametrize(
    "bad", ["player.volume(31)", "player.say(b'\\x01', 1, 0)", "player.say(b'\\x01', 1, 100)"]
)
def test_out_of_range_settings_are_refused(bad):
    out = run_micropython(
        """
from board.dfplayer import DFPlayer
player = DFPlayer(None, lambda: 1, 0)
try:
    %s
    print("accepted")
except ValueError as e:
    print("refused")
"""
        % bad
    )
    assert out.split() == ["refused"]
