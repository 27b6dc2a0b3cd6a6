"""The game on the bowl: attract, new game, turns, results, the end, resume.

App(board).run() is the main task.  Every press goes through one rule:
write before show.  A throw is appended to the flash log (Session.throw)
before a die is drawn or a note sounded; if the flash is full or the RNG
has failed, nothing changed, nothing is shown but the stop message, and
play stops.  After a power cut, boot() shows the last durable throw again
with the "resumed" notice.

Timings (ms, on the board clock): roll animation _FRAMES x _FRAME_MS (800,
at most 1 s); presses locked out for the announcement _ANNOUNCE_MS after
the result; the result stays up _RESULT_HOLD_MS before "whose turn" (a
press in between throws at once); a void needs its second referee press
within _CONFIRM_MS; in kiosk mode the end screen starts the next game after
_KIOSK_END_MS.  Idle timeout (the IDLE_MIN setting, 0: never): waiting
for a press that long with nothing pressed, the screen goes dark and the
lamp off; the next press only lights them again (never a throw), and the
game and the picture are as they were.

Speech (board.speaker, a board.dfplayer.DFPlayer, and app/speech.py's
Announcement, built once and refilled): every throw and void is announced
once durable (the award, the six faces, what changed, whose turn), and the
game start, the end, a resume, out of service and flash full have spoken
forms.  The announcement plays from the speaker's own task; the app only
waits for it as the lock-out (presses ignored while it plays, as while the
result is drawn), and the speaker gives up on a clip that never starts, so
a missing module costs at most its START_MS.  The referee's first short
press repeats the last announcement (and opens the void question); the
confirming press voids, a THROW instead cancels and says the standings.

One switch (the SCAN setting, docs/accessibility.md): instead of waiting
for THROW, the bowl offers throw (or new game), 再一次 and 玩家奖品 in turn;
THROW takes the offer being made, so the switch alone plays, repeats, hears
the standings and starts the next game.

Serial commands (docs/events.md): while waiting for a press, and while an
announcement plays, the app reads lines from board.serial.readline() every
_SERIAL_MS.  `sync` (the host's, docs/sync.md) ends run() at the next wait:
never inside a throw, the log durable, settings saved; run() prints
{"event": "sync"} and turns Ctrl-C back on, and bowl.run() returns to the
REPL.  In kiosk mode `sync` opens only to the bowl's key (app/gate.py).
Any other line is ignored.
"""

import gc

from display import texts as T
from micropython import const

from app import settings as S
from app import sounds, speech
from app.bootlog import count_boot
from app.health import HealthyBytes, RngFailure
from app.live import Live
from app.outcome import Outcome
from bobing import events as ev
from bobing.dice import Dice
from bobing.rules import PRESETS, Rules
from bobing.session import NOTE, Session
from bobing.store.log import StoreFull
from bobing.store.store import Store

_FRAMES = const(8)
_FRAME_MS = const(100)
_ANNOUNCE_MS = const(600)
_RESULT_HOLD_MS = const(4000)
_CONFIRM_MS = const(5000)
_KIOSK_END_MS = const(30000)
_END_PAUSE_MS = const(2000)  # the final result stays up this long before the end screen
_END_PAGE_MS = const(3000)  # the end screen's next page of seats after this long (a mono panel's)
_BUSY_LIMIT_MS = const(10000)  # longer away from the input than this: the loop is hung
_SERIAL_MS = const(50)  # how often serial command lines are read while waiting


class SyncRequested(Exception):
    """The host sent `sync`: raised by App.wait(), ends App.run()."""


