"""The switch timing rules of hardware/README.md section 9, on board.inputs as shipped.

Each test drives Inputs under MicroPython with a fake clock and contact
levels, polling every 5 ms as the board does, and reads the events out.
What a player would notice: a brush of the switch throwing, a held switch
throwing twice, a tremor giving a double throw, a press during the result
throwing ahead, a switch held at power-up throwing.
"""

from mp import run_micropython

PRELUDE = """
from board.inputs import Inputs
import time

class Clock:
    def __init__(self):
        self.now = 0
    def ticks_ms(self):
        return self.now
    ticks_diff = staticmethod(time.ticks_diff)

clock = Clock()
level = [False, False]

def make(throw=False, referee=False):
    level[0], level[1] = throw, referee
    return Inputs(lambda: level[0], lambda: level[1], clock)

NAMES = {1: "THROW", 2: "REFEREE", 3: "LONG", 4: "STUCK", 5: "RELEASED"}

def run(ins, script):
    # script: [(ms, throw closed, referee closed)], each held for ms; events as names
    out = []
    for ms, t, r in script:
        level[0], level[1] = t, r
        for _ in range(ms // 5):
            clock.now += 5
            ins.poll()
            event = ins.take()
            while event:
                out.append(NAMES[event])
                event = ins.take()
    return out
"""


def events(script, setup="ins = make()"):
    code = PRELUDE + setup + "\nprint(' '.join(run(ins, %r)))" % (script,)
    return run_micropython(code).split()


def test_a_closure_counts_after_30_ms_and_a_shorter_one_never():
    assert events([(25, True, False), (200, False, False)]) == []
    assert events([(35, True, False), (200, False, False)]) == ["THROW"]


def test_holding_the_switch_throws_once_however_long():
    assert events([(5000, True, False), (200, False, False)]) == ["THROW"]


def test_a_second_press_within_the_re_arm_time_is_ignored():
    tremor = [(50, True, False), (50, False, False), (50, True, False), (200, False, False)]
    assert events(tremor) == ["THROW"]
    rearmed = [(50, True, False), (150, False, False), (50, True, False), (200, False, False)]
    assert events(rearmed) == ["THROW", "THROW"]


def test_bounce_while_closing_delays_the_press_but_does_not_lose_it():
    assert events([(10, True, False), (5, False, False), (40, True, False), (100, False, False)]) == ["THROW"]


def test_a_press_during_the_lock_out_is_ignored_not_queued():
    code = (
        PRELUDE
        + "ins = make()\nins.lock()\na = run(ins, [(60, True, False), (20, True, False)])\n"
        + "ins.unlock()\nb = run(ins, [(500, True, False), (200, False, False), (60, True, False), (200, False, False)])\n"
        + "print(len(a), ' '.join(b))"
    )
    # held through the unlock: still nothing; a fresh press afterwards: one throw
    assert run_micropython(code).split() == ["0", "THROW"]


def test_a_press_queued_at_the_moment_of_the_lock_is_forgotten_not_thrown_after_the_roll():
    """A press accepted just before the app locks for the roll, not taken yet,
    would otherwise come out after the unlock: a second throw nobody made."""
    code = (
        PRELUDE
        + "ins = make()\nlevel[0] = True\n"
        + "for _ in range(8):\n    clock.now += 5\n    ins.poll()\n"  # 40 ms: accepted, not taken
        + "ins.lock()\nlevel[0] = False\nins.unlock()\n"
        + "b = run(ins, [(200, False, False)])\nprint(len(b))"
    )
    assert run_micropython(code).split() == ["0"]


def test_a_switch_held_at_power_up_is_ignored_until_released():
    held = [(3000, True, False), (200, False, False), (50, True, False), (200, False, False)]
    assert events(held, "ins = make(throw=True)") == ["THROW"]


def test_a_switch_held_ten_seconds_gives_the_release_hint_and_its_release_clears_it():
    assert events([(10100, True, False), (200, False, False)]) == ["THROW", "STUCK", "RELEASED"]
    assert events([(9000, True, False), (200, False, False)]) == ["THROW"]


def test_referee_short_press_on_release_and_long_press_at_two_seconds():
    assert events([(300, False, True), (200, False, False)]) == ["REFEREE"]
    long_press = [(1990, False, True)]
    assert events(long_press) == []
    assert events([(2100, False, True), (300, False, False)]) == ["LONG"]


def test_the_long_press_time_and_the_acceptance_time_are_adjustable():
    setup = "ins = make()\nins.long_ms = 1000\nins.accept_ms = 500"
    assert events([(1100, False, True), (200, False, False)], setup) == ["LONG"]
    assert events([(400, True, False), (200, False, False)], setup) == []
    assert events([(600, True, False), (200, False, False)], setup) == ["THROW"]


def test_polling_the_switches_allocates_nothing():
    # 200 polls a second for as long as the bowl is on: garbage there would
    # make the collector stop the bowl at moments of its choosing, mid-roll
    code = (
        PRELUDE
        + "import mp_heap\nins = make()\n"
        + "def polls():\n    for _ in range(1000):\n        clock.now += 5\n        ins.poll()\n"
        + "idle = mp_heap.garbage(polls)\nlevel[0] = True\nheld = mp_heap.garbage(polls)\n"
        + "level[1] = True\nboth = mp_heap.garbage(polls)\nprint(idle, held, both)"
    )
    assert run_micropython(code).split() == ["0", "0", "0"]


def test_events_are_taken_in_the_order_they_came():
    # THROW held from 0 (accepted at 30 ms, stuck at 2.5 s), REFEREE held
    # from 1 s (long at 3 s), nothing taken until 3.2 s
    code = (
        PRELUDE
        + "ins = make()\nins.stuck_ms = 2500\n"
        + "level[0] = True\nfor _ in range(200):\n    clock.now += 5\n    ins.poll()\n"
        + "level[1] = True\nfor _ in range(440):\n    clock.now += 5\n    ins.poll()\n"
        + "print(ins.take(), ins.take(), ins.take(), ins.take())"
    )
    assert run_micropython(code).split() == ["1", "4", "3", "0"]
