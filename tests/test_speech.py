"""What the bowl says (firmware/app/speech.py), run under MicroPython and read
back here as the phrases a listener hears (the clips' Chinese, or English)."""

import os
import sys

from app import speech
from display.texts import TEXTS
from mp import run_micropython

from bobing.names import KIND_NAMES, TIER_NAMES
from host_tools.phrases import LANGUAGES, phrases, spoken

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")
sys.path.insert(0, MPLIB)

import speech_decode  # noqa: E402

# Room for compiling the engine from source on the 64-bit port; speech's own
# memory is the DFPlayer tests' (nothing allocated per clip) and the bench's.
HEAP = 400_000

# Prints each announcement's clips, one line each.
SAY = """
from app import speech
from app.speech import Announcement
from bobing.game import Game
from bobing.rules import Rules
from display import texts as tx
said = Announcement(%d)
def show():
    print(" ".join(str(c) for c in said.clips[:said.count]))
"""


def heard(code, language=speech.MANDARIN, column=0):
    """Run SAY + code under MicroPython; each printed announcement as text:
    its clips' Chinese (column 0) or spoken English (column 2), space-separated."""
    table = phrases()
    if column == 2:
        table = {clip: (None, None, spoken(words, speech.ENGLISH)) for clip, words in table.items()}
    lines = run_micropython(SAY % language + code, heapsize=HEAP).splitlines()
    return [" ".join(table[int(c)][column] for c in line.split()) for line in lines]


def test_a_throw_is_said_award_first_then_the_dice_then_what_changed_then_whose_turn_and_the_holder():
    said = heard(
        """
game = Game(Rules("xiamen"), 4)
batch = game.throw([4, 1, 2, 3, 5, 5])
speech.throw(said, batch, game)
show()
batch = game.throw([2, 2, 2, 2, 4, 1])
speech.throw(said, batch, game)
show()
"""
    )
    assert said == [
        "一秀 红四 一 二 三 五 五 获得 一秀 轮到 玩家 二 暂无状元",
        "四进 带一秀 二 二 二 二 红四 一 获得 四进 获得 一秀 轮到 玩家 三 暂无状元",
    ]


def test_a_new_zhuangyuan_an_empty_tier_and_the_end_are_said():
    said = heard(
        """
game = Game(Rules("xiamen"), 2)
for n in range(32):
    batch = game.throw([4, 1, 2, 3, 5, 5])
speech.throw(said, batch, game)
show()
batch = game.throw([4, 1, 2, 3, 5, 5])
speech.throw(said, batch, game)
show()
batch = game.throw([4, 4, 4, 4, 2, 3])
speech.throw(said, batch, game)
show()
batch = game.throw([4, 4, 4, 4, 4, 4])
speech.throw(said, batch, game)
show()
""",
        speech.ENGLISH,
        2,
    )
    assert (
        said[0]
        == "one red: Scholar red four one two three five five Wins Scholar Scholar all taken Turn Player one "
        "No Champion yet"
    )
    assert (
        said[1]
        == "one red: Scholar red four one two three five five No prize Scholar all taken Turn Player two "
        "No Champion yet"
    )
    assert (
        said[2]
        == "four reds: Champion red four red four red four red four two three New Champion Player two Turn Player one "
        "Champion held by Player two"
    )
    assert said[3].startswith(
        "six reds: the Emperor red four red four red four red four red four red four New Champion Player one Wins "
    )
    assert said[3].endswith("Game over Six reds take everything")


