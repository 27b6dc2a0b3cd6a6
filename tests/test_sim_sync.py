"""The virtual bowl's USB serial, as the host tools meet a real one:
`bobing sim --headless --serial` gives MicroPython's own stdio on a
pseudo-terminal, so the real mpremote and `bobing sync` reach its flash
(the store at /data, as on the ESP32) and `import main` resumes the game."""

import os
import sqlite3
import subprocess
import sys
import time

import pytest
from test_sim import BOBING

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import simsync  # noqa: E402

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


@pytest.fixture
def bowl(tmp_path):
    made = []

    def make(*extra):
        made.append(simsync.SimBowl(str(tmp_path), 5, "--players", "3", *extra))
        return made[-1]

    yield make
    for b in made:
        b.kill()


def mpremote(port, *args):
    return subprocess.run([MPREMOTE, "connect", port, *args], capture_output=True, text=True, timeout=60)


def test_mpremote_reaches_the_flash_at_data_and_import_main_resumes_the_game(bowl):
    b = bowl()
    b.press("throw", "throw")
    time.sleep(2)  # the throws are made (the bowl waits for the next command)
    # mpremote's Ctrl-C stops the app (not a kiosk), its soft reset is a board's
    listed = mpremote(b.port, "fs", "ls", ":/data")
    assert listed.returncode == 0, listed.stderr
    for name in ("id", "settings", "seg/"):
        assert name in listed.stdout
    ran = mpremote(b.port, "exec", "import os; print(sorted(os.listdir('/')))")
    assert ran.returncode == 0 and "'data'" in ran.stdout, ran.stderr
    back = mpremote(b.port, "resume", "exec", "--no-follow", "import main")
    assert back.returncode == 0, back.stderr
    time.sleep(1)
    b.press("throw")
    code, events = b.finish()
    assert code == 0
    kinds = [e["event"] for e in events]
    assert kinds == ["game", "throw", "throw", "game", "throw"]
    again = events[3]
    assert again["resumed"] and again["throws"] == 2 and again["last"]["dice"] == events[2]["dice"]
    assert events[4]["n"] == 3


def test_bobing_sync_takes_the_sims_log_into_a_database_and_the_game_goes_on(bowl, tmp_path):
    b = bowl()
    b.press(*["throw"] * 20)
    time.sleep(3)
    database = str(tmp_path / "festival.db")
    synced = subprocess.run(
        [BOBING, "sync", "--port", b.port, "--db", database, "--wait", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert synced.returncode == 0, synced.stderr
    assert "21 new records (1-21)" in synced.stdout  # the game header and 20 throws
    time.sleep(1)  # the sync typed `import main`: the bowl plays on
    b.press("throw")
    code, events = b.finish()
    assert code == 0
    thrown = [e for e in events if e["event"] == "throw"]
    conn = sqlite3.connect(database)
    rows = conn.execute("SELECT seat, n1, n2, n3, n4, n5, n6 FROM throws ORDER BY seq").fetchall()
    conn.close()
    assert rows == [(e["seat"], *[e["dice"].count(f) for f in range(1, 7)]) for e in thrown[:20]]
    resumed = [e for e in events if e["event"] == "game"][-1]
    assert resumed["resumed"] and resumed["throws"] == 20 and thrown[-1]["n"] == 21
