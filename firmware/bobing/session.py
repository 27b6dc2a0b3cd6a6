"""The bowl's game session: the game and its flash log, one call per press.

    session = Session(Store("/data"), Dice(os.urandom), ENTROPY_TRUE)
    session.boot()                  # power-up: the game as the log left it
    session.new_game(rules, players)
    session.throw()                 # durable when it returns: now show it
    session.maintain()              # after the result is on the screen
    session.void()                  # the referee's 跳猴

Every result is on flash before the caller can show it (StoreFull: nothing
changed, nothing to show); housekeeping (sealing a segment, a snapshot)
waits for maintain(), after the display.  After a power cut, boot() gives
the last durable throw again in `shown`, also when a snapshot covers it.
What boot found damaged is in `issues`, one line each, and is logged as a
note record so the host sees it too.
"""

import gc

from micropython import const

from bobing.game import Game
from bobing.store.log import StoreFull
from bobing.store.store import NOTE, SNAPSHOT_EVERY

_NOTE_BYTES = const(200)


class Session:
    """The game in progress, kept in step with its log.

    game: the Game, or None before the first game
    shown: the payload of the last durable record that is a batch or a game
      header (bytes), or None: what the screen shows again after a power cut
    issues: what the last boot found damaged, one line each
    """

    def __init__(self, store, dice, entropy=0):
        self.store = store
        self.dice = dice
        self.entropy = entropy
        self.game = None
        self.shown = None
        self.issues = []
        self._snapshot_seq = 0  # the record the newest snapshot includes
        self._shown_seq = 0  # the record `shown` is

    def boot(self):
        """Rebuild the game from the newest snapshot and the log after it.
        Never raises for damaged data: it is reported in `issues`, the game
        goes on from the last record that applies, and a fresh snapshot
        makes the next boot start past the damage.  Returns the Recovery."""
        store = self.store
        boot = store.recover()
        broken = self._rebuild(boot, store.replay)
        self.issues = boot.issues
        try:
            if boot.issues:
                self._append(bytes([NOTE]) + "; ".join(boot.issues).encode()[:_NOTE_BYTES])
            if broken and self.game is not None:
                store.save_snapshot(self.game.snapshot())
                self._snapshot_seq = store.seq
        except StoreFull:
            pass  # a full flash: the issues are still on the screen, the log is intact
        return boot

    def _rebuild(self, boot, feed):
        """Build self.game from boot.state and the records feed(boot, on_record)
        gives; True if a record did not apply (the game stops before it, or
        starts again at the next game header)."""
        self.game = None
        self.shown = None
        self._shown_seq = 0
        self._snapshot_seq = boot.state_seq
        if boot.state is not None:
            # The game lives on after boot: made right after a collection it
            # is packed low, not among the holes of the log's reading, which
            # would leave the heap fragmented for the whole game
            # (docs/memory.md).
            gc.collect()
            try:
                self.game = Game.from_snapshot(boot.state)
            except ValueError:
                boot.issues.append("snapshot of record %d does not restore a game" % boot.state_seq)
        stopped = [False, False]  # stopped now, ever

        def on_record(seq, payload, game_start):
            if not payload or payload[0] == NOTE:
                return
            if seq <= boot.state_seq:  # the snapshot includes it: shown again only
                self.shown = payload
                self._shown_seq = seq
                return
            if stopped[0] and not game_start:
                return
            try:
                if game_start:
                    self.game = Game.from_header(payload)
                elif self.game is None:
                    raise ValueError("no game header before it")
                else:
                    self.game.apply(payload)
            except ValueError as e:
                stopped[0] = stopped[1] = True
                boot.issues.append("record %d: %s: the game goes on from before it" % (seq, e))
                return
            stopped[0] = False
            self.shown = payload
            self._shown_seq = seq

        feed(boot, on_record)
        return stopped[1]

    def new_game(self, rules, players, sets=1, labels=None, first_seat=-1):
        """Start a game (the 答起 draw picks the first seat, or `first_seat`,
        0-based, when it is >= 0); its header is on flash when this returns.
        StoreFull: no game started."""
        # The game's state lives until the next game: made right after a
        # collection it is packed low in the heap, not scattered through the
        # free space where the last throws' garbage ended, so the largest
        # free block stays large through a long game (docs/memory.md).
        # The last game's object becomes the new game (Game.start into=): its
        # attribute table is kept, and only its lists are made again.  If the
        # new game is refused, the log gives the last one back, as for any
        # refused record (_append).
        old = self.game
        self.game = None
        gc.collect()
        try:
            game = Game.start(rules, players, self.dice, sets, labels, self.entropy, first_seat, old)
        except ValueError:
            self._rebuild(self.store.reload(), self.store.rescan)
            raise
        header = game.header()
        self._shown_seq = self._append(header, True)
        self.game = game
        self.shown = header
        return game

    def throw(self, dice=None):
        """Roll (or take `dice`, six ints 1..6) for the seat on turn and log
        it; returns the batch, durable.  StoreFull: nothing changed."""
        game = self._playing()
        batch = game.throw(dice or self.dice.roll())
        self._shown_seq = self._append(batch)
        self.shown = batch
        return batch

    def void(self):
        """The referee voids the seat on turn (跳猴); returns the batch, durable."""
        batch = self._playing().void()
        self._shown_seq = self._append(batch)
        self.shown = batch
        return batch

    def _playing(self):
        """The game on, if the log has room for its next record: StoreFull
        (refused before the game changes), ValueError with no game on."""
        game = self.game
        if game is None or game.ended:
            raise ValueError("no game in progress")
        if not self.store.room():
            raise StoreFull()
        return game

    def _append(self, payload, game_start=False):
        """Log the record; its sequence number."""
        try:
            return self.store.append(payload, game_start)
        except StoreFull:
            # Nothing was written, but the game has moved on: rebuild it as
            # the log has it (rare: room() refuses a throw before it is made).
            shown, shown_seq = self.shown, self._shown_seq
            self._rebuild(self.store.reload(), self.store.rescan)
            self.shown, self._shown_seq = shown, shown_seq
            raise

    def maintain(self):
        """Housekeeping after the result is shown: seal a segment when due, a
        snapshot every SNAPSHOT_EVERY records and when a game has ended."""
        self.store.maintain()
        game = self.game
        if game is not None and (self.store.seq - self._snapshot_seq >= SNAPSHOT_EVERY or game.ended):
            self.settle()

    def settle(self):
        """A snapshot of the game as of the record shown, unless there is
        one: also before the bowl stops for the host's sync, so the restart
        after it replays nothing and is no power-cut recovery.  Only ever of
        the record shown: a boot shows the snapshot's own record again, and
        a note there (the app's, a boot's) would leave a resumed game with its
        throws but no last throw on the screen."""
        seq = self.store.seq
        if self.game is not None and seq != self._snapshot_seq and seq == self._shown_seq:
            try:
                self.store.save_snapshot(self.game.snapshot())
                self._snapshot_seq = seq
            except StoreFull:
                pass  # the log has every record: the next boot replays further

    def free_space_warning(self):
        return self.store.free_space_warning()
