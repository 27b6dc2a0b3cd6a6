"""A kiosk bowl's USB serial opens only to its key (docs/security.md): the
virtual board (`bobing sim --headless --serial`, the real firmware) keyed
by `bobing key`, set to kiosk mode in its operator menu, met by the real
mpremote, raw bytes, and `bobing sync`.  What a festival would notice if
it broke: a stranger with a cable at the bowl's REPL (its log, tally and
firmware), play stopped by garbage on the line, the owner locked out after
a re-key, a forged bowl's records in the database."""

import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest
from test_sim import BOBING

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import simsync  # noqa: E402
import slowdown

from bobing.hmacsha import hmac_sha256  # noqa: E402
from host_tools.sync.keystore import KeyStore  # noqa: E402

pytestmark = pytest.mark.slow  # kiosk bowls on pseudo-terminals, one sync after another: `make test` only

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
# the operator menu (no PIN outside kiosk mode): 11 moves to the kiosk item, THROW sets it, a
# minute without a press closes the menu (virtual time)
KIOSK_ON = ("referee-long", *["referee"] * 11, "throw", "pause 61000")


def bobing(*args):
    return subprocess.run([BOBING, *args], capture_output=True, text=True, timeout=slowdown.seconds(300))


def games(count):
    return lambda events: sum(1 for e in events if e["event"] == "game") >= count


@pytest.fixture
def bowls(tmp_path):
    made = []

    def make(name="a"):
        folder = tmp_path / name
        folder.mkdir()
        made.append(simsync.SimBowl(str(folder), 5, "--players", "3"))
        made[-1].wait_events(games(1), 120)
        return made[-1]

    yield make
    for b in made:
        b.kill()


def keyed(bowl, database, kiosk=True):
    """`bobing key` on the bowl, then kiosk mode in its menu; the games seen so far."""
    done = bobing("key", "--port", bowl.port, "--db", database)
    assert done.returncode == 0 and "key 1 installed" in done.stdout, "%r\nthe sim said:\n%s" % (
        done,
        bowl.stderr()[-2000:],
    )
    bowl.wait_events(games(2), 120)  # `import main`: the game goes on, the key noted
    if kiosk:
        bowl.press(*KIOSK_ON)
    bowl.press("throw")
    bowl.wait_throws(1, 120)
    return 2


class Line:
    """The bowl's serial port opened raw, as a stranger's program would."""

    def __init__(self, port):
        import tty

        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.seen = b""

    def send(self, data):
        os.write(self.fd, data)

    def line_with(self, marker, timeout=60):
        """The first whole line received that holds marker."""
        import select

        end = time.monotonic() + slowdown.seconds(timeout)
        while time.monotonic() < end:
            for line in self.seen.split(b"\n")[:-1]:
                if marker in line:
                    self.seen = self.seen[self.seen.index(line) + len(line) + 1 :]
                    return line
            if select.select([self.fd], [], [], 0.2)[0]:
                self.seen += os.read(self.fd, 4096)
        raise AssertionError("no %r from the bowl in %d s: %r" % (marker, timeout, self.seen[-300:]))

    def close(self):
        os.close(self.fd)


def answer(database, challenge):
    c = json.loads(challenge)
    key = KeyStore(database).key(c["bowl"], c["key"])
    return b"auth %s\r\n" % hmac_sha256(key, b"bobing sync ", c["nonce"].encode()).hex().encode()


def test_a_stranger_with_a_cable_never_opens_a_kiosk_bowl_and_play_goes_on(bowls, tmp_path):
    bowl = bowls()
    database = str(tmp_path / "f.db")
    keyed(bowl, database)
    # another host's `bobing sync`: it holds no key for this bowl
    stranger = bobing(
        "sync", "--port", bowl.port, "--db", str(tmp_path / "other.db"), "--wait", slowdown.arg(5)
    )
    assert stranger.returncode == 2 and "holds no key 1" in stranger.stderr, stranger
    assert len(stranger.stderr.strip().splitlines()) == 1
    # mpremote: Ctrl-C, Ctrl-A (raw REPL), Ctrl-D; it waits for a raw REPL that never comes
    try:
        tried = subprocess.run(
            [MPREMOTE, "connect", bowl.port, "exec", "print('opened')"],
            capture_output=True,
            text=True,
            timeout=slowdown.seconds(15),
        )
        assert "opened" not in tried.stdout and tried.returncode != 0, tried
    except subprocess.TimeoutExpired as e:  # killed: still waiting
        assert b"opened" not in (e.stdout or b"")
    # raw bytes of every kind; an `auth` line answers the challenge the stranger's sync left: wrong
    line = Line(bowl.port)
    try:
        line.send(b"\r\x03\x03\x01\x04\x02garbage\x00\xff\r\nimport os\r\nauth 00\r\n" + bytes(range(256)))
        assert b'"wait": 2' in line.line_with(b'"event": "refused"')
        bowl.press("throw")  # play goes on, and the bowl's clock past the lock-out
        bowl.wait_throws(2, 120)
        line.send(b"\r\nsync\r\n")
        line.line_with(b'"event": "challenge"')
        line.send(b"auth " + b"0" * 64 + b"\r\n")
        assert b'"wait": 4' in line.line_with(b'"event": "refused"')  # doubled: 2 in a row
        bowl.press("throw")
        bowl.wait_throws(3, 120)
    finally:
        line.close()
    assert not any(e["event"] == "sync" for e in bowl.events()[-5:])
    # the owner's sync (the lock-out passed on the bowl's clock): both wrong answers are in the
    # log, and the game goes on
    owner = bobing("sync", "--port", bowl.port, "--db", database, "--wait", slowdown.arg(5))
    assert owner.returncode == 1, owner
    for n in (1, 2):
        assert "sync refused: a wrong answer to the key's challenge (%d in a row)" % n in owner.stdout
    bowl.wait_events(games(3), 120)
    bowl.press("throw")
    bowl.wait_throws(4, 120)


