"""Piezo patterns: one per award tier, bigger awards longer and brighter.

Each is bytes of (pitch in 20 Hz, length in 10 ms) pairs, pitch 0 a rest
(board.sound plays them).  Index 0 is a throw that won nothing, then one
per tier, 一秀 to 状元 (every 状元-class throw has the 状元 tier bit: the fanfare).
"""

from bobing.classify import tiers_of

TIER_PATTERNS = (
    b"\x14\x08",  # nothing: one low blip, 400 Hz 80 ms
    b"\x42\x0a",  # 一秀: 1,320 Hz 100 ms
    b"\x42\x08\x00\x03\x4a\x0a",  # 二举: two rising notes
    b"\x42\x08\x4a\x08\x53\x0c",  # 四进: three rising notes
    b"\x42\x08\x4a\x08\x53\x08\x58\x10",  # 三红: four
    b"\x42\x06\x4a\x06\x53\x06\x58\x06\x63\x14",  # 对堂: a run of five
    b"\x42\x08\x53\x08\x63\x08\x84\x10\x00\x05\x63\x08\x84\x28",  # 状元: fanfare, 1 s
)
VOID = b"\x1e\x0c\x00\x04\x14\x14"  # 跳猴: high-low
ALARM = b"\x32\x19\x00\x0a\x32\x19\x00\x0a\x32\x19"  # out of service, flash full: three beeps
CLICK = b"\x64\x02"  # a press taken in the menu


def for_award(award):
    """The pattern of a throw's classify() bits: its highest tier."""
    tiers = tiers_of(award)
    for tier in range(5, -1, -1):
        if tiers & (1 << tier):
            return TIER_PATTERNS[tier + 1]
    return TIER_PATTERNS[0]
