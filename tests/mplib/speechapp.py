"""The shipped main.py and App on the virtual board with a simulated DFPlayer.

    micropython speechapp.py IMAGE OPTIONS -- PHASE1 [-- PHASE2 ...]

OPTIONS, each NAME=VALUE: players (4), seed (3), speech (1: on), language
(1), module (fitted | missing | none: a module that answers, one whose
BUSY never goes low and who never replies, no speaker at all), kiosk (0),
scan (0: the one-switch scan's seconds, off).
A fresh IMAGE gets these as its settings file; every PHASE is one power-up
of the bowl (bowl.run on a new Board over the same flash), fed its
commands in order:

    throw, referee, referee-long   a press, once the bowl is ready, the speaker
                                   silent and QUIET_MS more have passed (a
                                   listener's pause)
    to-end                         throws (a void, referee twice, every
                                   VOID_EVERY-th) until the game's end line
    during-speech                  a throw pressed while an announcement plays
    take:N                         THROW pressed as the clip of display text N
                                   (a scan's offer) starts: only the switch
    scan-to-end                    take:T_PRESS_TO_THROW until the game's end line
    pause:MS                       nothing for MS ms
    sync                           the host's line `sync\\r\\n` on the serial
    raw:HEX                        bytes on the serial (garbage)

The live event lines are printed as they come; after each phase one line
{"phase": N, "outcome": "sync" | "done", "kbd": [...], "released": bool,
"ms": now}: what Ctrl-C was set to, in order, whether main.py handed the
watchdog over, the virtual time at the end; and each clip the module
starts as a line {"clip": [ms, folder, clip]}, and each announcement the
app hands the speaker as {"say": n}.  Runs under MicroPython.
"""

import asyncio
import json
import sys
from binascii import unhexlify

import vfs
from app import settings as S
from board.base import LineBuffer
from board.dfplayer import DFPlayer
from display import texts as T
from sim import board as simboard
from sim.dfplayer import SimDFPlayer
from sim.flash import FileFlash
from sim.tracescreen import TraceScreen
from sim.vclock import VirtualClock
from sim.vclock import Watchdog as SimWatchdog

from bobing.dice import SeededBytes
from bobing.events import ENTROPY_SEEDED

MOUNT = "/f"
ROOT = MOUNT + "/data"
QUIET_MS = 1000
VOID_EVERY = 17
POLL_MS = 5


class Done(BaseException):
    """The phase's commands are used up (a power cut, as far as the bowl knows)."""


class Null:
    def write(self, text):
        pass


class Line:
    """The USB serial: event lines printed, received bytes through the shipped LineBuffer."""

    def __init__(self):
        self.pending = bytearray()
        self.buffer = LineBuffer()
        self.ended = False

    def write(self, buf):
        sys.stdout.write(buf)
        if bytes(buf[:15]) == b'{"event": "end"':  # a line's first piece
            self.ended = True

    def kbd_intr(self, on):
        pass  # the sim board hands this on as board.kbd_intr, which run() records instead

    def readline(self):
        while self.pending:
            byte = self.pending[0]
            self.pending = self.pending[1:]
            line = self.buffer.feed(byte)
            if line is not None:
                return line
        return None


class Ear(SimDFPlayer):
    """The simulated module, printing each clip it starts with the time:
    {"clip": [ms, folder, clip]} (kept nowhere: a whole game's clips, held
    in lists, would scatter the heap)."""

    started = 0  # clips started so far
    last = 0  # the clip started last

    def frame(self, f):
        super().frame(f)
        if self.played:
            folder, clip = self.played.pop()
            self.started += 1
            self.last = clip
            print('{"clip": [%d, %d, %d]}' % (self._ticks_ms(), folder, clip))


class Speaker(DFPlayer):
    """The shipped driver, printing {"say": n} as the app hands it an announcement
    of n clips: where each announcement begins, whatever the pauses."""

    def say(self, clips, n, folder):
        print('{"say": %d}' % n)
        super().say(clips, n, folder)


class Watchdog(SimWatchdog):
    released = False

    def release(self):
        self.released = True


async def press(board, key, hold_ms):
    ins = board.inputs
    await board.clock.sleep_ms(ins.rearm_ms + POLL_MS)
    board.keys.closed[key] = True
    await board.clock.sleep_ms(hold_ms)
    board.keys.closed[key] = False


