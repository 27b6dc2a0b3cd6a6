"""The rule package under the real MicroPython unix port gives the very same answers."""

import hashlib
from itertools import product

import pytest
from mp import run_micropython

from bobing.classify import classify
from bobing.rules import Rules, presets

VARIANTS = [(p, {}) for p in [name for name, _ in presets()]] + [
    ("xiamen", {"duitang": "also_pairs", "wuzi_yixiu": "yes", "biandijin": "separate"}),
    ("xiamen", {"duitang": "also_triples", "sijin_combo": "no", "chajinhua_rank": "second"}),
]

# Every throw's packed result, as 3 little-endian bytes, hashed: identical
# digests mean identical kind, tiers and rank for all 46,656 throws.
MP_DIGEST = """
import hashlib
from bobing.classify import classify
from bobing.rules import Rules
flags = Rules(%r, %r).flags
h = hashlib.sha256()
buf = bytearray(3)
d = [1] * 6
for a in range(1, 7):
    d[0] = a
    for b in range(1, 7):
        d[1] = b
        for c in range(1, 7):
            d[2] = c
            for e in range(1, 7):
                d[3] = e
                for f in range(1, 7):
                    d[4] = f
                    for g in range(1, 7):
                        d[5] = g
                        r = classify(d, flags)
                        buf[0] = r & 255; buf[1] = (r >> 8) & 255; buf[2] = r >> 16
                        h.update(buf)
print(''.join('%%02x' %% x for x in h.digest()))
"""


def cpython_digest(rules):
    h = hashlib.sha256()
    for d in product(range(1, 7), repeat=6):
        h.update(classify(d, rules.flags).to_bytes(3, "little"))
    return h.hexdigest()


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS)
def test_all_throws_identical_in_micropython(preset, overrides):
    got = run_micropython(MP_DIGEST % (preset, overrides)).strip()
    assert got == cpython_digest(Rules(preset, overrides))


def test_rules_errors_and_encoding_in_micropython():
    out = run_micropython(
        """
from bobing.rules import Rules
r = Rules('competition', {'chase': 'nearest_back'})
print(Rules.decode(r.encode()).encode() == r.encode(), r.get('liubo_hei'), r.overrides())
try:
    Rules('nowhere')
except ValueError as e:
    print(e)
"""
    )
    assert out.splitlines() == [
        "True continue {'chase': 'nearest_back'}",
        "unknown preset 'nowhere' (choose from xiamen, folk, competition)",
    ]
