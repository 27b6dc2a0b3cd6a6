"""Classify six dice into a Bobing award, and rank 状元-class throws.

classify() returns one small int (no heap allocation on MicroPython):

    bits 0-3   kind (KIND_* below)
    bits 4-9   tiers won by the throw itself (bit per TIER_*)
    bits 10+   rank: 0 unless 状元-class; a larger rank is a better 状元

The rank is class << 8 | primary << 4 | secondary, so comparing two ranks as
ints orders them under the rules the flags came from; equal ranks are equal
throws (the earlier one wins).  Use unpack helpers to read the fields.
"""

from micropython import const

# Bits of Rules.flags: the rule options the classifier reads on every throw.
# Defined here only; bobing.rules sets them from the option values.
F_CHAJINHUA_SECOND = const(1)
F_LIUBO_HEI_ZY = const(2)  # 六勃黑 is a 状元-class throw (not a grab)
F_BIANDIJIN_SEPARATE = const(4)
F_WUZI_FACE_FIRST = const(8)
F_WUZI_YIXIU = const(16)
F_SIJIN_COMBO = const(32)
F_DUITANG_PAIRS = const(64)
F_DUITANG_TRIPLES = const(128)

KIND_NONE = const(0)
KIND_YIXIU = const(1)
KIND_ERJU = const(2)
KIND_SIJIN = const(3)
KIND_SANHONG = const(4)
KIND_DUITANG = const(5)
KIND_SIHONG = const(6)
KIND_WUZI = const(7)
KIND_WUHONG = const(8)
KIND_CHAJINHUA = const(9)
KIND_LIUBO_HEI = const(10)
KIND_BIANDIJIN = const(11)
KIND_LIUBO_HONG = const(12)


# Prize tiers, lowest first; a tier's bit in the tiers field is 1 << tier.
TIER_YIXIU = const(0)
TIER_ERJU = const(1)
TIER_SIJIN = const(2)
TIER_SANHONG = const(3)
TIER_DUITANG = const(4)
TIER_ZHUANGYUAN = const(5)

# 状元 classes (bits 8+ of the rank).
_C_SIHONG = const(1)
_C_WUZI = const(2)
_C_WUHONG = const(3)
_C_CHAJINHUA = const(4)
_C_LIUBO_HEI = const(5)
_C_BIANDIJIN = const(6)
_C_CHAJINHUA_SECOND = const(7)
_C_LIUBO_HONG = const(8)

_B_YIXIU = const(1)
_B_ERJU = const(2)
_B_SIJIN = const(4)
_B_SANHONG = const(8)
_B_DUITANG = const(16)
_B_ZY = const(32)

# Each die adds its face to the low 6 bits and 1 to its face's octal digit
# above them, so one sum yields the dice total and all six face counts.
_DIE = (0, 1 << 6 | 1, 8 << 6 | 2, 64 << 6 | 3, 512 << 6 | 4, 4096 << 6 | 5, 32768 << 6 | 6)
_STRAIGHT = const(0o111111)
_NON4_HIGH = const(0o440444)  # "count >= 4" bit of every non-4 face


def classify(dice, flags):
    """Award for six dice (a sequence of six ints 1..6) under Rules.flags."""
    d = _DIE
    v = d[dice[0]] + d[dice[1]] + d[dice[2]] + d[dice[3]] + d[dice[4]] + d[dice[5]]
    k = v >> 6  # octal digit f-1 is the count of face f
    total = v & 63
    n4 = (k >> 9) & 7
    high = k & _NON4_HIGH
    if high:
        # Four, five or six of one non-4 face.
        unit = high >> 2  # 8 ** (face - 1)
        count = (k // unit) & 7
        face = 1
        while unit > 1:
            unit >>= 3
            face += 1
        if count == 4:
            if n4 == 0 or not flags & F_SIJIN_COMBO:
                return _B_SIJIN << 4 | KIND_SIJIN
            # 四进带一秀 / 四进带二举: one 4 is the 一秀 bit, two 4s the 二举 bit.
            return (_B_SIJIN | n4) << 4 | KIND_SIJIN
        if count == 6:
            if face == 1 and flags & F_BIANDIJIN_SEPARATE:
                return _C_BIANDIJIN << 18 | _B_ZY << 4 | KIND_BIANDIJIN
            if flags & F_LIUBO_HEI_ZY:
                return _C_LIUBO_HEI << 18 | _B_ZY << 4 | KIND_LIUBO_HEI
            return KIND_LIUBO_HEI  # lights off, everyone grabs: no 状元
        kicker = total - 5 * face
        if flags & F_WUZI_FACE_FIRST:
            rank = _C_WUZI << 8 | face << 4 | kicker
        else:
            rank = _C_WUZI << 8 | kicker
        if kicker == 4 and flags & F_WUZI_YIXIU:
            return rank << 10 | (_B_ZY | _B_YIXIU) << 4 | KIND_WUZI
        return rank << 10 | _B_ZY << 4 | KIND_WUZI
    if n4 >= 4:
        if n4 == 4:
            if total == 18:  # the other two are 1 and 1: 插金花
                if flags & F_CHAJINHUA_SECOND:
                    return _C_CHAJINHUA_SECOND << 18 | _B_ZY << 4 | KIND_CHAJINHUA
                return _C_CHAJINHUA << 18 | _B_ZY << 4 | KIND_CHAJINHUA
            return (_C_SIHONG << 8 | (total - 16)) << 10 | _B_ZY << 4 | KIND_SIHONG
        if n4 == 5:
            return (_C_WUHONG << 8 | (total - 20)) << 10 | _B_ZY << 4 | KIND_WUHONG
        return _C_LIUBO_HONG << 18 | _B_ZY << 4 | KIND_LIUBO_HONG
    if k == _STRAIGHT:
        return _B_DUITANG << 4 | KIND_DUITANG
    if flags & (F_DUITANG_PAIRS | F_DUITANG_TRIPLES) and _alternative_duitang(k, flags):
        return _B_DUITANG << 4 | KIND_DUITANG
    if n4 == 0:
        return KIND_NONE
    if n4 == 1:
        return _B_YIXIU << 4 | KIND_YIXIU
    if n4 == 2:
        return _B_ERJU << 4 | KIND_ERJU
    return _B_SANHONG << 4 | KIND_SANHONG


def _alternative_duitang(k, flags):
    """A 对堂 by table agreement: three pairs (334455) or two triples."""
    if flags & F_DUITANG_PAIRS:
        return not k & 0o555555  # every count is 0 or 2
    # every count is 0 or 3: no count >= 4, and bits 0 and 1 agree per digit
    return not k & 0o444444 and k & 0o111111 == (k >> 1) & 0o111111


def kind_of(result):
    return result & 15


def tiers_of(result):
    """Bit set of TIER_* won: bit t set means one prize of tier t."""
    return (result >> 4) & 63


def rank_of(result):
    """0 unless the throw is 状元-class; higher is better."""
    return result >> 10
