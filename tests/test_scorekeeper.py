"""`bobing play` as the scorekeeper of a real bowl (issue 23): a stray Enter throws
nothing for a real player, `u` takes back any turn (before a --resume too), --resume
finds the game the family means, every hint is a command that works, English is
English, and a throw that wins nothing says why, as the engine decided it."""

import os
import pty
import re
import shlex
import subprocess

import slowdown
from gamehelp import new_game, play
from test_family import BOBING, bobing, columns, one_error_line, replay_json, saved_games

from bobing import game as engine

DRAW = "3 4\n"  # the 答起 of a real bowl, typed: 7, so with 2 players seat 1 starts


def saved_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# --- a stray Enter changes nothing --------------------------------------------------------


def test_a_stray_enter_in_scorekeeper_mode_changes_nothing(tmp_path):
    typed = DRAW + "\n444411\n\n\n\ns\n123456\n\n"
    proc = bobing("play", "--real", "--names", "阿明,小红", stdin=typed, data=tmp_path)
    assert proc.returncode == 0 and "答起：阿明 掷 2 颗骰子 3 4，共 7 点，由 阿明 先掷。" in proc.stdout
    (path,) = saved_games(tmp_path)
    assert replay_json(path)["throws_used"] == 2  # the two typed throws, not one Enter
    assert proc.stdout.count("回车不掷骰）") == 5 and "电脑" not in proc.stdout
    text = saved_text(path)
    assert "dice: real" in text and "draw: 3 4" in text


def test_the_first_typed_throw_makes_it_a_scorekeepers_game_even_after_a_resume(tmp_path):
    first = bobing("play", "--players", "3", "--seed", "5", stdin="\n123456\n\n\n", data=tmp_path)
    assert "从现在起是记分模式" in first.stdout
    (path,) = saved_games(tmp_path)
    assert replay_json(path)["throws_used"] == 2  # the computer's first, then the typed one
    again = bobing("play", "--resume", stdin="\n\n\n", data=tmp_path)
    assert again.returncode == 0 and again.stdout.count("回车不掷骰）") == 3
    assert replay_json(path)["throws_used"] == 2


def test_a_wrong_starter_draw_is_asked_again_and_no_input_starts_nothing(tmp_path):
    proc = bobing(
        "play", "--real", "--lang", "en", "--players", "2", stdin="\n7 1\n444\n2 2\n", data=tmp_path
    )
    assert "7 1: 2 faces 1-6 are needed" in proc.stdout and "444: 2 faces" in proc.stdout
    assert "Starter draw (答起): player 1 throws 2 dice: 2 2 = 4, so player 2 starts." in proc.stdout
    nothing = bobing("play", "--real", "--players", "2", stdin="", data=tmp_path / "none")
    assert nothing.returncode == 0 and "没有开始新的一局" in nothing.stdout
    assert os.listdir(tmp_path / "none" / "bobing" / "games") == []


# --- u takes back any turn ------------------------------------------------------------------


def test_u_takes_back_the_computers_throws_and_those_before_a_resume(tmp_path):
    bobing("play", "--players", "2", "--seed", "2", stdin="\n\nv\n", data=tmp_path)
    (path,) = saved_games(tmp_path)
    assert replay_json(path)["throws_used"] == 3
    again = bobing("play", "--resume", path, stdin="u\nu\nu\nu\n", data=tmp_path)
    assert again.stdout.count("已撤销") == 3 and "号 的 跳猴" in again.stdout
    assert "还没有可撤销的一掷" in again.stdout
    assert replay_json(path)["throws_used"] == 0


def test_u_takes_back_a_typed_throw_that_ended_the_game(tmp_path):
    proc = bobing("play", "--real", "--players", "2", stdin=DRAW + "444444\n\nu\n", data=tmp_path)
    assert "通吃" in proc.stdout and "已撤销 1号 的 444444" in proc.stdout
    (path,) = saved_games(tmp_path)
    assert replay_json(path)["ended"] is False and replay_json(path)["throws_used"] == 0
    game = str(tmp_path / "g.txt")
    bobing("play", "--real", "--players", "2", "--save", game, stdin=DRAW + "444444\n", data=tmp_path)
    assert replay_json(game)["ended"] is True
    back = bobing("play", "--resume", game, stdin="u\nq\ny\n", data=tmp_path)
    assert "这一局已经结束" in back.stdout and "已撤销 1号 的 444444" in back.stdout
    assert replay_json(game)["ended"] is False


