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


def test_flag_table_matches_the_classifier_constants():
    from bobing import classify, rules

    assert rules._F_LIUBO_HEI_ZY == classify._F_LIUBO_HEI_ZY
    names = {
        "chajinhua_rank second": classify._F_CHAJINHUA_SECOND,
        "biandijin separate": classify._F_BIANDIJIN_SEPARATE,
        "wuzi_order face_kicker": classify._F_WUZI_FACE_FIRST,
        "wuzi_yixiu yes": classify._F_WUZI_YIXIU,
        "sijin_combo yes": classify._F_SIJIN_COMBO,
        "duitang also_pairs": classify._F_DUITANG_PAIRS,
        "duitang also_triples": classify._F_DUITANG_TRIPLES,
    }
    table = {" ".join(words): int(bit) for bit, words in rules._table(rules._FLAGS)}
    assert table == names