class App:
    VERSION = "0.1.0"

    def __init__(self, board, fresh_start=False, session=None):
        """fresh_start: a bowl whose log holds no game yet starts one at once
        with its settings (the virtual board's --players/--rules).  session:
        a Session on board.flash_root already booted (bowl.py boots it before
        the screens and the app are imported); None: boot() makes and boots it."""
        self.board = board
        self.screen = board.screen
        self.inputs = board.inputs
        self.clock = board.clock
        root = board.flash_root
        self.settings = S.Settings(root + "/settings")
        self.rng = HealthyBytes(board.random_bytes)
        self._session_booted = session is not None
        self.session = session or Session(Store(root), None)
        self.session.dice = Dice(self.rng)
        self.session.entropy = board.entropy
        self.live = Live(board.serial)
        # a serial without readline() (the headless sim's stdin holds presses) takes no commands
        self.commands = getattr(board.serial, "readline", None)
        self.sync_asked = False
        self.gate = None  # app/gate.py: loaded by the first line a kiosk bowl must judge
        # the announcement being built, or the last one said (kept for the
        # referee's repeat); None: the board has no speaker
        self.said = None if board.speaker is None else speech.Announcement()
        # the standings, the menu and the scan's offers: said aside, so that the
        # last announcement stays for the repeat
        self.aside = None if board.speaker is None else speech.Announcement()
        self.speech_on = True
        self.out = Outcome()
        self.fresh_start = fresh_start
        self.boots = 0
        self.stopped = -1  # the text of the stop message (out of service, flash full), -1: playing
        self.hold = -1  # ms the result stays before the turn screen, -1: nothing pending
        self.busy_since = self.clock.ticks_ms()
        self.paged_at = self.busy_since  # when the end screen last turned a page
        self.noticed = -1  # the notice band shown, -1: none
        self.lit = False  # the ready lamp, as last set
        self.warned = False  # flash nearly full, told once per boot
        self._zy_faces = [1] * 6
        self._roll_faces = [1] * 6
        self._spin = 1

    # --- health, for the watchdog feeder ---------------------------------------

    def healthy(self):
        """True while the app waits for input or has been busy less than _BUSY_LIMIT_MS."""
        clock = self.clock
        return self.inputs.waiting or clock.ticks_diff(clock.ticks_ms(), self.busy_since) < _BUSY_LIMIT_MS

    # --- boot ----------------------------------------------------------------------

    def boot(self):
        """Boot the app on the booted log (or boot it), then show where the
        bowl is.  Ends the power-up's frequent collections (bowl.power_up):
        play collects while it waits for a press instead (_wait)."""
        try:
            issue = self.settings.load()
            self.apply_settings()
            session = self.session
            if not self._session_booted:
                session.boot()  # makes the flash root on a new bowl
            self.boots = count_boot(self.board.flash_root)
            try:
                self.rng.start()
            except RngFailure:
                pass  # stop_rng() below, now that the log is open to note it
            for line in session.issues:
                self.live.status("recovered", line)
            if issue:
                self.note(issue)
                self.live.status("settings", issue)
            if session.store.key_switched:  # a new key took the chain: the host's re-key, or anyone's
                self.note("key %d installed" % session.store.key_switched)
            if self.rng.failed:
                self.stop_rng()
                self.speak()
                return
            game = session.game
            if game is None and self.fresh_start:
                self.new_game()
                return
            if game is not None and self.said is not None:
                speech.resumed(self.said, game, session.shown)
            if game is not None and not game.ended:
                last = None
                shown = session.shown
                if shown is not None and shown[0] == ev.FORMAT:
                    last = self.out.read(shown)
                self.live.game(game, True, last)
                if last is None or last.void:
                    self.show_turn()
                else:
                    self.show_result(last)
                    self.hold = _RESULT_HOLD_MS
                self.notice(T.T_RESUMED)
                self.lamp(True)
            elif game is not None:
                self.show_end()
                self.live.status("waiting", "game over: THROW starts the next")
            else:
                self.screen.attract(self.settings[S.PLAYERS], self.settings[S.PRESET])
                self.live.status("waiting", "no game yet: THROW starts one")
            self.check_space()
            self.speak()
        finally:
            gc.threshold(-1)

    def apply_settings(self):
        s = self.settings
        ins = self.inputs
        ins.accept_ms = s[S.ACCEPT_MS]
        ins.rearm_ms = s[S.REARM_MS]
        ins.long_ms = s[S.LONG_MS]
        sound = self.board.sound
        sound.volume = s[S.VOLUME]
        sound.muted = bool(s[S.MUTE])
        sound.vibrate = bool(s[S.VIBRATION])
        self.screen.set_language(s[S.LANGUAGE])
        self.screen.set_contrast(s[S.CONTRAST])
        said = self.said
        aside = self.aside
        if said is not None and aside is not None:
            speaker = self.board.speaker
            self.speech_on = bool(s[S.SPEECH])
            said.language = aside.language = s[S.SPEECH_LANGUAGE]  # the card folder
            speaker.volume(s[S.SPEECH_VOLUME])
            if not self.speech_on:
                speaker.stop()
        self.board.kbd_intr(not s[S.KIOSK])  # kiosk: no Ctrl-C from the USB serial

    def note(self, text):
        """A note record in the log (what the host should see); best effort."""
        try:
            self.session.store.append(bytes([NOTE]) + text.encode())
        except StoreFull:
            pass

    # --- the main loop ---------------------------------------------------------------

    async def run(self):
        """Boot, then play until the host's `sync` line; then the bowl stops
        taking presses, says so on the screen and the serial, and Ctrl-C works
        again (also in kiosk mode), and run() returns."""
        self.boot()
        try:
            await self.play()
        except SyncRequested:
            pass
        self.session.settle()  # the restart after the sync is no power-cut recovery
        self.lamp(False)
        self.board.sound.stop()
        self.screen.message(T.T_SYNC_MODE, -1)
        self.live.sync()
        self.board.kbd_intr(True)

    async def play(self):
        ins = self.inputs
        while True:
            game = self.session.game
            if self.stopped >= 0:
                event = await self.wait(-1)
                if event == ins.REFEREE_LONG:
                    from app.menu import operator_menu  # loaded when the menu first opens (rare)

                    await operator_menu(self)
                    self.redraw()
                elif event == ins.REFEREE:
                    await self.repeat()
                continue
            if self.settings[S.SCAN]:
                event = await self.scan(T.T_NEW_GAME if game is None or game.ended else T.T_PRESS_TO_THROW)
            elif game is None:
                event = await self.wait(-1)
            elif game.ended:
                event = await self.wait(_KIOSK_END_MS if self.settings[S.KIOSK] else -1)
                if event == 0:
                    event = ins.THROW
            else:
                event = await self.wait(self.hold)
                self.hold = -1
                if event == 0:
                    self.show_turn()
                    continue
            if event == ins.REFEREE_LONG:
                from app.menu import operator_menu  # as above: a game that never opens it never loads it

                if await operator_menu(self):
                    self.new_game()
                else:
                    self.redraw()
            elif event == ins.THROW:
                if game is None or game.ended:
                    self.new_game()
                else:
                    await self.throw()
            elif event == ins.REFEREE and game is not None and not game.ended:
                await self.void()
            elif event == ins.REFEREE:
                await self.repeat()

    def polled(self):
        """Read the serial's command lines; True once `sync` came (and, on a
        kiosk bowl with a key, the answer to its challenge: app/gate.py)."""
        read = self.commands
        if read is not None:
            line = read()
            while line is not None:
                if self.opens(line.strip()):
                    self.sync_asked = True
                line = read()  # anything else is garbage: ignored
        return self.sync_asked

    def opens(self, line):
        """True if this command line opens the bowl for the host's sync: `sync`
        on a family bowl; on a kiosk bowl, as its gate judges (its code and
        names loaded only then: a bowl's names are never freed)."""
        if not self.settings[S.KIOSK]:
            return line == b"sync"
        gate = self.gate
        if gate is None:
            from app.gate import Gate

            gate = self.gate = Gate(self)
        return gate.opens(line)

    async def wait(self, timeout_ms, quiet=False):
        """The next press (THROW, REFEREE, REFEREE_LONG) or 0 on timeout
        (with quiet, timeout_ms counted from when the speaker fell silent);
        the stuck-switch hint is handled here.  SyncRequested once the host's
        `sync` line came (checked every _SERIAL_MS while waiting).  A wait
        without a timeout goes dark after the idle timeout, and the press
        that lights it again is taken here: the caller never sees it."""
        idle = self.settings[S.IDLE_MIN]
        if timeout_ms >= 0 or not idle:
            return await self._wait(timeout_ms, quiet)
        while True:
            event = await self._wait(idle * 60000)
            if event:
                return event
            board = self.board
            board.backlight(False)
            board.lamp(False)
            self.live.status("idle", "screen dark")
            try:
                await self._wait(-1)
            finally:  # also when the host's sync ends the wait: run() then shows its message
                board.backlight(True)
                board.lamp(self.lit)

    async def _wait(self, timeout_ms, quiet=False):
        # the last turn's garbage, freed while nothing happens (a few ms the
        # player does not see) rather than in the middle of the next press
        gc.collect()
        ins = self.inputs
        clock = self.clock
        start = read_at = clock.ticks_ms()
        # one loop for the switches and the serial that awaits only sleeps:
        # a coroutine awaited for each slice of the wait would be an object
        # made 20 times a second for as long as the bowl waits (docs/memory.md)
        ins.waiting = True
        try:
            if self.polled():
                raise SyncRequested()
            while True:
                event = ins.take()
                if event == ins.STUCK:
                    self.notice(T.T_RELEASE_SWITCH)
                    self.live.status("stuck", "a switch is held")
                elif event == ins.RELEASED:
                    self.notice(-1)
                elif event:
                    return event
                if timeout_ms >= 0:
                    if quiet and self.speaking():
                        start = clock.ticks_ms()
                    elif clock.ticks_diff(clock.ticks_ms(), start) >= timeout_ms:
                        return 0
                await clock.sleep_ms(ins.POLL_MS)
                now = clock.ticks_ms()
                # an end screen with more seats than the mono panel's page turns
                # its pages by itself, through whatever wait the end is in
                if clock.ticks_diff(now, self.paged_at) >= _END_PAGE_MS:
                    self.paged_at = now
                    self.screen.next_page()
                if clock.ticks_diff(now, read_at) >= _SERIAL_MS:
                    read_at = now
                    if self.polled():
                        raise SyncRequested()
        finally:
            ins.waiting = False
            self.busy_since = clock.ticks_ms()

    # --- a turn ----------------------------------------------------------------------

    def new_game(self):
        s = self.settings
        self.lamp(False)
        self.unsaid()
        try:
            game = self.session.new_game(
                Rules(PRESETS[s[S.PRESET]]), s[S.PLAYERS], s[S.SETS], first_seat=0 if s[S.STARTER] else -1
            )
        except StoreFull:
            self.stop_full()
            self.speak()
            return
        except RngFailure:
            self.stop_rng()
            self.speak()
            return
        self.live.game(game, False, None)
        if self.said is not None:
            speech.game_start(self.said, game)
        self.notice(-1)
        self.show_turn()
        self.session.maintain()
        self.check_space()
        self.speak()
        self.lamp(True)

    def commit(self):
        """The throw, durable on flash, as self.out; None if play stopped."""
        self.unsaid()
        try:
            batch = self.session.throw()
        except StoreFull:
            self.stop_full()
            self.speak()
            return None
        except RngFailure:
            self.stop_rng()
            self.speak()
            return None
        return self.out.read(batch)

    async def throw(self):
        ins = self.inputs
        ins.lock()
        self.lamp(False)
        self.notice(-1)
        out = self.commit()
        if out is None:
            ins.unlock()
            return
        screen = self.screen
        faces = self._roll_faces
        spin = self._spin
        for _ in range(_FRAMES):  # what the dice show while rolling: not the RNG's bytes
            for i in range(6):
                # a 16-bit xorshift: every value a small int (a 30-bit LCG's
                # product was a big int, 48 of them a roll, docs/memory.md)
                spin ^= (spin << 7) & 0xFFFF
                spin ^= spin >> 9
                spin ^= (spin << 8) & 0xFFFF
                faces[i] = spin % 6 + 1
            screen.roll(faces)
            await self.clock.sleep_ms(_FRAME_MS)
        self._spin = spin
        self.show_result(out)
        self.board.sound.play(sounds.for_award(out.award))
        await self.announce(out)
        self.ready()

    async def announce(self, out):
        """After a result or a void: live event, speech, housekeeping, the
        lock-out (at least _ANNOUNCE_MS, and while the announcement plays), the end."""
        game = self.shown_game()
        self.live.turn(game, out)
        said = self.said
        if said is not None:
            speech.throw(said, out.batch, game)
        self.session.maintain()
        self.check_space()
        self.speak()
        await self.clock.sleep_ms(_ANNOUNCE_MS)
        while self.speaking():
            await self.clock.sleep_ms(_SERIAL_MS)
        if game.ended:
            await self.clock.sleep_ms(_END_PAUSE_MS)
            self.show_end()
            self.live.end(game, self.session.store.audit_code())
            if said is not None:
                speech.game_end(said, game)
                self.speak()  # not waited for: a long table's end takes minutes to say
        elif self.stopped < 0:
            self.hold = _RESULT_HOLD_MS

    async def void(self):
        """The referee's 跳猴: say the last announcement again and ask; void
        the seat on turn on a second press within _CONFIRM_MS of the question
        (counted from the end of the repeat: presses during it are ignored)."""
        self.screen.message(T.T_VOID_ASK, T.T_PRESS_AGAIN)
        await self.repeat(True)
        ins = self.inputs
        event = await self.wait(_CONFIRM_MS)
        if event != ins.REFEREE:
            self.show_turn()  # anything else, or nothing, cancels: never a throw
            if event == ins.THROW:
                await self.standings()
            return
        ins.lock()
        self.unsaid()
        try:
            batch = self.session.void()
        except StoreFull:
            self.stop_full()
            self.speak()
            ins.unlock()
            return
        out = self.out.read(batch)
        self.board.sound.play(sounds.VOID)
        if not self.shown_game().ended:
            self.show_turn()
            self.notice(T.T_VOIDED)
        await self.announce(out)
        self.hold = -1
        self.ready()

    # --- speech ----------------------------------------------------------------------

    def speak(self, said=None):
        """Hand the announcement built so far (or `said`, the aside one) to the
        speaker's queue (it plays from the speaker's own task); returns at once.
        With speech off it is built but not sent, so switching speech on makes
        the next repeat say what is on the screen."""
        if said is None:
            said = self.said
        if said is not None and self.speech_on and said.count:
            self.board.speaker.say(said.clips, said.count, said.language)

    def unsaid(self):
        """Start a new announcement (before a press changes the game)."""
        if self.said is not None:
            self.said.clear()

    def tell(self, text, detail=-1):
        """Add a display.texts sentence (and a second one) to the announcement
        being built (a stop, a notice)."""
        said = self.said
        if said is not None:
            said.text(text)
            if detail >= 0:
                said.text(detail)

    async def repeat(self, ask_void=False):
        """The referee's short press: the last announcement again, presses
        locked out while it plays; with ask_void, then the void question
        (跳猴? press again), which is not kept for the next repeat."""
        said = self.said
        if said is None:
            return
        count = said.count
        truncated = said.truncated
        if ask_void:
            said.text(T.T_VOID_ASK)
            said.text(T.T_PRESS_AGAIN)
        self.speak()
        said.count = count
        said.truncated = truncated
        await self.locked_out()

    async def standings(self):
        """玩家奖品: each player's prizes, the pool and the 状元's holder
        (speech.standings), said aside, presses locked out while it plays."""
        aside = self.aside
        game = self.session.game
        if aside is None or game is None:
            return
        speech.standings(aside, game)
        self.speak(aside)
        await self.locked_out()

    async def scan(self, first):
        """One-switch play (the SCAN setting: seconds an offer stays open):
        the bowl offers `first` (throw, or a new game), 再一次 (the last
        announcement again) and 玩家奖品 (the standings) in turn, each on the
        notice band and spoken; THROW while an offer is said, or within SCAN
        seconds after, takes it.  After a repeat or the standings the offers
        start again from `first`.  Returns THROW for `first`, or a REFEREE
        press as it came (the referee's buttons work as without the scan)."""
        ins = self.inputs
        offers = 2 if self.session.game is None else 3  # no standings before the first game
        offer = 0
        self.noticed = -1  # the screen may have been redrawn (a void question, the menu)
        # what is being said (the end of a game, a resume: not locked out) is
        # heard out first; a press cuts it short and the offers begin
        if self.speaking():
            event = await self.wait(0, True)
            if event == ins.THROW:
                self.board.speaker.stop()
            elif event:
                return event
        while True:
            text = first if offer == 0 else T.T_AGAIN if offer == 1 else T.T_STANDINGS
            self.notice(text)
            aside = self.aside
            if aside is not None:
                aside.clear()
                aside.text(text)
                self.speak(aside)
            event = await self.wait(self.settings[S.SCAN] * 1000, True)
            if event != ins.THROW:
                if event:
                    return event
                offer = (offer + 1) % offers
                if offer == 0 and self.hold >= 0:  # a round unanswered: the result gives way
                    self.hold = -1
                    self.show_turn()
                    self.noticed = -1
            elif offer == 0:
                self.hold = -1
                return event
            else:
                if offer == 1:
                    await self.repeat()
                else:
                    await self.standings()
                offer = 0

    async def locked_out(self):
        """Presses ignored while the announcement just handed over plays."""
        self.inputs.lock()
        while self.speaking():
            await self.clock.sleep_ms(_SERIAL_MS)
        self.inputs.unlock()

    def speaking(self):
        """True while an announcement plays: the caller, which has locked the
        presses (the lock-out of hardware/README.md 9), waits _SERIAL_MS and
        asks again; a plain call, not a coroutine, so the wait allocates
        nothing.  A `sync` line ends the wait early: the press is durable and
        shown, only its words are cut short."""
        if self.said is not None and self.speech_on and self.board.speaker.speaking and not self.polled():
            self.busy_since = self.clock.ticks_ms()  # a healthy wait, however long the words
            return True
        return False

    # --- stops -----------------------------------------------------------------------

    def stop_full(self):
        """The flash is full: play stops with every record kept ("sync needed")."""
        if self.stopped >= 0:
            return
        self.stopped = T.T_FLASH_FULL
        self.lamp(False)
        self.screen.message(T.T_FLASH_FULL, T.T_SYNC_NEEDED)
        self.tell(T.T_FLASH_FULL, T.T_SYNC_NEEDED)
        self.board.sound.play(sounds.ALARM)
        self.live.status("flash_full", self.session.free_space_warning() or "no room for the next record")

    def stop_rng(self):
        """The RNG failed a health test: out of service, never rolls again."""
        self.stopped = T.T_OUT_OF_SERVICE
        self.lamp(False)
        self.screen.message(T.T_OUT_OF_SERVICE, T.T_RNG_FAILED)
        self.tell(T.T_OUT_OF_SERVICE, T.T_RNG_FAILED)
        self.board.sound.play(sounds.ALARM)
        self.note("rng health: %s failed" % self.rng.failed)
        self.live.status("out_of_service", "rng health: %s failed" % self.rng.failed)

    def check_space(self):
        warning = self.session.free_space_warning()
        if warning is None:
            return
        if warning.startswith("Flash full"):
            self.stop_full()
        elif not self.warned:
            self.warned = True
            self.notice(T.T_FLASH_NEARLY_FULL)
            self.tell(T.T_FLASH_NEARLY_FULL)
            self.live.status("flash_warning", warning)

    # --- drawing -----------------------------------------------------------------------

    def ready(self):
        """Presses count again; the lamp says so only from then on."""
        self.inputs.unlock()
        game = self.session.game
        if self.stopped < 0 and game is not None and not game.ended:
            self.lamp(True)

    def lamp(self, on):
        self.lit = on
        self.board.lamp(on)

    def notice(self, text):
        if text != self.noticed:
            self.noticed = text
            self.screen.notice(text)

    def shown_game(self):
        """The game being drawn: there is one whenever a turn, result or end is shown."""
        game = self.session.game
        assert game is not None
        return game

    def zhuangyuan(self):
        """The seat of the 状元 now (-1: nobody), its faces in self._zy_faces
        (unchanged if nobody): no tuple, as drawing a result must not allocate."""
        game = self.shown_game()
        seat = game.holder()
        if seat == ev.NO_SEAT:
            return -1
        code = game.zy_dice[seat]
        faces = self._zy_faces
        for i in range(5, -1, -1):
            faces[i] = code % 6 + 1
            code //= 6
        return seat

    def show_turn(self):
        game = self.shown_game()
        seat = self.zhuangyuan()
        self.screen.turn(game.turn, game.players, game.remaining, seat, self._zy_faces)

    def show_result(self, out):
        game = self.shown_game()
        seat = self.zhuangyuan()
        self.screen.result(
            out.seat,
            out.faces,
            out.award,
            out.best_tier,
            out.best_count,
            out.empty_tier(),
            out.zy_changed and out.new_zy == out.seat,
            game.remaining,
            seat,
            self._zy_faces,
        )

    def show_end(self):
        self.paged_at = self.clock.ticks_ms()
        game = self.shown_game()
        seat = self.zhuangyuan()
        self.screen.end(
            game.end_reason,
            seat,
            self._zy_faces,
            game.holdings,
            game.players,
            self.session.store.audit_code(),
        )

    def redraw(self):
        """The screen of the state we are in (after the menu)."""
        game = self.session.game
        if self.stopped >= 0:
            detail = T.T_SYNC_NEEDED if self.stopped == T.T_FLASH_FULL else T.T_RNG_FAILED
            self.screen.message(self.stopped, detail)
        elif game is None:
            self.screen.attract(self.settings[S.PLAYERS], self.settings[S.PRESET])
        elif game.ended:
            self.show_end()
        else:
            self.show_turn()
        self.noticed = -1
