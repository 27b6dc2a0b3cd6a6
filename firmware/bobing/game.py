"""A whole game of Bobing as a state machine, identical on the bowl and the desktop.

Game.throw(dice) applies the throw of the seat whose turn it is and returns
the encoded events (bobing.events): the bowl logs those bytes before it shows
anything.  Game.apply(batch) re-applies a logged batch, and snapshot() /
from_snapshot() save and restore the whole state, so a game survives a power
cut and the host can replay it from the log.

Game.start(rules, players, dice, ...) opens a game as the bowl does: it throws
the 答起 starter draw and records it, with the entropy source, in the header.

Seats are 0-based here; tiers are classify.TIER_* (0 一秀 .. 5 状元).
"""

from micropython import const

from bobing import events as ev
from bobing.classify import (
    KIND_BIANDIJIN,
    KIND_CHAJINHUA,
    KIND_LIUBO_HEI,
    KIND_LIUBO_HONG,
    classify,
)

# ENTROPY_* are defined with the header in bobing.events; all four are here too,
# so the firmware session imports Game.start's arguments from one place.
from bobing.events import ENTROPY_PSEUDO, ENTROPY_SEEDED, ENTROPY_TRUE, ENTROPY_UNKNOWN  # noqa: F401
from bobing.rules import (
    CHAJINHUA_DUITANG,
    CHAJINHUA_DUITANG_AT_ONCE,
    CHASE,
    CHASE_FROM,
    CHASE_OFF,
    CHASE_PREVIOUS,
    LIUBO_ENDINGS,
    LIUBO_ENDINGS_ON,
    LIUBO_HEI,
    LIUBO_HEI_CONTINUE,
    LIUBO_HEI_END_SHARED,
    LIUBO_HONG,
    LIUBO_HONG_ALL_BUT_CHAJINHUA,
    LIUBO_HONG_UNCLAIMED,
    ROUNDS,
    ROUNDS_EQUAL,
    VOID,
    VOID_SKIP,
)

TIER_SIZES = (32, 16, 8, 4, 2, 1)  # prizes per set of 63, 一秀 first
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(20)
MAX_SETS = const(8)

_YIXIU = const(0)
_SANHONG = const(3)
_DUITANG = const(4)
_ZY = const(5)
# How the latest throw stood in the 状元 contest (Game.stand), for whoever explains
# a throw that won nothing: its place, plus STAND_LUGU if it replaced the seat's own
# higher throw (禄骨, 最后一次为准).  Public only what the host tools read: each
# public name is a global the bowl keeps in RAM.
_STAND_NONE = const(0)  # no 状元-class throw
_STAND_TOP = const(1)  # it holds the 状元 now
STAND_TIE = const(2)  # an equal throw thrown earlier stands above it
STAND_BELOW = const(3)  # a higher throw stands above it
STAND_KEPT = const(4)  # ignored: the seat's earlier throw cannot be replaced (六勃黑, seed 003)
STAND_LUGU = const(8)
_BATCH_BYTES = const(48)  # room kept for a batch: an ordinary one is about 11 bytes
_AWARD_BITS = const(0x3FF)  # kind and tiers of a classify() result: the THROW event's award
# The highest tier in a bit set of tiers 0..4 (the index, 1..31): a throw that
# wins two tiers (四进带一秀) takes the higher one first.
_TOP_TIER = const(
    b"\x00\x00\x01\x01\x02\x02\x02\x02"
    b"\x03\x03\x03\x03\x03\x03\x03\x03"
    b"\x04\x04\x04\x04\x04\x04\x04\x04"
    b"\x04\x04\x04\x04\x04\x04\x04\x04"
)
# The lowest tier 追 applies to, per chase_from value (duitang, sanhong, all).
_CHASE_FROM_TIER = b"\x04\x03\x00"


