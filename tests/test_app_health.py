"""The RNG health tests (app/health.py, NIST SP 800-90B 4.4 in spirit), under MicroPython.

What a player would notice if they broke: a bowl rolling from a stuck or
biased random source, or a healthy bowl going out of service.
"""

from mp import run_micropython

PRELUDE = """
from app.health import HealthyBytes, RngFailure, RCT_CUTOFF, APT_CUTOFF, APT_WINDOW
import os

def verdict(stream):
    pos = [0]
    def source(n):
        out = stream[pos[0]:pos[0] + n]
        pos[0] += n
        return out
    h = HealthyBytes(source)
    try:
        while pos[0] < len(stream):
            h(16)
    except RngFailure as e:
        return "fail:%s" % e.args[0]
    return "ok"

def spread(n):
    # every value in turn: no repeats, each value twice per window
    return bytes([(i * 7) & 255 for i in range(n)])
"""


def run(code):
    return run_micropython(PRELUDE + code).split()


def test_a_healthy_source_passes_the_start_up_test_and_a_long_stream():
    out = run(
        "h = HealthyBytes(os.urandom)\nh.start()\nfor _ in range(4000):\n    h(16)\nprint(h.failed or 'ok')"
    )
    assert out == ["ok"]


def test_the_cut_offs_are_those_computed_for_a_false_alarm_rate_of_2_to_the_minus_30():
    assert run("print(RCT_CUTOFF, APT_CUTOFF, APT_WINDOW)") == ["5", "17", "512"]


def test_five_equal_bytes_in_a_row_fail_the_repetition_count_test_and_four_do_not():
    four = "print(verdict(spread(100) + bytes([9, 9, 9, 9]) + spread(24)))"
    five = "print(verdict(spread(100) + bytes([9, 9, 9, 9, 9]) + spread(23)))"
    assert run(four) == ["ok"]
    assert run(five) == ["fail:repetition", "count", "test"]


def test_one_value_17_times_in_a_window_fails_the_adaptive_proportion_test():
    # the window's first byte is 200; it comes back 15 or 16 more times, never twice in a row
    code = """
def window(extra):
    w = bytearray([b if b != 200 else 201 for b in spread(512)])
    w[0] = 200
    for i in range(extra):
        w[20 + i * 25] = 200
    return bytes(w)
print(verdict(window(15)), verdict(window(16)))
"""
    assert run(code) == ["ok", "fail:adaptive", "proportion", "test"]


def test_after_a_failure_the_source_is_never_read_again():
    code = """
calls = [0]
def stuck(n):
    calls[0] += 1
    return bytes(n)
h = HealthyBytes(stuck)
for _ in range(3):
    try:
        h(16)
    except RngFailure:
        pass
print(calls[0], h.failed)
"""
    assert run(code) == ["1", "repetition", "count", "test"]
