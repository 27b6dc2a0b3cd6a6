"""Names of awards, prize tiers and rule options: stable ids, Chinese, pinyin and English.

Kept apart from classify and rules so the engine imports no strings: the bowl
loads this module only for a screen or menu that shows names.
"""

from bobing.classify import (
    KIND_SIJIN,
    KIND_WUZI,
    TIER_ERJU,
    TIER_YIXIU,
    kind_of,
    tiers_of,
)

# Stable ids (JSON, logs, reports), indexed by KIND_* and TIER_*.
KINDS = (
    "none",
    "yixiu",
    "erju",
    "sijin",
    "sanhong",
    "duitang",
    "sihong",
    "wuzi",
    "wuhong",
    "chajinhua",
    "liubo_hei",
    "biandijin",
    "liubo_hong",
)
TIERS = ("yixiu", "erju", "sijin", "sanhong", "duitang", "zhuangyuan")

# Per kind, one a line: 汉字|pinyin|English.  One string (read in place from
# the flash): the bowl takes the row it shows (award_names), the host tools
# the whole table as tuples (KIND_NAMES, below).
KIND_TABLE = """\
罚黑|fá hēi|nothing
一秀|yī xiù|one red: Scholar
二举|èr jǔ|two reds: Graduate
四进|sì jìn|four of a kind: Jinshi
三红|sān hóng|three reds
对堂|duì táng|straight: Runner-up
状元|zhuàng yuán|four reds: Champion
五子登科|wǔ zǐ dēng kē|five of a kind: Champion
五红|wǔ hóng|five reds: Champion
状元插金花|zhuàng yuán chā jīn huā|Champion with golden flowers
六勃黑|liù bó hēi|six blacks
遍地锦|biàn dì jǐn|six ones: brocade everywhere
六勃红|liù bó hóng|six reds: the Emperor"""


def _kind_names(kind):
    """(汉字, pinyin, English) of a KIND_*: its row of KIND_TABLE."""
    start = 0
    for _ in range(kind):
        start = KIND_TABLE.find("\n", start) + 1
    end = KIND_TABLE.find("\n", start)
    return tuple(KIND_TABLE[start : end if end >= 0 else len(KIND_TABLE)].split("|"))


def __getattr__(name):
    # KIND_NAMES, per kind: (汉字, pinyin, English), for the host tools; made
    # when asked for, so the bowl keeps no tuple per kind (docs/memory.md)
    if name == "KIND_NAMES":
        return tuple(_kind_names(kind) for kind in range(len(KINDS)))
    raise AttributeError(name)


# Per tier, lowest first: (汉字, pinyin, English).
TIER_NAMES = (
    ("一秀", "yī xiù", "Scholar"),
    ("二举", "èr jǔ", "Graduate"),
    ("四进", "sì jìn", "Jinshi"),
    ("三红", "sān hóng", "Three Reds"),
    ("对堂", "duì táng", "Runner-up"),
    ("状元", "zhuàng yuán", "Champion"),
)

TIER_MARKS = "秀举进红堂元"  # the last character of each tier's name: an end table's column heads

_WITH_YIXIU = ("带一秀", " dài yī xiù", " with a Scholar")
_WITH_ERJU = ("带二举", " dài èr jǔ", " with a Graduate")


def award_extra(result):
    """What a combined award adds to its kind's name: (汉字, pinyin, English)
    of 带一秀 or 带二举 (pinyin and English with a leading space), or None."""
    kind = kind_of(result)
    if kind == KIND_SIJIN or kind == KIND_WUZI:
        tiers = tiers_of(result)
        if tiers & (1 << TIER_YIXIU):
            return _WITH_YIXIU
        if tiers & (1 << TIER_ERJU):
            return _WITH_ERJU
    return None


def award_names(result):
    """(汉字, pinyin, English) of a classify() result, combined awards included."""
    names = _kind_names(kind_of(result))
    extra = award_extra(result)
    if extra is None:
        return names
    return (names[0] + extra[0], names[1] + extra[1], names[2] + extra[2])


def rank_parts(rank):
    """(class, primary, secondary) of a classify() rank, compared in that order."""
    return (rank >> 8, (rank >> 4) & 15, rank & 15)


# Rule options, one a line: its name, then its values, in the order of the
# int constants of bobing.rules (option position, then value number).
OPTIONS = """\
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


def rule_options():
    """[(option, (value, ...)), ...] in encoding order: bobing.rules.options()."""
    return [(words[0], tuple(words[1:])) for words in (line.split() for line in OPTIONS.split("\n"))]


def rule_presets(presets, preset_values):
    """[(preset, (value per option, ...)), ...] of bobing.rules' PRESETS and
    PRESET_VALUES, passed in (this module never imports rules): bobing.rules.presets()."""
    opts = rule_options()
    return [
        (presets[p], tuple(opts[i][1][preset_values[p][i]] for i in range(len(opts))))
        for p in range(len(presets))
    ]


def rule_values(index):
    """{option: value} of a Rules.index (a value number per option)."""
    return {name: allowed[index[i]] for i, (name, allowed) in enumerate(rule_options())}


def set_options(index, overrides):
    """Write {option: value} names into a Rules.index; ValueError names what is unknown."""
    opts = rule_options()
    names = [name for name, _ in opts]
    for name in overrides:
        if name not in names:
            raise ValueError("unknown rule option '%s'" % name)
        allowed = opts[names.index(name)][1]
        if overrides[name] not in allowed:
            raise ValueError(
                "rule option %s has no value '%s' (choose from %s)"
                % (name, overrides[name], ", ".join(allowed))
            )
        index[names.index(name)] = allowed.index(overrides[name])