def starter_dice_count(players):
    """Dice for the starter draw (答起): enough that the top sum exceeds the players.

    Seeds 000 and 001 throw two dice; seed 003 "骰子最大点数之和，应大干选手人数" (sic).
    """
    return max(2, players // 6 + 1)


def starter_seat(thrower, total, players):
    """First seat: counting the thrower as 1, the `total`-th player in turn order."""
    return (thrower + total - 1) % players


class Game:
    """State of one game: pool, holdings, the 状元 contest, turn and end.

    The lists are read directly (one name for each thing): remaining[tier]
    prizes in the pool, holdings[seat * 6 + tier] prizes a seat holds (the 状元
    only once handed over), shared[tier] prizes shared by everyone.
    """

    def __init__(
        self,
        rules,
        players,
        sets=1,
        first_seat=0,
        log=True,
        labels=None,
        entropy=ENTROPY_UNKNOWN,
        draw=(),
        draw_seat=ev.NO_SEAT,
    ):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError("players must be %d to %d" % (MIN_PLAYERS, MAX_PLAYERS))
        if not 1 <= sets <= MAX_SETS:
            raise ValueError("sets must be 1 to %d" % MAX_SETS)
        if not 0 <= first_seat < players:
            raise ValueError("first seat must be 0 to %d" % (players - 1))
        if not ENTROPY_UNKNOWN <= entropy <= ENTROPY_SEEDED:
            raise ValueError("unknown entropy source %d" % entropy)
        if draw or draw_seat != ev.NO_SEAT:
            _check_draw(players, first_seat, draw, draw_seat)
        self.rules = rules
        # What each tier's prize is, 一秀 first (沐浴露, 红包...); "" shows the tier's name.
        self.labels = list(labels) if labels else [""] * 6
        if len(self.labels) != 6:
            raise ValueError("one prize label per tier: 6")
        for label in self.labels:
            if len(label.encode("utf-8")) > ev.MAX_LABEL_BYTES:
                raise ValueError("prize label longer than %d bytes: %s" % (ev.MAX_LABEL_BYTES, label))
        self.log = log  # False: no batch (throw() returns None, no last_events()), for fast simulations
        self.players = players
        self.sets = sets
        self.first_seat = first_seat
        self.entropy = entropy  # ENTROPY_*: how the dice were made
        self.draw = tuple(draw)  # the 答起 draw's faces, () if the first seat was chosen
        self.draw_seat = draw_seat  # who threw the draw, NO_SEAT if none
        self.turn = first_seat
        self.batches = 0  # batches so far: the record number of the next one
        self.event_count = 0  # events so far in this game
        self.turns = 0  # turns taken (throws, voids and skipped turns)
        self.end_reason = 0
        self.remaining = [n * sets for n in TIER_SIZES]
        self.shared = [0] * 6
        self.holdings = [0] * (6 * players)
        self.duitang_by_chajinhua = [0] * players  # kept through a 六勃红 (seed 000 part 3)
        # Each player's latest 状元-class throw (最后一次为准): rank 0 = none.
        self.zy_rank = [0] * players
        self.zy_turn = [0] * players  # when it was thrown: ties go to the earlier
        self.zy_dice = [0] * players
        self.zy_kind = [0] * players
        self.zy_exempt = [0] * players  # 六勃黑 under seed 003: no 禄骨
        self.skip_next = [0] * players
        self.last_winner = [ev.NO_SEAT] * 6  # for 追 to the previous winner
        self.top = ev.NO_SEAT
        self.stand = _STAND_NONE  # STAND_* of the latest throw
        self._batch = bytearray(_BATCH_BYTES)
        # Bit set of the event types (1 << THROW ...) in the latest batch: what
        # happened, without decoding it (simulations, sounds).
        self.event_types = 0

    @classmethod
    def start(
        cls, rules, players, dice, sets=1, labels=None, entropy=ENTROPY_UNKNOWN, first_seat=-1, into=None
    ):
        """A new game whose first seat comes from the 答起 draw: seat 0 throws
        starter_dice_count(players) dice of one roll of `dice` (a bobing.dice.Dice);
        the draw and the entropy source go into the header.  first_seat >= 0:
        that seat starts, with no draw.  into: a Game no longer wanted, made
        into the new one (the bowl's session: its table of 29 attributes is
        kept, not grown again through eight reallocations, the last one 232
        contiguous bytes on an ESP32)."""
        draw = ()
        draw_seat = ev.NO_SEAT
        if first_seat < 0:
            draw = tuple(dice.roll()[: starter_dice_count(players)])
            first_seat = starter_seat(0, sum(draw), players)
            draw_seat = 0
        game = object.__new__(cls) if into is None else into
        cls.__init__(
            game,
            rules,
            players,
            sets,
            first_seat,
            labels=labels,
            entropy=entropy,
            draw=draw,
            draw_seat=draw_seat,
        )
        return game

    # --- reading the state -------------------------------------------------

    @property
    def ended(self):
        return self.end_reason != 0

    def end_reason_name(self):
        return ev.END_REASONS[self.end_reason]

    def zhuangyuan(self):
        """(seat, dice_code, kind) of the 状元: the provisional holder while the game
        goes on, the one holding the prize once it has ended (the best throw
        among them with several sets); None if nobody has it (or all grabbed it)."""
        seat = self.holder()
        if seat == ev.NO_SEAT:
            return None
        return seat, self.zy_dice[seat], self.zy_kind[seat]

    def holder(self):
        """The seat zhuangyuan() names, or NO_SEAT; with zy_dice[seat] and
        zy_kind[seat] it is the same answer without a tuple, for the bowl's
        throw path (which must not allocate, docs/memory.md)."""
        seat = self.top
        if self.end_reason:
            seat = ev.NO_SEAT
            for s in range(self.players):
                if self.holdings[s * 6 + _ZY] and (seat == ev.NO_SEAT or self._beats(s, seat)):
                    seat = s
        return seat

    # --- playing ------------------------------------------------------------

    def throw(self, dice):
        """Apply six dice (ints 1..6) for the seat whose turn it is; returns the
        encoded event batch to log.  ValueError if the game has ended."""
        if self.log or self.end_reason:  # else _begin has nothing to do for a throw
            self._begin()
        seat = self.turn
        result = classify(dice, self.rules.flags)
        # The fields of the result read in place (classify's rank_of, tiers_of, kind_of): no calls.
        rank = result >> 10
        if self.log:
            code = ev.dice_code(dice)
            buf = self._batch
            buf.append(ev.THROW << 4)
            buf.append(seat)
            buf.append(code >> 8)
            buf.append(code & 255)
            ev.put_varint(buf, result & _AWARD_BITS)
        self.event_count += 1
        self.event_types = 1 << ev.THROW
        kind = result & 15
        self.stand = _STAND_NONE
        if rank:
            self._stand(seat, rank, dice, kind)
        tiers = (result >> 4) & 31  # the 状元 (bit 5) is handed out when the game ends
        while tiers:  # higher tier first: 四进 before its 一秀
            tier = _TOP_TIER[tiers]
            self._win(seat, tier)
            tiers ^= 1 << tier
        if kind >= KIND_CHAJINHUA:  # the kinds that take, sweep or end: KIND_CHAJINHUA and above
            options = self.rules.index
            if kind == KIND_CHAJINHUA and options[CHAJINHUA_DUITANG] == CHAJINHUA_DUITANG_AT_ONCE:
                self._take_remaining(seat, _DUITANG)
            # with the endings off these are plain 状元 throws (seeds 000 part 3, 001 may ignore them)
            if options[LIUBO_ENDINGS] == LIUBO_ENDINGS_ON:
                if kind == KIND_LIUBO_HONG:
                    self._liubo_hong(seat)
                elif kind == KIND_BIANDIJIN:
                    self._sweep_table(seat, ev.END_BIANDIJIN)
                elif kind == KIND_LIUBO_HEI:
                    self._liubo_hei(seat)
        return self._finish_turn()

    def void(self):
        """The referee voids the current seat's throw (跳猴): it wins nothing."""
        self._begin()
        seat = self.turn
        self._emit(ev.VOID << 4, seat)
        if self.rules.index[VOID] == VOID_SKIP:
            self.skip_next[seat] = 1
        return self._finish_turn()

    def apply(self, batch):
        """Re-apply a logged batch; ValueError unless it is exactly the batch
        this game produces next (same record number, same events)."""
        record, _, events = ev.decode_batch(batch)
        if record != self.batches or not events:
            raise ValueError("batch %d does not follow record %d" % (record, self.batches))
        first = events[0]
        if first[0] not in (ev.THROW, ev.VOID):
            raise ValueError("batch %d starts with no throw" % record)
        if first[1] != self.turn:
            raise ValueError("batch %d: seat %d is not on turn" % (record, first[1]))
        again = self.throw(ev.dice_of(first[2])) if first[0] == ev.THROW else self.void()
        if again != batch:
            raise ValueError("batch %d does not match the rules of this game" % record)

    def last_events(self):
        """The event tuples of the latest batch (decoded from it: for the host and
        the display, not the throw path)."""
        return ev.decode_batch(self._batch)[2]

    def _begin(self):
        if self.end_reason:
            raise ValueError("the game has ended")
        # The batch is written in place into one reused bytearray: a throw
        # allocates only the bytes it returns.
        self.event_types = 0
        if self.log:
            buf = self._batch
            buf[:] = b""
            buf.append(ev.FORMAT)
            ev.put_varint(buf, self.batches)
            ev.put_varint(buf, self.event_count)

    def _emit(self, head, arg=-1, arg2=-1, count=-1):
        # Append one event: its type byte (type << 4 | tier), then up to two
        # byte arguments (seat or reason) and a count, as bobing.events lays them out.
        self.event_count += 1
        self.event_types |= 1 << (head >> 4)
        if not self.log:
            return
        buf = self._batch
        buf.append(head)
        if arg >= 0:
            buf.append(arg)
        if arg2 >= 0:
            buf.append(arg2)
        if count >= 0:
            ev.put_varint(buf, count)

    def _finish_turn(self):
        self.turns += 1
        left = self.remaining
        while not self.end_reason:
            if not (left[0] or left[1] or left[2] or left[3] or left[4]):  # no call while prizes are left
                self._check_normal_end()
                if self.end_reason:
                    break
            seat = (self.turn + 1) % self.players
            self.turn = seat
            if not self.skip_next[seat]:
                break
            # a skipped turn still counts as a turn, so rounds stay equal
            self.skip_next[seat] = 0
            self._emit(ev.SKIP << 4, seat)
            self.turns += 1
        self.batches += 1
        if self.log:
            return bytes(self._batch)
        return None

    # --- prizes ---------------------------------------------------------------

    def _give(self, seat, tier, count):
        self.remaining[tier] -= count
        self.holdings[seat * 6 + tier] += count
        self._emit(ev.AWARD << 4 | tier, seat, -1, count)
        if tier != _ZY:
            self.last_winner[tier] = seat
        if self.remaining[tier] == 0:
            self._emit(ev.EXHAUSTED << 4 | tier)

    def _move(self, seat, tier, source, count):
        self.holdings[source * 6 + tier] -= count
        self.holdings[seat * 6 + tier] += count
        self._emit(ev.TAKE << 4 | tier, seat, source, count)

    def _win(self, seat, tier):
        # One prize of a tier won by a throw: first come first served (拿完为止).
        if self.remaining[tier]:
            self._give(seat, tier, 1)
            return
        source = self._chase_source(seat, tier)
        if source == ev.NO_SEAT:
            self._emit(ev.MISS << 4 | tier)
        else:
            self._move(seat, tier, source, 1)
            self.last_winner[tier] = seat

    def _chase_source(self, seat, tier):
        # Whom 追 takes an empty tier's prize from, or NO_SEAT.
        options = self.rules.index
        chase = options[CHASE]
        if chase == CHASE_OFF or tier < _CHASE_FROM_TIER[options[CHASE_FROM]]:
            return ev.NO_SEAT
        if chase == CHASE_PREVIOUS:
            source = self.last_winner[tier]
            if source != seat and source != ev.NO_SEAT and self.holdings[source * 6 + tier]:
                return source
            return ev.NO_SEAT
        # nearest holder counting back against the turn order
        for back in range(1, self.players):
            source = (seat - back) % self.players
            if self.holdings[source * 6 + tier]:
                return source
        return ev.NO_SEAT

    def _take_remaining(self, seat, tier):
        count = self.remaining[tier]
        if count:
            self._give(seat, tier, count)
            if tier == _DUITANG:
                self.duitang_by_chajinhua[seat] += count

    # --- the 状元 contest -----------------------------------------------------

    def _stand(self, seat, rank, dice, kind):
        # Record a 状元-class throw: it replaces the seat's own earlier one, even a
        # better one (禄骨), unless the earlier one is exempt (六勃黑, seed 003).
        old_rank = self.zy_rank[seat]
        if self.zy_exempt[seat] and rank < old_rank:
            self.stand = STAND_KEPT
            return
        self.zy_rank[seat] = rank
        self.zy_turn[seat] = self.turns
        self.zy_dice[seat] = ev.dice_code(dice)
        self.zy_kind[seat] = kind
        new_top = self._best_standing(False)
        if new_top == seat:
            self.stand = _STAND_TOP
        elif self.zy_rank[new_top] == rank:
            self.stand = STAND_TIE
        else:
            self.stand = STAND_BELOW
        if rank < old_rank:
            self.stand |= STAND_LUGU
        if new_top != self.top:
            self.top = new_top
            self._emit(ev.ZY << 4, new_top)

    def _beats(self, a, b):
        # True if seat a's 状元 throw outranks seat b's: a higher rank, or an equal
        # one thrown earlier (003: "带的点数相等则先博得者拓后博得者").
        rank_a = self.zy_rank[a]
        rank_b = self.zy_rank[b]
        return rank_a > rank_b or (rank_a == rank_b and self.zy_turn[a] < self.zy_turn[b])

    def _best_standing(self, skip_prized):
        # The seat with the best 状元 throw, NO_SEAT if nobody threw one; with
        # skip_prized, among the seats not yet holding a 状元 prize.
        best = ev.NO_SEAT
        for seat in range(self.players):
            if not self.zy_rank[seat] or (skip_prized and self.holdings[seat * 6 + _ZY]):
                continue
            if best == ev.NO_SEAT or self._beats(seat, best):
                best = seat
        return best

    def _award_zhuangyuan(self):
        # At the end: the best 状元 throws take the 状元 prizes, one each.
        first = ev.NO_SEAT
        for _ in range(self.remaining[_ZY]):
            seat = self._best_standing(True)
            if seat == ev.NO_SEAT:
                break
            self._give(seat, _ZY, 1)
            if first == ev.NO_SEAT:
                first = seat
        if first != ev.NO_SEAT and self.zy_kind[first] == KIND_CHAJINHUA:
            self._collect_duitang(first)

    def _collect_duitang(self, seat):
        # Seed 001: the final 插金花 or 六勃红 takes every 对堂 at the end of the game.
        if self.rules.index[CHAJINHUA_DUITANG] == CHAJINHUA_DUITANG_AT_ONCE:
            return
        self._take_remaining(seat, _DUITANG)
        for source in range(self.players):
            count = self.holdings[source * 6 + _DUITANG]
            if source != seat and count:
                self._move(seat, _DUITANG, source, count)

    # --- endings ----------------------------------------------------------------

    def _check_normal_end(self):
        # Called once every tier but the 状元 is empty: the game ends unless a 状元
        # holder or an equal round is still due.
        if self.remaining[_ZY]:
            standing = 0
            for rank in self.zy_rank:
                if rank:
                    standing += 1
            if standing < self.remaining[_ZY]:
                return  # every prize needs a holder, the 状元 included
        if self.rules.index[ROUNDS] == ROUNDS_EQUAL and self.turns % self.players:
            return  # seed 003: every player has had the same number of turns
        self._award_zhuangyuan()
        self._end(ev.END_POOL_EMPTY)

    def _end(self, reason):
        self.end_reason = reason
        self._emit(ev.END << 4, reason)

    def _liubo_hong(self, seat):
        # 六勃红: the game ends; the thrower takes every unclaimed prize, and by
        # option what others had won too.
        option = self.rules.index[LIUBO_HONG]
        if option != LIUBO_HONG_UNCLAIMED:
            keep_chajinhua = option == LIUBO_HONG_ALL_BUT_CHAJINHUA
            for source in range(self.players):
                if source == seat:
                    continue
                for tier in range(6):
                    count = self.holdings[source * 6 + tier]
                    if tier == _DUITANG and keep_chajinhua:
                        count -= self.duitang_by_chajinhua[source]
                    if count:
                        self._move(seat, tier, source, count)
        self._collect_duitang(seat)
        self._sweep_table(seat, ev.END_LIUBO_HONG)

    def _sweep_table(self, seat, reason):
        # The thrower takes everything still in the pool, the 状元 included.
        for tier in range(6):
            if self.remaining[tier]:
                self._give(seat, tier, self.remaining[tier])
        self._end(reason)

    def _liubo_hei(self, seat):
        option = self.rules.index[LIUBO_HEI]
        if option == LIUBO_HEI_CONTINUE:
            # seed 003: takes the remaining 三红 and 对堂, holds the 状元 until a 六勃红
            self.zy_exempt[seat] = 1
            self._take_remaining(seat, _DUITANG)
            if self.remaining[_SANHONG]:
                self._give(seat, _SANHONG, self.remaining[_SANHONG])
            return
        if option == LIUBO_HEI_END_SHARED:
            # seed 004: the game ends at once; unclaimed prizes are shared by all
            self._award_zhuangyuan()
        for tier in range(6):  # "grab": lights off, the 状元 too (seed 000 part 1)
            count = self.remaining[tier]
            if count:
                self.remaining[tier] = 0
                self.shared[tier] += count
                self._emit(ev.SHARE << 4 | tier, -1, -1, count)
        self._end(ev.END_LIUBO_HEI)

    # --- saving -------------------------------------------------------------------

    def header(self):
        """The record that opens this game's log (bobing.events.encode_header)."""
        return ev.encode_header(
            self.rules,
            self.players,
            self.sets,
            self.first_seat,
            self.labels,
            self.entropy,
            self.draw_seat,
            self.draw,
        )

    @classmethod
    def from_header(cls, data):
        """The game a header opens; ValueError if the header is malformed."""
        rules, players, sets, first_seat, labels, entropy, draw_seat, draw = ev.decode_header(data)
        return cls(rules, players, sets, first_seat, True, labels, entropy, draw, draw_seat)

    def snapshot(self):
        """The whole state as bytes (bobing.events.encode_snapshot)."""
        return ev.encode_snapshot(self)

    @classmethod
    def from_snapshot(cls, data):
        """Inverse of snapshot(); ValueError if the bytes are not a valid state."""
        return ev.decode_snapshot(cls, data)


def _check_draw(players, first_seat, draw, draw_seat):
    # ValueError unless `draw` is a 答起 draw by `draw_seat` that names `first_seat`.
    if (
        draw_seat >= players
        or len(draw) != starter_dice_count(players)
        or any(not 1 <= d <= 6 for d in draw)
        or first_seat != starter_seat(draw_seat, sum(draw), players)
    ):
        raise ValueError("bad starter draw")
