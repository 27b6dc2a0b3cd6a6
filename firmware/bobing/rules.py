"""Rule options and named presets, as small ints.

Where the source texts disagree, each reading is an option value; a preset
names one value per option.  docs/rules.md quotes the source of every value.
The same module runs on the ESP32 (MicroPython) and on the desktop (CPython).

The engine reads an option as an int: `rules.index[LIUBO_HEI] == _LIUBO_HEI_GRAB`.
The names of options and values (for the host, docs and menus) and the code
that reads them live in bobing.names, loaded only by the methods that take or
return names.  The arrow points one way: rules imports names, and names is
given what it needs of rules (presets()), so either loads without the other.
"""

from micropython import const

from bobing.classify import (
    F_BIANDIJIN_SEPARATE,
    F_CHAJINHUA_SECOND,
    F_DUITANG_PAIRS,
    F_DUITANG_TRIPLES,
    F_LIUBO_HEI_ZY,
    F_SIJIN_COMBO,
    F_WUZI_FACE_FIRST,
    F_WUZI_YIXIU,
)

# Option positions: the encoding order.  Append new options at the end only:
# encoded rule sets in logs refer to options by position.  Each option's
# values follow it, numbered in the order bobing.names.OPTIONS lists them.
# Public: what the engine (game.py) reads; the rest are private, so they cost
# no heap (a public constant is a dict entry and a name, kept for good;
# docs/memory.md).
_CHAJINHUA_RANK = const(0)
_CHAJINHUA_RANK_THIRD = const(0)
_CHAJINHUA_RANK_SECOND = const(1)
LIUBO_HEI = const(1)
LIUBO_HEI_END_SHARED = const(0)
LIUBO_HEI_CONTINUE = const(1)
_LIUBO_HEI_GRAB = const(2)
_BIANDIJIN = const(2)
_BIANDIJIN_LIUBO_HEI = const(0)
_BIANDIJIN_SEPARATE = const(1)
_WUZI_ORDER = const(3)
_WUZI_ORDER_KICKER = const(0)
_WUZI_ORDER_FACE_KICKER = const(1)
_WUZI_YIXIU = const(4)
_WUZI_YIXIU_NO = const(0)
_WUZI_YIXIU_YES = const(1)
_SIJIN_COMBO = const(5)
_SIJIN_COMBO_YES = const(0)
_SIJIN_COMBO_NO = const(1)
_DUITANG = const(6)
_DUITANG_STRAIGHT = const(0)
_DUITANG_ALSO_PAIRS = const(1)
_DUITANG_ALSO_TRIPLES = const(2)
LIUBO_HONG = const(7)
LIUBO_HONG_UNCLAIMED = const(0)
_LIUBO_HONG_EVERYTHING = const(1)
LIUBO_HONG_ALL_BUT_CHAJINHUA = const(2)
CHAJINHUA_DUITANG = const(8)
CHAJINHUA_DUITANG_AT_ONCE = const(0)
_CHAJINHUA_DUITANG_AT_END = const(1)
CHASE = const(9)
CHASE_OFF = const(0)
CHASE_PREVIOUS = const(1)
_CHASE_NEAREST_BACK = const(2)
CHASE_FROM = const(10)
_CHASE_FROM_DUITANG = const(0)
_CHASE_FROM_SANHONG = const(1)
_CHASE_FROM_ALL = const(2)
ROUNDS = const(11)
_ROUNDS_ANY = const(0)
ROUNDS_EQUAL = const(1)
VOID = const(12)
VOID_SKIP = const(0)
_VOID_NO_SKIP = const(1)
LIUBO_ENDINGS = const(13)
LIUBO_ENDINGS_ON = const(0)
_LIUBO_ENDINGS_OFF = const(1)
OPTION_COUNT = const(14)

# Values per option, one byte each in option order: how many values it has.
_VALUE_COUNTS = b"\x02\x03\x02\x02\x02\x02\x03\x03\x02\x03\x03\x02\x02\x02"

