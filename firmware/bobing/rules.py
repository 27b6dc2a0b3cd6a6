"""Rule options and named presets.

Where the source texts disagree, each reading is an option value; a preset
names one value per option.  docs/rules.md quotes the source of every value.
The same module runs on the ESP32 (MicroPython) and on the desktop (CPython).

The tables are plain text, parsed when a rule set is built: a handful of
strings costs a microcontroller far less heap than nested tuples.
"""

# One option a line: its name, then its values.  Append new options at the
# end only: encoded rule sets in logs refer to options by position.
_OPTIONS = """\
chajinhua_rank third second
liubo_hei end_shared continue grab
biandijin liubo_hei separate
wuzi_order kicker face_kicker
wuzi_yixiu no yes
sijin_combo yes no
duitang straight also_pairs also_triples
liubo_hong unclaimed everything all_but_chajinhua
chajinhua_duitang at_once at_end
chase off previous nearest_back
chase_from duitang sanhong all
rounds any equal
void skip no_skip
liubo_endings on off"""

# One preset a line: its name, then one value per option in the order above.
# Every preset names every value, so adding an option forces a decision.
#   xiamen: seeds 004 and 003's folk rules, what most tables play (default).
#   folk: seed 000 part 1 and seed 001: 插金花 second only to 六勃红, lights off on 六勃黑.
#   competition: seed 003, 厦门中秋博饼大赛规则 (match play).
_PRESETS = """\
xiamen third end_shared liubo_hei kicker no yes straight unclaimed at_once off duitang any skip on
folk second grab liubo_hei face_kicker no yes straight everything at_once off duitang any skip on
competition third continue liubo_hei kicker no yes straight unclaimed at_once off duitang equal no_skip on"""

DEFAULT_PRESET = "xiamen"


def _table(text):
    return [(words[0], tuple(words[1:])) for words in (line.split() for line in text.split("\n"))]


def options():
    """[(name, (value, ...)), ...] in encoding order."""
    return _table(_OPTIONS)


def presets():
    """[(preset name, (value per option, ...)), ...], the default first."""
    return _table(_PRESETS)


# The classifier's flag bits (classify._F_*), each set by one option value;
# _F_LIUBO_HEI_ZY (2) is set unless 六勃黑 is a grab (and the 六勃 endings are played).
_FLAGS = """\
1 chajinhua_rank second
4 biandijin separate
8 wuzi_order face_kicker
16 wuzi_yixiu yes
32 sijin_combo yes
64 duitang also_pairs
128 duitang also_triples"""
_F_LIUBO_HEI_ZY = 2


class Rules:
    """One complete rule set: a preset plus any overridden options.

    Values are kept as indices into options(), so a rule set encodes in a few
    bytes for logs and snapshots (encode/decode), and `flags` holds what the
    classifier needs as one int.
    """

    def __init__(self, preset=DEFAULT_PRESET, overrides=None):
        names = [name for name, _ in presets()]
        if preset not in names:
            raise ValueError("unknown preset '%s' (choose from %s)" % (preset, ", ".join(names)))
        self.preset = preset
        self.preset_id = names.index(preset)
        base = presets()[self.preset_id][1]
        opts = options()
        self.index = [opts[i][1].index(base[i]) for i in range(len(opts))]
        overrides = overrides or {}
        for name in overrides:
            i = self._option(name)
            allowed = opts[i][1]
            if overrides[name] not in allowed:
                raise ValueError(
                    "rule option %s has no value '%s' (choose from %s)"
                    % (name, overrides[name], ", ".join(allowed))
                )
            self.index[i] = allowed.index(overrides[name])
        self._derive()

    @staticmethod
    def _option(name):
        opts = options()
        for i in range(len(opts)):
            if opts[i][0] == name:
                return i
        raise ValueError("unknown rule option '%s'" % name)

    def get(self, name):
        i = self._option(name)
        return options()[i][1][self.index[i]]

    def values(self):
        """{option: value} for every option."""
        opts = options()
        return {opts[i][0]: opts[i][1][self.index[i]] for i in range(len(opts))}

    def overrides(self):
        """{option: value} of the options that differ from the preset."""
        base = presets()[self.preset_id][1]
        opts = options()
        out = {}
        for i in range(len(opts)):
            if opts[i][1][self.index[i]] != base[i]:
                out[opts[i][0]] = opts[i][1][self.index[i]]
        return out

    def _derive(self):
        values = self.values()
        grab = values["liubo_hei"] == "grab" and values["liubo_endings"] == "on"
        flags = 0 if grab else _F_LIUBO_HEI_ZY
        for bit, (option, value) in _table(_FLAGS):
            if values[option] == value:
                flags |= int(bit)
        self.flags = flags

    def encode(self):
        """The preset and every option's index, one byte each."""
        return bytes([self.preset_id] + self.index)

    @classmethod
    def decode(cls, data):
        """Inverse of encode(); ValueError if the bytes name no valid rule set."""
        opts = options()
        if len(data) != len(opts) + 1 or data[0] >= len(presets()):
            raise ValueError("bad rules record")
        rules = cls(presets()[data[0]][0])
        for i in range(len(opts)):
            if data[i + 1] >= len(opts[i][1]):
                raise ValueError("bad rules record")
            rules.index[i] = data[i + 1]
        rules._derive()
        return rules
