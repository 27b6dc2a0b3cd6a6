"""What a power cut, a hang, a crash, a failing RNG or a full flash does to a game
on the virtual board: nothing recorded is ever lost, the last throw is shown
again, and a bowl that cannot be trusted stops rather than rolling.
"""

import json
import os
import random
import signal
import subprocess
import time

import mp
import pytest
import slowdown
from app.menu import ITEMS
from display import texts as T
from test_sim import lines, replayed, sim, sim_command

from host_tools.cli import main

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")
PORTS = ("unix64",)


def resumed_game(events):
    return next(e for e in events if e["event"] == "game")


@pytest.mark.slow  # many kills and restarts
def test_a_kill_at_random_moments_resumes_with_nothing_lost(tmp_path):
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    args = ["--flash", image, "--players", "4", "--seed", "21", "--trace", trace, "--flash-blocks", "128"]
    rng = random.Random(8)
    played = []  # the throws of the game, in order, as the bowl reported them
    start = None
    for round_ in range(8):
        command, env = sim_command("unix64", args)
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
        proc.stdin.write("throw\n" * 12)
        proc.stdin.flush()
        # the cut comes at a random moment after a random number of throws
        # were shown, counted in events rather than seconds so a loaded
        # machine cuts as often mid-game as an idle one
        seen = []
        for _ in range(rng.randrange(0, 6)):
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
        time.sleep(rng.uniform(0, 0.3))
        proc.send_signal(signal.SIGKILL)  # the power cut
        out, _ = proc.communicate()
        printed = seen + out.splitlines(keepends=True)
        events = [json.loads(line) for line in printed if line.rstrip().endswith("}")]
        if not events:
            continue  # cut before it even booted
        game = next(e for e in events if e["event"] == "game")
        if round_ == 0 or start is None:
            start = game
            assert not game["resumed"]
        else:
            assert game["resumed"]
            # K: every throw reported before the cut is in the log; at most one more,
            # durable but cut before it was announced, which is then the one shown again
            k = game["throws"]
            assert k in (len(played), len(played) + 1)
            if k == len(played) + 1:
                played.append({"event": "throw", "seat": game["last"]["seat"], "dice": game["last"]["dice"]})
            assert game["last"]["seat"] == played[-1]["seat"] and game["last"]["dice"] == played[-1]["dice"]
        played += [e for e in events[1:] if e["event"] in ("throw", "void")]
        assert not any(e["event"] == "end" for e in events)
    assert start is not None and len(played) > 6
    # the log agrees with everything shown: resume once more and finish the game
    code, events, err = sim("unix64", args, ["throw"] * 300)
    assert code == 0, err
    game = resumed_game(events)
    assert game["throws"] in (len(played), len(played) + 1)
    if game["throws"] == len(played) + 1:
        played.append({"event": "throw", "seat": game["last"]["seat"], "dice": game["last"]["dice"]})
    end_at = next(i for i, e in enumerate(events) if e["event"] == "end")
    played += [e for e in events[1:end_at] if e["event"] in ("throw", "void")]
    host = replayed(start, played)
    assert host.ended and events[end_at]["reason"] == host.end_reason_name()
    shown = lines(trace)
    assert (
        sum(1 for s in shown if s == 'screen notice T%d:"%s"' % (T.T_RESUMED, T.TEXTS[T.T_RESUMED][2])) >= 1
    )