async def ready(board):
    """Until the bowl waits for a press, both switches re-armed, nothing said."""
    ins = board.inputs
    speaker = board.speaker
    while not (ins.waiting and ins.idle() and not (speaker is not None and speaker.speaking)):
        await board.clock.sleep_ms(POLL_MS)
    await board.clock.sleep_ms(QUIET_MS)


async def take(board, text, serial=None):
    """THROW as soon as the clip of display text `text` starts (a scan's offer);
    nothing if the game ended first (with serial: its end line came)."""
    ear = board.ear
    started = ear.started
    while not (ear.started > started and ear.last == 1 + text):
        if serial is not None and serial.ended:
            return
        await board.clock.sleep_ms(POLL_MS)
    await press(board, 0, board.inputs.accept_ms + 20)


async def drive(board, serial, commands):
    ins = board.inputs
    for command in commands:
        if command == "sync":
            serial.pending.extend(b"sync\r\n")
        elif command.startswith("raw:"):
            serial.pending.extend(unhexlify(command[4:]))
        elif command.startswith("pause:"):
            await board.clock.sleep_ms(int(command[6:]))
        elif command.startswith("take:"):
            await take(board, int(command[5:]))
        elif command == "scan-to-end":
            while not serial.ended:
                await take(board, T.T_PRESS_TO_THROW, serial)
        elif command == "during-speech":
            while not board.speaker.speaking:
                await board.clock.sleep_ms(POLL_MS)
            await press(board, 0, ins.accept_ms + 20)
        elif command == "to-end":
            turn = 0
            while True:
                turn += 1
                await ready(board)
                if serial.ended:
                    break
                if turn % VOID_EVERY == 0:
                    await press(board, 1, ins.accept_ms + 20)
                    await ready(board)
                    await press(board, 1, ins.accept_ms + 20)
                else:
                    await press(board, 0, ins.accept_ms + 20)
        else:
            await ready(board)
            if command == "throw":
                await press(board, 0, ins.accept_ms + 20)
            elif command == "referee":
                await press(board, 1, ins.accept_ms + 20)
            elif command == "referee-long":
                await press(board, 1, ins.long_ms + 20)
            else:
                raise ValueError("unknown command %r" % command)
    await ready(board)
    raise Done()


def settings(opts):
    s = S.Settings(ROOT + "/settings")
    s[S.PLAYERS] = opts["players"]
    s[S.SPEECH] = opts["speech"]
    s[S.SPEECH_LANGUAGE] = opts["language"]
    s[S.KIOSK] = opts["kiosk"]
    s[S.SCAN] = opts["scan"]
    s.save()


def phase(number, opts, commands, first):
    import bowl

    asyncio.new_event_loop()
    clock = VirtualClock()
    clock.install()
    serial = Line()
    board = simboard.build("devkit", clock, ROOT, serial, SeededBytes(opts["seed"] + number), ENTROPY_SEEDED)
    board.screen = TraceScreen(Null())
    board.watchdog = Watchdog(clock, 8000)
    clock.watchdog = board.watchdog
    kbd = []
    board.kbd_intr = kbd.append
    ear = Ear(clock.ticks_ms, fitted=opts["module"] == "fitted")
    board.ear = ear
    if opts["module"] != "none":
        board.speaker = Speaker(ear.uart, ear.busy, clock.ticks_ms())
    if first:
        settings(opts)
    asyncio.create_task(drive(board, serial, commands))
    outcome = "sync"
    try:
        bowl.run(board, fresh_start=True)
    except Done:
        outcome = "done"
    print(
        json.dumps(
            {
                "phase": number,
                "outcome": outcome,
                "kbd": kbd,
                "released": board.watchdog.released,
                "ms": clock.now,
            }
        )
    )


def main(argv):
    image = argv[0]
    opts = {"players": 4, "seed": 3, "speech": 1, "language": 1, "module": "fitted", "kiosk": 0, "scan": 0}
    i = 1
    while argv[i] != "--":
        name, value = argv[i].split("=")
        opts[name] = value if name == "module" else int(value)
        i += 1
    phases = []
    for arg in argv[i:]:
        if arg == "--":
            phases.append([])
        else:
            phases[-1].append(arg)
    flash = FileFlash(image, blocks=256)
    vfs.VfsLfs2.mkfs(flash)
    vfs.mount(vfs.VfsLfs2(flash), MOUNT)
    import os

    os.mkdir(ROOT)
    for n in range(len(phases)):
        phase(n + 1, opts, phases[n], n == 0)


main(sys.argv[1:])
