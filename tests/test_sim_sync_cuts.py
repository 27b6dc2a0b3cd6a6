"""`bobing sync` with a pulled cable, end to end: the real firmware on the
virtual board (`bobing sim --headless --serial`) plays several games of 20
players, then the real `bobing sync` (mpremote underneath) pulls its log
through a bridge that cuts the link at random points (fixed seed), again
until a sync completes.  What an organiser would notice if it broke:
throws missing or counted twice in the database, a bowl that loses its
game or its place after a sync, a flash that fills up because synced
segments are never freed.

The sim plays 8-14 throws a second here (its screen and sound on a
virtual clock, on a shared machine), so a few thousand throws would take
minutes: THROWS is a few hundred (two sealed 128-record segments, two
games); the cut syncs themselves are what this test is about."""

import os
import random
import sqlite3
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mplib"))
import simsync  # noqa: E402
import slowdown

pytestmark = pytest.mark.slow  # virtual bowls on pseudo-terminals, synced through cut links: `make test` only

THROWS = 300  # a 20-player game ends after ~260-360 throws: a second game starts
MORE = 12  # throws after the sync: the game goes on
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


@pytest.fixture
def rig(tmp_path):
    made = []

    def make(*extra):
        bowl = simsync.SimBowl(str(tmp_path), 7, "--players", "20", *extra)
        link = simsync.SimLink(bowl.port)
        made.append((bowl, link))
        return bowl, link

    yield make
    for bowl, link in made:
        link.close()
        bowl.kill()


def bobing_sync(port, database):
    return subprocess.run(
        [simsync.BOBING, "sync", "--port", port, "--db", database, "--wait", slowdown.arg(3)],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(60),
    )


def held(database):
    """(seq list, throw rows as (seat, n1..n6)) in the database."""
    conn = sqlite3.connect(database)
    seqs = [s for (s,) in conn.execute("SELECT seq FROM records ORDER BY seq")]
    rows = conn.execute("SELECT seat, n1, n2, n3, n4, n5, n6 FROM throws ORDER BY seq").fetchall()
    conn.close()
    return seqs, rows


def as_rows(throw_events):
    return [(e["seat"], *[e["dice"].count(f) for f in range(1, 7)]) for e in throw_events]


def sync_through_cuts(link, database, seed, most, tries=12):
    """Re-run `bobing sync` over a link cut after a random byte count below
    `most` until one completes; after `tries` cut syncs, over a whole link,
    where one of three must.  The number of failed syncs and the completed
    sync's output.  A whole sync moves about 15 KB here, a little more or
    less with what the bowl prints meanwhile, so whether a cut point near
    its end falls past it is a matter of timing, and right after a cut the
    bowl may still be busy for the next sync's --wait: the whole link keeps
    the test from resting on either."""
    rng = random.Random(seed)
    cuts = 0
    while True:
        whole = cuts >= tries
        link.connect(cut_after=None if whole else rng.randrange(20, most))
        done = bobing_sync(link.path, database)
        if os.path.exists(database):  # after any outcome: a prefix, no gap, no duplicate
            seqs, _ = held(database)
            assert seqs == list(range(1, len(seqs) + 1))
        if done.returncode == 0 and (whole or link.cut_after is not None):
            link.cut()  # nobody listens between syncs: the bowl's lines are dropped
            return cuts, done.stdout
        if done.returncode == 0:
            continue  # the cut came after the sync finished (its `import main`)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        cuts += 1
        assert cuts < tries + 3, done.stderr


def segments(link):
    """The bowl's /data/seg listing, read with mpremote; the app goes on after."""
    link.connect()
    listed = subprocess.run(
        [MPREMOTE, "connect", link.path, "fs", "ls", ":/data/seg", "+", "exec", "--no-follow", "import main"],
        capture_output=True,
        text=True,
        timeout=slowdown.seconds(60),
    )
    assert listed.returncode == 0, listed.stderr
    link.cut()
    return sorted(line.split()[-1] for line in listed.stdout.splitlines()[1:] if line.strip())


def check_goes_on(bowl, before):
    """More throws after the sync: the same game resumed at the same throw."""
    bowl.press(*["throw"] * MORE)
    code, events = bowl.finish()
    assert code == 0
    thrown = [e for e in events if e["event"] == "throw"]
    assert len(thrown) == before + MORE
    games = [e for e in events if e["event"] == "game"]
    resumed = [g for g in games if g["resumed"]]
    assert resumed, games
    last_game = [e for e in events[: events.index(resumed[0])] if e["event"] in ("game", "throw")]
    in_game = len(last_game) - 1 - max(i for i, e in enumerate(last_game) if e["event"] == "game")
    assert resumed[0]["throws"] == in_game and resumed[0]["last"]["dice"] == thrown[before - 1]["dice"]
    assert thrown[before]["n"] == thrown[before - 1]["n"] + 1
    return thrown


def test_cut_syncs_end_with_exactly_the_bowls_throws_and_free_its_flash(rig, tmp_path):
    started = time.monotonic()
    bowl, link = rig()
    bowl.press(*["throw"] * THROWS)
    events = bowl.wait_throws(THROWS - 1, timeout=120)  # one press starts the second game
    played = time.monotonic() - started
    assert sum(1 for e in events if e["event"] == "end") >= 1  #  # several games
    database = str(tmp_path / "festival.db")
    cuts, out = sync_through_cuts(link, database, seed=3, most=16000)
    assert cuts >= 2
    thrown = bowl.throws()  # every throw the bowl made: no press is left
    assert len(thrown) == THROWS - 1
    seqs, rows = held(database)
    assert rows == as_rows(thrown)
    assert "acknowledged up to record" in out, out  # the records came in this sync or cut ones before
    # the ack let the bowl's boot (the sync's `import main`) free the synced segments
    assert len(segments(link)) == 1
    thrown = check_goes_on(bowl, len(thrown))
    print("played %d throws in %.1f s, %d cut syncs" % (len(thrown) - MORE, played, cuts))
