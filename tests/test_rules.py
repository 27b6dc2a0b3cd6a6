"""Presets and options: every preset is complete and valid, and rule sets round-trip."""

import pytest

from bobing.rules import Rules, options, presets

OPTIONS = options()
PRESET_ORDER = [name for name, _ in presets()]
PRESETS = dict(presets())


def test_every_preset_names_a_valid_value_for_every_option():
    assert set(PRESETS) == set(PRESET_ORDER)
    for preset in PRESET_ORDER:
        values = PRESETS[preset]
        assert len(values) == len(OPTIONS), preset
        for (name, allowed), value in zip(OPTIONS, values, strict=True):
            assert value in allowed, (preset, name, value)


def test_every_option_value_is_used_or_reachable():
    for i, (name, allowed) in enumerate(OPTIONS):
        for value in allowed:
            assert Rules("xiamen", {name: value}).get(name) == value
        assert PRESETS["xiamen"][i] in allowed


def test_presets_differ_where_the_sources_do():
    assert Rules("xiamen").overrides() == {}
    folk, comp = Rules("folk"), Rules("competition")
    assert folk.get("chajinhua_rank") == "second" and folk.get("liubo_hei") == "grab"
    assert comp.get("liubo_hei") == "continue" and comp.get("rounds") == "equal"


@pytest.mark.parametrize("preset", PRESET_ORDER)
def test_encode_decode_round_trip(preset):
    rules = Rules(preset, {"chase": "previous", "duitang": "also_pairs"})
    again = Rules.decode(rules.encode())
    assert again.encode() == rules.encode() and again.flags == rules.flags


@pytest.mark.parametrize(
    "data", [b"", b"\x07" + bytes(len(OPTIONS)), b"\x00" + b"\x09" * len(OPTIONS), b"\x00"]
)
def test_decode_rejects_damaged_records(data):
    with pytest.raises(ValueError):
        Rules.decode(data)


def test_bad_names_are_clear_errors():
    with pytest.raises(ValueError, match="unknown rule option 'nope'"):
        Rules("xiamen", {"nope": "x"})
    with pytest.raises(ValueError, match="choose from kicker, face_kicker"):
        Rules("xiamen", {"wuzi_order": "loud"})


def test_option_constants_are_the_positions_of_the_names():
    # The engine compares ints; the names are for the host: both must agree,
    # NAME for an option's position and NAME_VALUE for a value's number (private,
    # _NAME, where the engine does not read it).
    from bobing import rules

    def constant(name):
        name = name.upper()
        return getattr(rules, name) if hasattr(rules, name) else getattr(rules, "_" + name)

    for i, (name, allowed) in enumerate(OPTIONS):
        assert constant(name) == i, name
        for j, value in enumerate(allowed):
            assert constant(name + "_" + value) == j, (name, value)
    assert rules.OPTION_COUNT == len(OPTIONS)


@pytest.mark.parametrize(
    ("option", "value", "flag"),
    [
        ("chajinhua_rank", "second", "F_CHAJINHUA_SECOND"),
        ("biandijin", "separate", "F_BIANDIJIN_SEPARATE"),
        ("wuzi_order", "face_kicker", "F_WUZI_FACE_FIRST"),
        ("wuzi_yixiu", "yes", "F_WUZI_YIXIU"),
        ("duitang", "also_pairs", "F_DUITANG_PAIRS"),
        ("duitang", "also_triples", "F_DUITANG_TRIPLES"),
    ],
)
def test_each_option_value_sets_its_classifier_flag(option, value, flag):
    from bobing import classify

    base = Rules("xiamen").flags
    assert Rules("xiamen", {option: value}).flags == base | getattr(classify, flag)


def test_sijin_combo_and_liubo_hei_grab_clear_their_flags():
    from bobing.classify import F_LIUBO_HEI_ZY, F_SIJIN_COMBO

    assert Rules("xiamen").flags & F_SIJIN_COMBO
    assert not Rules("xiamen", {"sijin_combo": "no"}).flags & F_SIJIN_COMBO
    assert not Rules("folk").flags & F_LIUBO_HEI_ZY  # lights off: 六勃黑 is a grab
    assert Rules("folk", {"liubo_endings": "off"}).flags & F_LIUBO_HEI_ZY


def test_an_unknown_value_number_is_refused_not_read_as_another_rule():
    rules = Rules("xiamen")
    for i, (_, allowed) in enumerate(OPTIONS):
        data = bytearray(rules.encode())
        data[i + 1] = len(allowed)
        with pytest.raises(ValueError):
            Rules.decode(bytes(data))
