"""What bobing.session writes to the log beside the throws, on the real
LittleFS in the MicroPython unix port: a void (跳猴) and what a boot found
damaged reach the log, so a power cut or the host's sync loses neither.

Each test plays a game with tests/mplib/storefaults.py's Played (the
firmware's session over a simulated NOR flash), then boots a new session
on the same flash as a bowl does after a power cut.
"""

import os

from mp import run_micropython

MPLIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mplib")

LOGGED = """
from bobing.store.store import Store
from storefaults import ROOT, Played

def logged():
    # every record a boot replays from the log, as the host reads them too: [(seq, payload)]
    store = Store(ROOT)
    boot = store.recover()
    out = []
    store.replay(boot, lambda seq, payload, game_start: out.append((seq, bytes(payload))))
    return out
"""


def run(code):
    return run_micropython(LOGGED + code, 4_000_000, (MPLIB,)).split()


def test_a_void_and_the_throws_after_it_survive_a_power_cut():
    """The referee voids a turn (跳猴), the table plays on, the power goes:
    the bowl comes back with every throw since the void, the last one on the
    screen, and the void itself is in the log the host syncs."""
    out = run(
        """
played = Played(20)
played.mount()
session, boot = played.boot()
session.throw()
void = session.void()
for _ in range(3):
    last = session.throw()
state = session.game.snapshot()
again, boot = played.boot()  # the power cut: nothing more than the log
print(again.game.snapshot() == state, again.shown == last, len(boot.issues))
print(any(payload == void for seq, payload in logged()))
"""
    )
    assert out == ["True", "True", "0", "True"]


def test_damage_found_at_boot_is_logged_as_a_note_for_the_host():
    """Both snapshots damaged on the flash: the bowl shows it at boot and
    also writes it into the log as a note, so the next sync tells the organiser."""
    out = run(
        """
from bobing.session import NOTE
from storefaults import write
played = Played(300)
played.mount()
for name in ("snap.a", "snap.b"):
    write(ROOT + "/" + name, b"BBS1 damaged")
session, boot = played.boot()
notes = [p[1:].decode() for seq, p in logged() if p and p[0] == NOTE]
print(len(boot.issues) > 0, notes == ["; ".join(boot.issues)[:200]])
"""
    )
    assert out == ["True", "True"]
