"""The piezo's announcement per award tier (app/sounds.py, board/sound.py), under MicroPython."""

from mp import run_micropython


def test_bigger_awards_sound_longer_and_higher():
    code = """
from app.sounds import for_award
def length(p):
    return sum(p[i + 1] * 10 for i in range(0, len(p), 2))
def top(p):
    return max(p[i] * 20 for i in range(0, len(p), 2))
for tier in range(-1, 6):
    award = 0 if tier < 0 else (1 << tier) << 4
    p = for_award(award)
    print(length(p), top(p))
"""
    rows = [tuple(map(int, line.split())) for line in run_micropython(code).splitlines()]
    lengths = [r[0] for r in rows]
    tops = [r[1] for r in rows]
    assert lengths == sorted(lengths) and len(set(lengths)) == len(lengths)
    assert tops[-1] == max(tops) and tops[0] == min(tops)
    assert lengths[-1] <= 1500  # the 状元 fanfare is over before the next press is taken


def test_a_new_pattern_replaces_the_one_playing_and_mute_silences():
    code = """
import asyncio
from board.base import Clock
from board.sound import Sound
played = []
s = Sound(lambda hz, v: played.append(hz), Clock())
async def main():
    asyncio.create_task(s.run())  # as bowl.py runs it
    s.play(b"\\x32\\x64\\x40\\x64")   # 1000 Hz then 1280 Hz, 1 s each
    await asyncio.sleep_ms(50)
    s.play(b"\\x14\\x02")             # replaces it at once
    await asyncio.sleep_ms(100)
    s.muted = True
    s.play(b"\\x50\\x02")
    await asyncio.sleep_ms(50)
asyncio.run(main())
print(" ".join(str(hz) for hz in played))
"""
    assert run_micropython(code).split() == ["1000", "0", "400", "0"]
