"""The virtual bowl's USB serial, as the host tools meet a real one:
`bobing sim --headless --serial` gives MicroPython's own stdio on a
pseudo-terminal, so the real mpremote and `bobing sync` reach its flash
(the store at /data, as on the ESP32) and `import main` resumes the game."""

import os
import sqlite3
import subprocess
import sys

from test_sim import BOBING

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import pytest
import simsync  # noqa: E402
import slowdown

pytestmark = pytest.mark.slow  # virtual bowls on pseudo-terminals: `make test` only


def test_mpremote_reaches_the_flash_at_data_and_import_main_resumes_the_game(sim_bowl):
    b = sim_bowl()
    b.press("throw", "throw")
    b.wait_throws(2, 120)
    # mpremote's Ctrl-C stops the app (not a kiosk), its soft reset is a board's
    listed = simsync.mpremote(b.port, "fs", "ls", ":/data")
    assert listed.returncode == 0, listed.stderr
    for name in ("id", "settings", "seg/"):
        assert name in listed.stdout
    ran = simsync.mpremote(b.port, "exec", "import os; print(sorted(os.listdir('/')))")
    assert ran.returncode == 0 and "'data'" in ran.stdout, ran.stderr
    back = simsync.mpremote(b.port, "resume", "exec", "--no-follow", "import main")
    assert back.returncode == 0, back.stderr
    b.wait_events(lambda events: [e["event"] for e in events].count("game") == 2, 120)  # the bowl plays on
    b.press("throw")
    code, events = b.finish()
    assert code == 0
    kinds = [e["event"] for e in events]
    assert kinds == ["game", "throw", "throw", "game", "throw"]
    again = events[3]
    assert again["resumed"] and again["throws"] == 2 and again["last"]["dice"] == events[2]["dice"]
    assert events[4]["n"] == 3


def test_bobing_sync_takes_the_sims_log_into_a_database_and_the_game_goes_on(sim_bowl, tmp_path):
    b = sim_bowl()
    b.press(*["throw"] * 20)
    b.wait_throws(20, 300)
    database = str(tmp_path / "festival.db")
    synced = subprocess.run(
        [BOBING, "sync", "--port", b.port, "--db", database, "--wait", slowdown.arg(2)],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(120),
    )
    assert synced.returncode == 0, synced.stderr
    assert "21 new records (1-21)" in synced.stdout  # the game header and 20 throws
    # the sync typed `import main`: the bowl plays on
    b.wait_events(lambda events: [e["event"] for e in events].count("game") == 2, 120)
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