def test_every_screen_that_matters_has_a_spoken_form():
    said = heard(
        """
said.clear()  # a stop: App.unsaid(), then App.tell(text, detail)
said.text(tx.T_OUT_OF_SERVICE)
said.text(tx.T_RNG_FAILED)
show()
said.clear()
said.text(tx.T_FLASH_FULL)
said.text(tx.T_SYNC_NEEDED)
show()
game = Game(Rules("xiamen"), 3, draw=(2, 6), draw_seat=0, first_seat=1)
speech.game_start(said, game)
show()
game.throw([1, 2, 3, 5, 6, 6])
speech.resumed(said, game, game.throw([4, 4, 2, 3, 5, 6]))
show()
game.turn = 19
speech.turn(said, game)
show()
game = Game(Rules("xiamen"), 2)
game.throw([4, 4, 4, 4, 4, 4])
speech.game_end(said, game)
show()
speech.resumed(said, game, None)
show()
"""
    )
    assert said == [
        "暂停服务 随机数检测失败",
        "存储已满 请同步记录",
        "新游戏 玩家人数 三 答起 玩家 一 二 六 合计 八 轮到 玩家 二 暂无状元",
        "断电后已恢复 二举 红四 红四 二 三 五 六 获得 二举 轮到 玩家 一 暂无状元",
        "轮到 玩家 二十 暂无状元",
        "游戏结束 六勃红 通吃 状元在 玩家 一 六勃红 红四 红四 红四 红四 红四 红四 "
        "玩家 一 状元 对堂 二 三红 四 四进 八 二举 十六 一秀 三十 二 玩家 二 无奖 状元在 玩家 一",
        "断电后已恢复 游戏结束 六勃红 通吃 状元在 玩家 一 六勃红 红四 红四 红四 红四 红四 红四 "
        "玩家 一 状元 对堂 二 三红 四 四进 八 二举 十六 一秀 三十 二 玩家 二 无奖 状元在 玩家 一",
    ]


def test_numbers_read_back_and_sound_like_numbers():
    """Counts up to 8 sets of 32 一秀 and seats up to 20: each is heard as itself."""
    lines = run_micropython(
        SAY % 1
        + """
for language in (1, 2, 3):
    said.language = language
    for n in range(1000):
        said.clear()
        said.number(n)
        show()
""",
        heapsize=HEAP,
    ).splitlines()
    for i, line in enumerate(lines):
        clips = [int(c) for c in line.split()]
        assert speech_decode.parse(clips) == [("number", i % 1000)], line
    table = phrases()

    def words(line, column):
        return "".join(table[int(c)][column] for c in line.split())

    mandarin = lines[:1000]
    english = lines[2000:]
    assert [words(mandarin[n], 0) for n in (7, 20, 25, 100, 105, 112, 256, 999)] == [
        "七",
        "二十",
        "二十五",
        "一百",
        "一百零五",
        "一百一十二",
        "二百五十六",
        "九百九十九",
    ]
    assert [" ".join(table[int(c)][2] for c in english[n].split()) for n in (13, 40, 105, 112, 256)] == [
        "thirteen",
        "forty",
        "one hundred and five",
        "one hundred twelve",
        "two hundred fifty six",
    ]


def test_every_phrase_the_firmware_can_say_has_a_clip_in_every_language():
    """Every clip any announcement of many whole games (every preset, 2..20 players,
    1..8 sets) and every message uses is a phrase with words in every language."""
    out = run_micropython(
        SAY % 1
        + """
from bobing.dice import Dice, SeededBytes
from bobing.rules import PRESETS
used = bytearray(256)
def note():
    for c in said.clips[:said.count]:
        used[c] = 1
for text in range(len(tx.TEXTS)):
    said.clear()
    said.text(text)
    note()
for n in range(257):
    said.clear()
    said.number(n)
    note()
for seed in range(24):
    players = 2 + seed * 7 % 19
    game = Game(Rules(PRESETS[seed % len(PRESETS)]), players, 1 + seed % 8, draw=(), first_seat=0)
    dice = Dice(SeededBytes(seed))
    speech.game_start(said, game)
    note()
    special = ("444444", "222222", "111111", "444411", "222241", "555554", "123456", "444412")
    n = 0
    while not game.ended:
        n += 1
        if n % 13 == 0:
            batch = game.void()
        elif n % 23 == 0:
            batch = game.throw([int(c) for c in special[n // 23 % len(special)]])
        else:
            batch = game.throw(dice.roll())
        speech.throw(said, batch, game)
        note()
    speech.game_end(said, game)
    note()
print(" ".join(str(c) for c in range(256) if used[c]))
""",
        heapsize=1_000_000,
    )
    used = [int(c) for c in out.split()]
    table = phrases()
    assert set(used) <= set(table)
    # the clips no game here reached are the rare awards' and suffixes', still in the table
    for clip in table:
        for folder in LANGUAGES:
            assert spoken(table[clip], folder).strip(), (clip, folder)
    assert len(used) > 100