def test_a_hung_task_is_reset_by_the_watchdog_and_the_bowl_resumes(tmp_path):
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    command, env = sim_command(
        "unix64", ["--flash", image, "--players", "3", "--seed", "5", "--trace", trace]
    )
    command = command[:3] + [os.path.join(MPLIB, "simfault.py"), "hang", "3"] + command[5:]
    env["MICROPYPATH"] += os.pathsep + MPLIB
    proc = subprocess.run(
        command, input="throw\n" * 5, capture_output=True, text=True, env=env, timeout=slowdown.seconds(120)
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "sim: reset (watchdog)" in proc.stderr
    kinds = [e["event"] for e in events]
    assert kinds[:4] == ["game", "throw", "throw", "game"]
    again = events[3]
    # the hung throw was durable and shown before the hang: it is the one shown again
    assert again["resumed"] and again["throws"] == 3 and again["last"] is not None
    assert kinds[4:] == ["throw"] * (len(kinds) - 4) and len(kinds) >= 6


@pytest.mark.slow  # the watchdog's seconds of CPU time
def test_a_task_that_never_yields_is_reset_by_the_watchdog_too(tmp_path):
    """No wait is ever reached again, so the virtual clock stands still: the
    watchdog's CPU-time count (sim.vclock.Biter) still bites."""
    image = str(tmp_path / "bowl.img")
    command, env = sim_command("unix64", ["--flash", image, "--players", "3", "--seed", "5"])
    command = command[:3] + [os.path.join(MPLIB, "simfault.py"), "spin", "3"] + command[5:]
    env["MICROPYPATH"] += os.pathsep + MPLIB
    proc = subprocess.run(
        command, input="throw\n" * 5, capture_output=True, text=True, env=env, timeout=slowdown.seconds(300)
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("sim: reset (watchdog): booting again") == 1 and "Traceback" not in proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds[:4] == ["game", "throw", "throw", "game"]
    assert events[3]["resumed"] and events[3]["throws"] == 3
    assert kinds[4:] == ["throw"] * (len(kinds) - 4) and len(kinds) >= 6


def test_an_uncaught_exception_is_kept_in_the_crash_file_and_the_bowl_resets(tmp_path):
    image = str(tmp_path / "bowl.img")
    command, env = sim_command("unix64", ["--flash", image, "--players", "3", "--seed", "5"])
    command = command[:3] + [os.path.join(MPLIB, "simfault.py"), "crash", "2"] + command[5:]
    env["MICROPYPATH"] += os.pathsep + MPLIB
    proc = subprocess.run(
        command, input="throw\n" * 4, capture_output=True, text=True, env=env, timeout=slowdown.seconds(120)
    )
    assert proc.returncode == 0, proc.stderr
    assert "sim: reset (reset)" in proc.stderr and "RuntimeError: injected fault" in proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [e["event"] for e in events][:3] == ["game", "throw", "game"]
    assert events[2]["resumed"] and events[2]["throws"] == 2


def test_an_exception_in_a_task_nobody_awaits_also_resets_the_bowl(tmp_path):
    image = str(tmp_path / "bowl.img")
    command, env = sim_command("unix64", ["--flash", image, "--players", "3", "--seed", "5"])
    command = command[:3] + [os.path.join(MPLIB, "simfault.py"), "task", "2000"] + command[5:]
    env["MICROPYPATH"] += os.pathsep + MPLIB
    proc = subprocess.run(
        command, input="throw\n" * 20, capture_output=True, text=True, env=env, timeout=slowdown.seconds(120)
    )
    assert proc.returncode == 0, proc.stderr
    assert "sim: reset (reset)" in proc.stderr and "injected fault in a task" in proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    games = [e for e in events if e["event"] == "game"]
    assert len(games) == 2 and games[1]["resumed"]
    # every announced throw is in the log, plus at most the one durable but cut before its event
    announced = sum(1 for e in events[: events.index(games[1])] if e["event"] == "throw")
    assert games[1]["throws"] in (announced, announced + 1) and games[1]["last"] is not None


# 0 in `make test-quick`: the start-up test; 1800, the continuous test failing mid-game
@pytest.mark.parametrize("good", [0, pytest.param(1800, marks=pytest.mark.slow)])
def test_an_rng_health_failure_puts_the_bowl_out_of_service_and_it_never_rolls(tmp_path, capsys, good):
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    args = [
        "--flash",
        image,
        "--players",
        "3",
        "--seed",
        "9",
        "--trace",
        trace,
        "--rng-fail-after",
        str(good),
    ]
    code, events, err = sim("unix64", args, ["throw"] * 200)
    assert code == 0, err
    stops = [e for e in events if e["event"] == "out_of_service"]
    assert len(stops) == 1 and "test failed" in stops[0]["detail"]
    after = events[events.index(stops[0]) :]
    assert not any(e["event"] == "throw" for e in after)
    shown = lines(trace)
    assert any(s.startswith("screen message T%d:" % T.T_OUT_OF_SERVICE) for s in shown)
    # the log says why the bowl stopped: the organiser's report names the failed test
    database = str(tmp_path / "f.db")
    main(["import", image, "--db", database])
    capsys.readouterr()
    assert main(["report", "--db", database, "--json"]) == 0
    (bowl,) = json.loads(capsys.readouterr().out)["bowls"]
    assert any(stops[0]["detail"] in note for note in bowl["notes"]), bowl["notes"]
    if good:
        assert any(e["event"] == "throw" for e in events)  # it failed mid-game, continuously tested
    else:  # a source broken from the start fails the start-up test again at every boot
        code, events2, _ = sim("unix64", args, ["throw"] * 3)
        assert code == 0 and [e["event"] for e in events2 if e["event"] == "throw"] == []
        assert events2[-1]["event"] == "out_of_service"


@pytest.mark.slow  # a flash played full
def test_a_full_flash_stops_play_with_sync_needed_and_nothing_lost(tmp_path):
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    args = ["--flash", image, "--players", "20", "--seed", "4", "--trace", trace, "--flash-blocks", "90"]
    code, events, err = sim("unix64", args, ["throw"] * 1000)
    assert code == 0, err
    full = [i for i, e in enumerate(events) if e["event"] == "flash_full"]
    assert full, [e["event"] for e in events][-5:]
    assert not any(e["event"] in ("throw", "void") for e in events[full[0] :])
    shown = lines(trace)
    assert any(
        s.startswith("screen message T%d:" % T.T_FLASH_FULL) and "T%d:" % T.T_SYNC_NEEDED in s for s in shown
    )
    # every throw reported is in the log: the resumed game holds them all, the last shown again
    games = [i for i, e in enumerate(events) if e["event"] == "game"]
    last_game = events[games[-1]]
    throws = [e for e in events[games[-1] + 1 : full[0]] if e["event"] in ("throw", "void")]
    assert not last_game["resumed"] and throws
    code, again, _ = sim("unix64", args, ["throw"])
    assert code == 0
    resumed = again[0]
    assert resumed["event"] == "game" and resumed["resumed"]
    assert resumed["throws"] == len(throws)
    assert resumed["last"]["dice"] == throws[-1]["dice"]
    assert again[1]["event"] == "flash_full"
    assert not any(e["event"] == "throw" for e in again)


def pin_presses(pin):
    """The presses that enter `pin` (four digits): THROW steps a digit from 0, REFEREE takes it."""
    presses = []
    for digit in pin:
        presses += ["throw"] * int(digit) + ["referee"]
    return presses


def test_kiosk_mode_the_menu_opens_only_with_the_right_pin(tmp_path):
    """The operator sets the PIN 9876 and kiosk mode; the default 0000, 1234
    and 9875 are refused, 9876 opens the menu: every digit 0-9 entered, a 9
    needing nine steps of THROW."""
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    args = ["--flash", image, "--players", "3", "--seed", "2", "--trace", trace]
    pin, kiosk = ITEMS.index(T.T_PIN), ITEMS.index(T.T_KIOSK)
    assert kiosk < pin
    setup = ["referee-long"] + ["referee"] * kiosk + ["throw"]  # Kiosk on
    setup += ["referee"] * (pin - kiosk) + ["throw"] + pin_presses("9876")  # the PIN
    setup += ["referee"] * (len(ITEMS) - 1 - pin) + ["throw"]  # Back
    code, events, err = sim("unix64", args, ["throw", *setup, "throw"])
    assert code == 0, err
    assert [e["event"] for e in events] == ["game", "throw", "throw"]
    shown = lines(trace)
    assert any("selected=T%d:" % T.T_KIOSK in s and "value=on" in s for s in shown)
    first_digit = [s for s in shown if s.startswith("screen pin entered=0 ")]
    assert first_digit == ["screen pin entered=0 digit=%d" % d for d in range(10)]  # 0 to 9, no wrap before
    wrong = []
    for attempt in ("0000", "1234", "9875"):
        wrong += ["referee-long", *pin_presses(attempt), "throw"]
    code, events, err = sim("unix64", args, [*wrong, "referee-long", *pin_presses("9876")])
    assert code == 0, err
    shown = lines(trace)[len(shown) :]
    refusals = [i for i, s in enumerate(shown) if s.startswith("screen message T%d:" % T.T_WRONG_PIN)]
    assert len(refusals) == 3
    assert not any(s.startswith("screen menu ") for s in shown[: refusals[-1]])
    assert any(s.startswith("screen menu ") for s in shown[refusals[-1] :])
    assert [e["event"] for e in events if e["event"] in ("pin", "throw")] == ["pin", "throw"] * 3


def test_the_long_press_opens_the_menu_and_a_short_press_does_not(tmp_path):
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    args = ["--flash", image, "--players", "3", "--seed", "2", "--trace", trace]
    code, events, _ = sim("unix64", args, ["referee-long", "referee", "referee"])
    assert code == 0
    shown = lines(trace)
    menus = [s for s in shown if s.startswith("screen menu ")]
    assert menus[0].startswith('screen menu title=T%d:"Menu" selected=T%d:' % (T.T_MENU, T.T_NEW_GAME))
    assert "selected=T%d:" % T.T_RULES in menus[-1]


def test_a_switch_held_at_power_up_is_no_throw(tmp_path):
    image = str(tmp_path / "bowl.img")
    code, events, _ = sim(
        "unix64", ["--flash", image, "--players", "3", "--seed", "2", "--hold", "throw"], ["throw"]
    )
    assert code == 0
    # held at boot, released by the first command, then one press: exactly one throw
    assert [e["event"] for e in events] == ["game", "throw"]


def test_lifetime_page_counts_games_throws_recoveries_and_boots(tmp_path):
    image = str(tmp_path / "bowl.img")
    trace = str(tmp_path / "trace")
    args = ["--flash", image, "--players", "3", "--seed", "2", "--trace", trace]
    assert sim("unix64", args, ["throw", "throw"])[0] == 0
    lifetime = ["referee-long"] + ["referee"] * 13 + ["throw", "throw"]
    assert sim("unix64", args, lifetime)[0] == 0
    shown = [s for s in lines(trace) if s.startswith("screen lifetime ")]
    # the first run ended mid-game, as a bowl is switched off: one recovery
    assert shown == ["screen lifetime games=1 throws=2 recoveries=1 boots=2"]


def test_settings_damaged_on_flash_fall_back_to_defaults_and_say_so(tmp_path):
    image = str(tmp_path / "bowl.img")
    args = ["--flash", image, "--players", "7", "--seed", "2"]
    assert sim("unix64", args, ["throw"])[0] == 0
    binary, package_dir = mp.port_setup("unix64")
    code = (
        "from sim.run import mount\nmount(%r, '/f')\n"
        # the players' count 7 made 5: still in range, so only the file's CRC tells
        "f = open('/f/data/settings', 'r+b')\nf.seek(4)\nf.write(b'\\x05')\nf.close()\n" % image
    )
    subprocess.run(
        [binary, "-c", code],
        env=dict(os.environ, MICROPYPATH=package_dir + os.pathsep + ".frozen"),
        check=True,
    )
    code, events, err = sim("unix64", args, ["throw"])
    assert code == 0, err
    assert [e for e in events if e["event"] == "settings"][0]["detail"].startswith("settings file damaged")
    assert events[-1]["event"] == "throw"  # the game in the log goes on: 7 players as it started