# Presets, the default first, and their values: one byte per option, in option
# order.  Every preset names every value, so adding an option forces a decision.
#   xiamen: seeds 004 and 003's folk rules, what most tables play (default).
#   folk: seed 000 part 1 and seed 001: 插金花 second only to 六勃红, lights off on 六勃黑.
#   competition: seed 003, 厦门中秋博饼大赛规则 (match play).
PRESETS = ("xiamen", "folk", "competition")
PRESET_VALUES = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
    b"\x01\x02\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00",
    b"\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x00",
)

DEFAULT_PRESET = "xiamen"


def options():
    """[(name, (value, ...)), ...] in encoding order (host tools, menus)."""
    from bobing.names import rule_options

    return rule_options()


def presets():
    """[(preset name, (value per option, ...)), ...], the default first."""
    from bobing.names import rule_presets

    return rule_presets(PRESETS, PRESET_VALUES)


class Rules:
    """One complete rule set: a preset plus any overridden options.

    `index` holds each option's value number (a bytearray in option order), so
    a rule set encodes in a few bytes for logs and snapshots (encode/decode),
    and `flags` holds what the classifier needs as one int.  `overrides` maps
    option names to value names (host tools); the engine never names options.
    """

    def __init__(self, preset=DEFAULT_PRESET, overrides=None):
        if preset not in PRESETS:
            raise ValueError("unknown preset '%s' (choose from %s)" % (preset, ", ".join(PRESETS)))
        self.preset = preset
        self.preset_id = PRESETS.index(preset)
        self.index = bytearray(PRESET_VALUES[self.preset_id])
        if overrides:
            from bobing.names import set_options

            set_options(self.index, overrides)
        self._derive()

    def get(self, name):
        """The value name of an option given by name (host tools)."""
        values = self.values()
        if name not in values:
            raise ValueError("unknown rule option '%s'" % name)
        return values[name]

    def values(self):
        """{option: value} for every option, by name."""
        from bobing.names import rule_values

        return rule_values(self.index)

    def overrides(self):
        """{option: value} of the options that differ from the preset, by name."""
        base = Rules(self.preset).values()
        return {name: value for name, value in self.values().items() if base[name] != value}

    def _derive(self):
        v = self.index
        for i in range(OPTION_COUNT):
            if v[i] >= _VALUE_COUNTS[i]:
                raise ValueError("bad rules record")
        grab = v[LIUBO_HEI] == _LIUBO_HEI_GRAB and v[LIUBO_ENDINGS] == LIUBO_ENDINGS_ON
        flags = 0 if grab else F_LIUBO_HEI_ZY
        if v[_CHAJINHUA_RANK] == _CHAJINHUA_RANK_SECOND:
            flags |= F_CHAJINHUA_SECOND
        if v[_BIANDIJIN] == _BIANDIJIN_SEPARATE:
            flags |= F_BIANDIJIN_SEPARATE
        if v[_WUZI_ORDER] == _WUZI_ORDER_FACE_KICKER:
            flags |= F_WUZI_FACE_FIRST
        if v[_WUZI_YIXIU] == _WUZI_YIXIU_YES:
            flags |= F_WUZI_YIXIU
        if v[_SIJIN_COMBO] == _SIJIN_COMBO_YES:
            flags |= F_SIJIN_COMBO
        if v[_DUITANG] == _DUITANG_ALSO_PAIRS:
            flags |= F_DUITANG_PAIRS
        elif v[_DUITANG] == _DUITANG_ALSO_TRIPLES:
            flags |= F_DUITANG_TRIPLES
        self.flags = flags

    def encode(self):
        """The preset and every option's value number, one byte each."""
        return bytes([self.preset_id]) + self.index

    @classmethod
    def decode(cls, data):
        """Inverse of encode(); ValueError if the bytes name no valid rule set."""
        if len(data) != OPTION_COUNT + 1 or data[0] >= len(PRESETS):
            raise ValueError("bad rules record")
        rules = cls(PRESETS[data[0]])
        rules.index[:] = data[1:]
        rules._derive()
        return rules