def test_the_clip_numbers_are_systematic_and_never_overlap():
    """texts.py numbers + 1, names at their offsets, the rest in PHRASES: one
    table, so the firmware and any card ever made agree."""
    table = phrases()
    extra = speech.PHRASES.split("\n")
    assert len(table) == len(TEXTS) + len(KIND_NAMES) + len(TIER_NAMES) + len(extra)
    assert len(TEXTS) <= speech.TEXT_ROOM
    for number, text in enumerate(TEXTS):
        assert table[speech.CLIP_TEXT + number] == text
    for kind, names in enumerate(KIND_NAMES):
        assert table[speech.CLIP_KIND + kind] == names
    for tier, names in enumerate(TIER_NAMES):
        assert table[speech.CLIP_TIER + tier] == names
    assert speech.CLIP_KIND >= speech.CLIP_TEXT + speech.TEXT_ROOM
    assert speech.CLIP_KIND + len(KIND_NAMES) <= speech.CLIP_TIER
    assert max(table) == speech.LAST_CLIP <= 255 and min(table) >= 1
    assert table[speech.CLIP_FACE + 3][2] == "red four"
    assert table[speech.CLIP_TENS + 9][0] == "九十"


def test_the_menus_milliseconds_read_back_as_numbers():
    """Up to 5000 ms (the long press): 一千五百, 二千零三十, one thousand and twelve."""
    samples = (1000, 1005, 1010, 1012, 1050, 1500, 2030, 5000, 9999)
    lines = run_micropython(
        SAY % 1
        + """
for language in (1, 3):
    said.language = language
    for n in %r:
        said.clear()
        said.number(n)
        show()
"""
        % (samples,),
        heapsize=HEAP,
    ).splitlines()
    for line, n in zip(lines, samples + samples, strict=True):
        assert speech_decode.parse([int(c) for c in line.split()]) == [("number", n)], line
    table = phrases()
    mandarin = ["".join(table[int(c)][0] for c in line.split()) for line in lines[: len(samples)]]
    assert mandarin[3] == "一千零一十二" and mandarin[5] == "一千五百" and mandarin[6] == "二千零三十"
    english = " ".join(table[int(c)][2] for c in lines[len(samples) + 3].split())
    assert english == "one thousand and twelve"


def test_a_new_zhuangyuan_after_lugu_says_why():
    said = heard(
        """
game = Game(Rules("xiamen"), 3)
game.throw([4, 4, 4, 4, 5, 6])  # player 1: 状元, 5 + 6
game.throw([4, 4, 4, 4, 3, 3])  # player 2: 状元, 3 + 3
game.throw([1, 2, 3, 5, 6, 6])
batch = game.throw([4, 4, 4, 4, 1, 2])  # player 1 again, 1 + 2: replaces their own, below player 2's
speech.throw(said, batch, game)
show()
speech.standings(said, game)
show()
"""
    )
    assert said[0] == (
        "状元 红四 红四 红四 红四 一 二 禄骨 以新替旧 新状元 玩家 二 轮到 玩家 二 状元在 玩家 二"
    )
    # the standings: the holder, the pool (状元 before its hand-over), each player's prizes
    assert said[1] == (
        "玩家奖品 状元在 玩家 二 剩余奖品 状元 对堂 二 三红 四 四进 八 二举 十六 一秀 三十 二 "
        "玩家 一 无奖 玩家 二 无奖 玩家 三 无奖"
    )
