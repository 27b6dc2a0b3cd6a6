"""The bowl's speech and serial commands through the shipped main.py and App (issue 11, issue 10 item 2).

tests/mplib/speechapp.py runs bowl.run() on the virtual board with a
simulated DFPlayer as board.speaker, presses fed as a listener would (each
once the bowl is ready and silent), and prints the live event lines and
every clip the module started, with its time.  Here a listener who hears
only those clip numbers follows the game; what it reconstructs is compared
with the game's own record (the live events).  Both MicroPython ports.
"""

import json
import os
import sys

import pytest
from display import texts as T
from mp import run_micropython

from bobing.classify import classify
from bobing.names import KINDS
from bobing.rules import Rules
from host_tools.phrases import phrases

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")
sys.path.insert(0, MPLIB)

from speech_decode import Listener  # noqa: E402
from test_speech_game import award_parts  # noqa: E402

HARNESS = os.path.join(MPLIB, "speechapp.py")
SILENCE_MS = 1200  # a pause this long between two clips ends an announcement
ASK = [1 + T.T_VOID_ASK, 1 + T.T_PRESS_AGAIN]  # the void question after a repeat


def bowl(tmp_path, phases, **options):
    """(events per phase, phase records) of the harness run on a fresh flash."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    args = [str(tmp_path / "flash.img")] + ["%s=%s" % kv for kv in options.items()]
    for commands in phases:
        args += ["--", *commands]
    out = run_micropython(HARNESS, heapsize=1_000_000, path=(MPLIB,), script_args=args)
    events, records, current, heard, said = [], [], [], [], []
    for line in out.splitlines():
        obj = json.loads(line)
        if "clip" in obj:
            heard.append(obj["clip"])
            if said:
                said[-1].append(obj["clip"][2])
        elif "say" in obj:
            said.append([])
        elif "phase" in obj:
            obj["heard"] = heard
            obj["said"] = said  # the clips played of each announcement handed to the speaker
            events.append(current)
            records.append(obj)
            current, heard, said = [], [], []
        else:
            current.append(obj)
    return events, records


def announcements(heard):
    """The clips, cut where the speaker fell silent for SILENCE_MS."""
    out = []
    last = None
    for ms, _, clip in heard:
        if last is None or ms - last > SILENCE_MS:
            out.append([])
        out[-1].append(clip)
        last = ms
    return out


@pytest.mark.slow  # a whole game: `make test-quick` has test_sim's
def test_a_whole_game_followed_from_speech_alone_matches_the_games_own_record(tmp_path):
    events, records = bowl(tmp_path, [["to-end"]], players=3, language=3)
    events, record = events[0], records[0]
    assert {folder for _, folder, _ in record["heard"]} == {3}  # English, as set
    said = announcements(record["heard"])
    repeats = [a for a in said if a[-2:] == ASK]
    assert repeats and all(r[:-2] in said for r in repeats)  # the void question follows a repeat
    listener = Listener()
    for clips in said:
        if clips[-2:] != ASK:
            listener.hear(clips)

    game = events[0]
    turns = [e for e in events if e["event"] in ("throw", "void")]
    end = events[-1]
    assert game["event"] == "game" and end["event"] == "end"
    assert listener.players == game["players"] == 3
    rules = Rules(game["rules"])
    # every turn: who threw, the award (with its 带一秀/带二举) and the six dice, in order
    expected = []
    for e in turns:
        if e["event"] == "void":
            expected.append(None)
        else:
            assert KINDS[classify(e["dice"], rules.flags) & 15] == e["kind"]
            expected.append([e["seat"] - 1, *award_parts(classify(e["dice"], rules.flags)), e["dice"]])
    assert [None if t is None else list(t) for t in listener.throws] == expected
    assert None in expected  # the voids were followed too
    # the final prizes: from the throws' announcements and again from the end announcement
    holdings = [
        end["holdings"][str(s + 1)][tier]
        for s in range(3)
        for tier in ("yixiu", "erju", "sijin", "sanhong", "duitang", "zhuangyuan")
    ]
    assert listener.ended and listener.holdings == holdings
    assert listener.end["holdings"] == holdings
    zy = end["zhuangyuan"]
    assert listener.end["zy"][0] == zy["player"] - 1 and listener.end["zy"][3] == zy["dice"]


def test_the_referee_short_press_repeats_the_last_announcement_and_a_second_press_voids(tmp_path):
    # referee, then THROW: the void question is cancelled (and that press throws nothing:
    # it says the standings)
    events, records = bowl(tmp_path, [["throw", "referee", "throw", "throw", "referee", "referee"]])
    kinds = [e["event"] for e in events[0]]
    assert kinds == ["game", "throw", "throw", "void"]
    said = records[0]["said"]
    start, first, repeat, standings, second, ask, voided = said
    assert start[0] == 1 + T.T_NEW_GAME
    assert repeat == first + ASK
    assert standings[0] == 1 + T.T_STANDINGS
    assert ask == second + ASK
    assert voided[0] == 1 + T.T_VOIDED


def test_with_speech_off_the_bowl_says_nothing_and_plays_the_same(tmp_path):
    script = [["throw", "throw", "referee", "throw", "throw", "referee", "referee"]]
    off, off_records = bowl(tmp_path / "off", script, speech=0)
    on, _ = bowl(tmp_path / "on", script)
    assert off_records[0]["heard"] == []
    assert off == on  # the same throws, prizes and turns


def test_a_missing_module_never_slows_the_game(tmp_path):
    """No BUSY, no reply: each announcement is dropped after its first clip
    fails to start, so the game runs as on a bowl without speech."""
    script = [["throw"] * 8 + ["referee", "referee", "throw"]]
    missing, missing_records = bowl(tmp_path / "missing", script, module="missing")
    none, none_records = bowl(tmp_path / "none", script, module="none")
    fitted, fitted_records = bowl(tmp_path / "fitted", script)
    assert missing == none == fitted
    assert missing_records[0]["heard"] == []
    # without the module each announcement costs at most the module's START_MS (0.6 s) more than
    # no speaker at all, the first also its boot time (1.5 s): 12 announcements (a start, 9 turns,
    # a repeat, a void), and most of that under the result's own lock-out
    assert missing_records[0]["ms"] - none_records[0]["ms"] <= 1500 + 12 * 600
    assert fitted_records[0]["ms"] > none_records[0]["ms"] + 11 * 3000  # really spoken: the words take time


def test_a_press_while_a_result_is_spoken_is_ignored_not_queued(tmp_path):
    events, records = bowl(tmp_path, [["throw", "during-speech", "pause:30000"]])
    assert [e["event"] for e in events[0]] == ["game", "throw"]
    events, _ = bowl(tmp_path / "again", [["throw", "during-speech", "throw"]])
    assert [e["event"] for e in events[0]] == ["game", "throw", "throw"]  # taken once the bowl is silent


def test_the_sync_line_leaves_the_loop_with_the_game_intact_and_a_restart_resumes_it(tmp_path):
    # `sync` arrives while the third throw is rolling: the throw is finished first
    events, records = bowl(tmp_path, [["throw", "throw", "throw", "sync"], ["throw"]], kiosk=1)
    first, second = events
    assert [e["event"] for e in first] == ["game", "throw", "throw", "throw", "sync"]
    assert records[0]["outcome"] == "sync"
    assert (
        records[0]["kbd"][0] is False and records[0]["kbd"][-1] is True
    )  # kiosk: Ctrl-C back only for the host
    assert records[0]["released"]  # bowl.run() handed the watchdog over before the REPL
    resumed = second[0]
    assert resumed["event"] == "game" and resumed["resumed"] and resumed["throws"] == 3
    assert resumed["last"] == {"seat": first[3]["seat"], "dice": first[3]["dice"]}
    assert second[1]["event"] == "throw" and second[1]["n"] == 4
    assert records[1]["outcome"] == "done" and records[1]["kbd"] == [False]
    said = announcements(records[1]["heard"])
    assert said[0][0] == 1 + T.T_RESUMED


def test_garbage_on_the_serial_line_is_ignored(tmp_path):
    noise = bytes(range(256))  # Ctrl-C, NUL, CR, LF, bytes that are no UTF-8...
    garbage = [noise[i : i + 64] for i in range(0, 256, 64)]  # (the unix port's argv takes no long argument)
    garbage += [b"x" * 60, b"x" * 60 + b"sync\r\n"]  # a line longer than the buffer, ending in sync
    garbage += [b"SYNC\r\nsync now\r\n sync\tx\r\nsyn\r\n"]
    raw = ["raw:" + g.hex() for g in garbage]
    phases = [["throw", *raw, "throw", "raw:0d0a", "sync"], ["throw"]]
    events, records = bowl(tmp_path, phases)
    assert [e["event"] for e in events[0]] == ["game", "throw", "throw", "sync"]
    assert events[1][0]["resumed"] and events[1][0]["throws"] == 2


OFFERS = (1 + T.T_PRESS_TO_THROW, 1 + T.T_AGAIN, 1 + T.T_STANDINGS, 1 + T.T_NEW_GAME)


@pytest.mark.slow  # a whole game: `make test-quick` has test_sim's
def test_one_switch_plays_a_whole_game_hears_it_again_and_the_standings_and_starts_the_next(tmp_path):
    """Only THROW, pressed as the offer wanted is said: throws, 再一次 (the last
    result again), 玩家奖品 (the standings), the whole game, the standings at
    the end, then 新游戏.  A listener follows all of it from the clips."""
    throw, again, standings, new = (T.T_PRESS_TO_THROW, T.T_AGAIN, T.T_STANDINGS, T.T_NEW_GAME)
    script = ["take:%d" % t for t in (throw, throw, again, standings, throw)]
    script += ["scan-to-end"] + ["take:%d" % t for t in (standings, again, new, throw)]
    events, records = bowl(tmp_path, [script], players=2, scan=4)
    kinds = [e["event"] for e in events[0]]
    assert kinds[:4] == ["game", "throw", "throw", "throw"] and kinds.count("end") == 1
    assert kinds[kinds.index("end") + 1 :] == ["game", "throw"]  # the next game, started alone
    said = records[0]["said"]
    offers = [clips[0] for clips in said if len(clips) == 1 and clips[0] in OFFERS]
    said = [clips for clips in said if not (len(clips) == 1 and clips[0] in OFFERS)]
    # the offers come round in turn: throw, again, standings (new game at the end)
    assert offers[:8] == [1 + t for t in (throw, throw, throw, again, throw, again, standings, throw)]
    assert offers[-8:] == [1 + t for t in (new, again, standings, new, again, new, throw, throw)]
    start, first, second, repeated, table = said[:5]
    assert repeated == second  # 再一次: the last result again, ending with the holder
    assert table[0] == 1 + T.T_STANDINGS
    listener = Listener()
    for clips in said[:3] + said[4:]:  # (the repeat would count its throw twice)
        listener.hear(clips)
    # each standings checked as heard against what the listener followed, the end said
    # again, then the next game and its first throw
    assert len(listener.standings) == 2
    end, table, again_end = said[-5:-2]
    assert end[0] == 1 + T.T_GAME_OVER and table[0] == 1 + T.T_STANDINGS and again_end == end
    assert said[-2][0] == 1 + T.T_NEW_GAME and listener.throws[-1][0] == events[0][-1]["seat"] - 1


def test_the_operator_menu_says_each_item_and_value_as_it_is_reached_and_stepped(tmp_path):
    words = {clip: hanzi for clip, (hanzi, _, _) in phrases().items()}
    script = ["referee-long", "referee", "throw"] + ["referee"] * 9 + ["pause:61000", "referee"]
    _, records = bowl(tmp_path, [script])
    said = [" ".join(words[c] for c in clips) for clips in records[0]["said"]]
    assert said[1:-1] == [
        "菜单 新游戏",
        "玩家人数 四",
        "玩家人数 五",  # stepped: the new value
        "规则 厦门",
        "奖品套数 一",
        "谁先掷 答起",
        "音量 六",
        "静音 关",
        "语言 拼音",
        "确认时间 三十 毫秒",
        "复位时间 一 百 毫秒",
        "长按时间 二 千 毫秒",
    ]
    # said aside: the referee's repeat after the menu still says the game's start
    assert said[0].startswith("新游戏 玩家人数 四") and said[-1] == said[0] + " 跳猴 本轮作废? 再按一次确认"