def test_a_replayed_answer_to_an_old_challenge_is_refused(bowls, tmp_path):
    bowl = bowls()
    database = str(tmp_path / "f.db")
    seen = keyed(bowl, database)
    line = Line(bowl.port)
    try:
        line.send(b"\r\nsync\r\n")
        heard = answer(database, line.line_with(b'"event": "challenge"'))
        line.send(heard)  # the owner's answer, overheard on the line: it opens the bowl once
        line.line_with(b'"event": "sync"')
        line.send(b"\r\nimport main\r\n")  # back to the game, as the host's sync leaves it
        bowl.wait_events(games(seen + 1), 120)
        line.send(b"\r\nsync\r\n")
        line.line_with(b'"event": "challenge"')
        line.send(heard)  # replayed to the new challenge
        line.line_with(b'"event": "refused"')
    finally:
        line.close()
    bowl.press("throw")
    bowl.wait_throws(2, 120)


def test_the_owner_syncs_a_kiosk_bowl_rekeyed_mid_festival(bowls, tmp_path):
    bowl = bowls()
    database = str(tmp_path / "f.db")
    keyed(bowl, database)
    first = bobing("sync", "--port", bowl.port, "--db", database, "--wait", slowdown.arg(5))
    assert first.returncode == 1 and "the bowl noted: key 1 installed" in first.stdout, first
    bowl.wait_events(games(3), 120)
    again = bobing("key", "--port", bowl.port, "--db", database)
    assert again.returncode == 0 and "key 2 installed in place of key 1" in again.stdout, again
    bowl.wait_events(games(4), 120)
    bowl.press("throw", "throw")
    bowl.wait_throws(3, 120)
    second = bobing("sync", "--port", bowl.port, "--db", database, "--wait", slowdown.arg(5))
    assert "the bowl noted: key 2 installed" in second.stdout and "not authentic" not in second.stdout, second
    report = bobing("report", "--db", database, "--json")
    (entry,) = json.loads(report.stdout)["bowls"]
    assert entry["authentic"] is True and entry["throws"] == 3, entry


def test_a_family_bowl_with_a_key_keeps_todays_open_link(bowls, tmp_path):
    bowl = bowls()
    keyed(bowl, str(tmp_path / "f.db"), kiosk=False)
    ran = subprocess.run(
        [MPREMOTE, "connect", bowl.port, "exec", "print('opened')"],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(120),
    )
    assert ran.returncode == 0 and "opened" in ran.stdout, ran


def test_a_forged_bowl_with_the_right_id_and_another_key_is_refused_at_sync(bowls, tmp_path):
    real = bowls("real")
    database = str(tmp_path / "f.db")
    keyed(real, database, kiosk=False)
    assert bobing("sync", "--port", real.port, "--db", database, "--wait", slowdown.arg(5)).returncode in (
        0,
        1,
    )
    bowl_id = json.loads(bobing("report", "--db", database, "--json").stdout)["bowls"][0]["bowl"]
    forged = bowls("forged")
    copied = subprocess.run(
        [MPREMOTE, "connect", forged.port, "exec", "f=open('/data/id','w');f.write(%r);f.close()" % bowl_id],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(120),
    )
    assert copied.returncode == 0, copied
    own = bobing("key", "--port", forged.port, "--db", str(tmp_path / "forger.db"))  # its own key
    assert own.returncode == 0 and bowl_id in own.stdout, own
    forged.wait_events(games(2), 120)
    conn = sqlite3.connect(database)
    before = conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    conn.close()
    refused = bobing("sync", "--port", forged.port, "--db", database, "--wait", slowdown.arg(5))
    assert refused.returncode == 2, refused
    assert refused.stderr.strip().splitlines() == [
        "bobing: error: %s: bowl %s does not hold the key this host gave it: a forged bowl; nothing synced"
        % (forged.port, bowl_id)
    ]
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT COUNT(*) FROM records").fetchone()[0] == before
    conn.close()