# --- --resume finds the game the family means --------------------------------------------


def write_game(folder, name, turns, mtime, names="阿公,阿嬷"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("names: %s\nfirst: 1\n%s" % (names, "".join(t + "\n" for t in turns)), encoding="utf-8")
    os.utime(path, (mtime, mtime))
    return str(path)


def test_resume_takes_the_latest_game_that_has_turns(tmp_path):
    games = tmp_path / "bobing" / "games"
    yesterday = write_game(games, "a.txt", ["123456", "222333"], 1_000_000)
    write_game(games, "b.txt", [], 2_000_000)  # abandoned at once, and newer
    write_game(games, "c.txt", ["444444"], 3_000_000)  # over
    proc = bobing("play", "--resume", stdin="", data=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("继续 %s 里的这一局（已进行 2 次）" % yesterday)


def test_several_unfinished_games_are_listed_and_the_player_picks_one(tmp_path):
    games = tmp_path / "bobing" / "games"
    older = write_game(games, "a.txt", ["123456"], 1_000_000, names="阿公,阿嬷")
    newer = write_game(games, "b.txt", ["v", "222333"], 2_000_000, names="Ann,Bo")
    no_terminal = bobing("play", "--resume", stdin="1\n", data=tmp_path)
    one_error_line(no_terminal, 2, "2 unfinished games in %s" % games)
    assert no_terminal.stderr.rstrip().endswith(" play --resume " + newer)
    out = at_a_terminal(["play", "--resume"], "x\n2\nq\ny\n", tmp_path)
    assert "有 2 局没有下完" in out and "1. " in out and "Ann,Bo  已进行 2 次  b.txt" in out
    assert "阿公,阿嬷  已进行 1 次  a.txt" in out and "请输入 1-2" in out
    assert "继续 %s 里的这一局（已进行 1 次）" % older in out


def test_resume_takes_the_newest_of_games_abandoned_at_once(tmp_path):
    """No unfinished game has turns yet: --resume opens the one saved last,
    not an older one (file names sorting the other way round)."""
    games = tmp_path / "bobing" / "games"
    write_game(games, "b.txt", [], 1_000_000, names="阿公,阿嬷")
    newest = write_game(games, "a.txt", [], 3_000_000, names="Ann,Bo")
    write_game(games, "c.txt", [], 2_000_000, names="小明,大宝")
    proc = bobing("play", "--resume", stdin="", data=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("继续 %s 里的这一局（已进行 0 次）" % newest)


def test_enter_alone_at_the_list_resumes_the_newest_game(tmp_path):
    """The list puts the game saved last first, and Enter alone takes it."""
    games = tmp_path / "bobing" / "games"
    write_game(games, "b.txt", ["123456"], 1_000_000, names="阿公,阿嬷")
    newest = write_game(games, "a.txt", ["222333", "v"], 3_000_000, names="Ann,Bo")
    write_game(games, "c.txt", ["123456"], 2_000_000, names="小明,大宝")
    out = at_a_terminal(["play", "--resume"], "\nq\ny\n", tmp_path)
    listed = [line for line in out.splitlines() if "已进行" in line and line.endswith(".txt")]
    assert [line.split()[-1] for line in listed] == ["a.txt", "c.txt", "b.txt"]
    assert "继续 %s 里的这一局（已进行 2 次）" % newest in out


def at_a_terminal(args, typed, data):
    """Run bobing with a terminal as stdin (as a person at the keyboard); its stdout."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [BOBING, *args],
        stdin=child,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, XDG_DATA_HOME=str(data)),
    )
    os.close(child)
    os.write(main, typed.encode())
    out, err = proc.communicate(timeout=slowdown.seconds(60))
    os.close(main)
    assert proc.returncode == 0 and not err, err
    return out.decode()


# --- every hint works where the user is ----------------------------------------------------


def test_the_resume_hint_is_a_command_that_works(tmp_path):
    path = str(tmp_path / "a game.txt")
    away = dict(os.environ, PATH="/usr/bin:/bin")  # the program is on no PATH, as after `make play`
    # seeded: one throw in 7,776 (six of a kind) would end the game, and an ended game has no hint
    first = bobing(
        "play", "--players", "2", "--seed", "5", "--save", path, stdin="\n", env=away, data=tmp_path
    )
    assert first.returncode == 0 and "继续本局：" in first.stdout, first.stdout + first.stderr
    hint = first.stdout.split("继续本局：")[1].strip()
    assert hint == "%s play --resume %s" % (shlex.quote(BOBING), shlex.quote(path))
    resumed = subprocess.run(
        hint, shell=True, input="\n", capture_output=True, text=True, env=away, timeout=slowdown.seconds(60)
    )
    assert resumed.returncode == 0 and "已进行 1 次" in resumed.stdout
    assert replay_json(path)["throws_used"] == 2
    on_path = dict(os.environ, PATH=os.path.dirname(BOBING) + os.pathsep + "/usr/bin:/bin")
    there = bobing("play", "--resume", path, stdin="\n", env=on_path, data=tmp_path)
    assert "继续本局：bobing play --resume " in there.stdout
    assert "`bobing play --resume FILE`" in saved_text(path)


# --- English everywhere ----------------------------------------------------------------------

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def test_english_is_english_everywhere_with_the_chinese_after_it(tmp_path):
    typed = "\n" * 40 + "s\n" + "\n" * 3000
    proc = bobing("play", "--lang", "en", "--names", "Ann,Bo,Cy", "--seed", "6", stdin=typed, data=tmp_path)
    assert proc.returncode == 0 and "game over" in proc.stdout
    assert "left: Champion 1 Runner-up 2 Three Reds 4 Jinshi 8 Graduate 16 Scholar 32" in proc.stdout
    assert "player Champion Runner-up Three Reds Jinshi Graduate Scholar" in proc.stdout
    for line in proc.stdout.splitlines():
        english = re.sub(r"\([^()]*\)", "", line)  # the Chinese after the English, in brackets
        assert not CJK.search(english), line


# --- a throw that wins nothing says why -------------------------------------------------------


def test_the_engine_says_how_a_throw_stood_in_the_zhuangyuan_contest():
    lugu, tie, below = engine.STAND_LUGU, engine.STAND_TIE, engine.STAND_BELOW
    game = play(new_game(2), "444413", "444466")  # seat 0: 四红, 4; seat 1: 四红, 12, higher
    assert game.top == 1 and game.stand not in (tie, below, engine.STAND_KEPT)  # on top, no 禄骨
    play(game, "235566", "444431")  # seat 1: 四红, 4, equal to seat 0's earlier one, and lower than its own
    assert game.top == 0 and game.stand == tie | lugu
    play(game, "123456", "444412")  # seat 1 again: 四红, 3
    assert game.stand == below | lugu
    play(game, "444441", "123456")  # seat 0: 五红; seat 1: no 状元-class throw
    assert game.top == 0 and game.stand == 0
    kept = play(new_game(2, "competition"), "222222", "123456", "444412")  # 六勃黑 cannot be replaced
    assert kept.stand == engine.STAND_KEPT


def test_a_throw_that_wins_nothing_says_why(tmp_path):
    names = ("--real", "--names", "阿明,小红")
    typed = DRAW + "444411\n444411\n123456\n"  # an equal 插金花, later; a straight with none left
    equal = bobing("play", *names, stdin=typed, data=tmp_path).stdout
    assert "  状元仍归 阿明：相同的状元插金花，先掷者为准" in equal and "对堂已经博完，这一项没有奖" in equal
    lugu = bobing("play", *names, stdin=DRAW + "444441\n444466\n123235\n444412\n", data=tmp_path).stdout
    assert "  禄骨：小红 新掷的状元替掉了原来的状元\n  状元仍归 阿明：五红更大" in lugu
    en = bobing("play", *names, "--lang", "en", stdin=typed, data=tmp_path).stdout
    assert (
        "  阿明 stays the Champion: an equal Champion with golden flowers (状元插金花), thrown earlier" in en
    )
    kept = bobing(
        "play", *names, "--rules", "competition", stdin=DRAW + "222222\n123456\n444412\n", data=tmp_path
    )
    assert "  阿明 的六勃黑不会被替掉，这一掷不算状元" in kept.stdout


def test_the_scorekeepers_lines_fit_80_columns(tmp_path):
    for lang in ("zh", "en"):
        proc = bobing(
            "play", "--real", "--lang", lang, "--players", "2", stdin="1 1\n\n123456\n", data=tmp_path
        )
        for line in proc.stdout.splitlines():
            if str(tmp_path) not in line:  # a saved game's path is as long as it is
                assert columns(line.split(" > ")[0]) < 80, line
