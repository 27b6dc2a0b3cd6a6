"""Game events and their compact, versioned byte encoding.

Every throw (or void) produces one batch of events; the batch is what the
bowl appends to its flash log and what the host syncs, so the encoding is
small (about 11 bytes for an ordinary throw) and stable.

Batch layout, format 2 (format 1, without the award of THROW, is refused:
no bowl logged it outside development):
    byte 0      FORMAT (2)
    varint      record number of the batch in its game (0, 1, 2, ...)
    varint      number of events before the batch's first, in its game
    events      each: one byte (type << 4 | tier), then its arguments

Events, as decoded tuples (seat numbers 0-based, tiers as classify.TIER_*):
    (THROW, seat, dice_code, award) dice_code = dice_code(dice), 0..46655;
                                    award = the throw's kind and tiers, the
                                    low 10 bits of classify() (names.award_names
                                    reads it), 0..1023
    (VOID, seat)                    referee void / 跳猴: wins nothing
    (SKIP, seat)                    turn skipped after a void
    (AWARD, seat, tier, count)      prizes from the pool
    (TAKE, seat, tier, from_seat, count)  prizes moved from another player
    (SHARE, tier, count)            prizes given to everyone
    (ZY, seat)                      new provisional 状元 holder (NO_SEAT: none)
    (MISS, tier)                    won a tier that is already empty
    (EXHAUSTED, tier)               the tier's last prize is gone
    (END, reason)                   the game is over (END_* reason)
A game's header (encode_header) starts its log: rules, players, sets, first
seat, entropy source, the 答起 starter draw and the prize label of each tier.
A snapshot (encode_snapshot) is a header plus the whole state of the game.
"""

from micropython import const

FORMAT = const(2)
HEADER_FORMAT = const(0x82)
SNAPSHOT_FORMAT = const(2)

THROW = const(1)
VOID = const(2)
SKIP = const(3)
AWARD = const(4)
TAKE = const(5)
SHARE = const(6)
ZY = const(7)
MISS = const(8)
EXHAUSTED = const(9)
END = const(10)

NO_SEAT = const(255)

END_POOL_EMPTY = const(1)
END_LIUBO_HONG = const(2)
END_LIUBO_HEI = const(3)
END_BIANDIJIN = const(4)
END_REASONS = (None, "pool_empty", "liubo_hong", "liubo_hei", "biandijin")

# Where the dice came from (hardware/README.md section 5), recorded in the header.
ENTROPY_UNKNOWN = const(0)
ENTROPY_TRUE = const(1)  # the ESP32's hardware RNG with the radio on
ENTROPY_PSEUDO = const(2)  # the hardware RNG with the radio off: pseudo-random
ENTROPY_SEEDED = const(3)  # SeededBytes: tests and simulations


def dice_code(dice):
    """Six dice as one int 0..46655 (base 6, first die most significant)."""
    code = 0
    for d in dice:
        code = code * 6 + d - 1
    return code


def dice_of(code):
    """Inverse of dice_code: a list of six ints 1..6."""
    dice = [0] * 6
    for i in range(5, -1, -1):
        dice[i] = code % 6 + 1
        code //= 6
    return dice


def put_varint(buf, n):
    """Append n >= 0 to bytearray buf, 7 bits a byte, low first."""
    while n >= 0x80:
        buf.append(n & 0x7F | 0x80)
        n >>= 7
    buf.append(n)


def read_varint(data, pos, into, i):
    """The varint at data[pos] into into[i]; its next position (no tuple:
    the bowl's throw path reads batches and must not allocate).  ValueError
    if data ends inside the number."""
    n = 0
    shift = 0
    while True:
        if pos >= len(data) or shift > 28:
            raise ValueError("truncated event batch")
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            into[i] = n
            return pos
        shift += 7


# Arguments per event type, in tuple order: "s" a seat byte, "c" a count or
# an award (varint), "d" a 2-byte dice code, "r" a reason byte, "t" a tier,
# which rides in the low nibble of the type byte and so costs nothing.
_ARGS = ("", "sdc", "s", "s", "stc", "stsc", "tc", "s", "t", "t", "r")


def encode_batch(record, first_event, events):
    """Bytes of one batch of event tuples."""
    buf = bytearray([FORMAT])
    put_varint(buf, record)
    put_varint(buf, first_event)
    for event in events:
        spec = _ARGS[event[0]]
        tier = spec.find("t")
        buf.append(event[0] << 4 | (event[tier + 1] if tier >= 0 else 0))
        for i in range(len(spec)):
            a = spec[i]
            value = event[i + 1]
            if a == "c":
                put_varint(buf, value)
            elif a == "d":
                buf.append(value >> 8)
                buf.append(value & 255)
            elif a != "t":
                buf.append(value)
    return bytes(buf)


def decode_batch(data):
    """(record, first_event, [event tuples]); ValueError on any malformed byte."""
    event = [0] * EVENT_SIZE
    pos = read_head(data, event)
    record, first = event[1], event[2]
    events = []
    while pos < len(data):
        pos = read_event(data, pos, event)
        events.append(tuple(event[: 1 + len(_ARGS[event[0]])]))
    return record, first, events


# A batch read one event at a time into a list the reader keeps (the bowl's
# throw path reads every batch twice, for the screen and for the speaker, and
# must not allocate: decode_batch makes a list and a tuple an event):
#     event = [0] * EVENT_SIZE
#     pos = read_head(batch, event)
#     while pos < len(batch):
#         pos = read_event(batch, pos, event)   # event[0] its type, then its arguments
EVENT_SIZE = const(5)  # the type and at most four arguments (TAKE)


def read_head(data, event):
    """Where the events of batch `data` start; event[1] its record number,
    event[2] the number of events before it.  ValueError if malformed."""
    if not data or data[0] != FORMAT:
        raise ValueError("unknown event batch format")
    return read_varint(data, read_varint(data, 1, event, 1), event, 2)


def read_event(data, pos, event):
    """The event at data[pos] into `event`, as decode_batch's tuple orders it;
    where the next one starts.  ValueError on a malformed byte."""
    head = data[pos]
    pos += 1
    kind = head >> 4
    tier = head & 15
    if not 1 <= kind < len(_ARGS) or tier > 5 or (tier and "t" not in _ARGS[kind]):
        raise ValueError("bad event type byte %d" % head)
    event[0] = kind
    i = 1
    for a in _ARGS[kind]:
        if a == "t":
            event[i] = tier
        elif a == "c":
            pos = read_varint(data, pos, event, i)
        elif a == "d":
            if pos + 2 > len(data):
                raise ValueError("truncated event batch")
            event[i] = data[pos] << 8 | data[pos + 1]
            pos += 2
        else:
            if pos >= len(data):
                raise ValueError("truncated event batch")
            event[i] = data[pos]
            pos += 1
        i += 1
    return pos


MAX_LABEL_BYTES = const(30)
MAX_DRAW_DICE = const(6)  # a draw is some dice of one roll of six


def encode_header(rules, players, sets, first_seat, labels, entropy, draw_seat, draw):
    """The record that opens a game's log: enough to replay it from nothing.

    Layout: HEADER_FORMAT, players, sets, first seat, entropy (ENTROPY_*),
    the 答起 draw's thrower (NO_SEAT: no draw), its dice count n, n faces
    1..6, rules length, rules (Rules.encode), then per tier (一秀 first) a
    length byte and its UTF-8 label (at most MAX_LABEL_BYTES, checked by Game).
    """
    rule_bytes = rules.encode()
    out = bytearray([HEADER_FORMAT, players, sets, first_seat, entropy, draw_seat, len(draw)])
    out.extend(bytes(draw))
    out.append(len(rule_bytes))
    out.extend(rule_bytes)
    for label in labels:
        raw = label.encode("utf-8")
        out.append(len(raw))
        out.extend(raw)
    return bytes(out)


def decode_header(data):
    """(rules, players, sets, first_seat, labels, entropy, draw_seat, draw);
    ValueError if malformed.  Game checks what the numbers mean together."""
    from bobing.rules import Rules

    if len(data) < 8 or data[0] != HEADER_FORMAT or data[4] > ENTROPY_SEEDED or data[6] > MAX_DRAW_DICE:
        raise ValueError("bad game header")
    pos = 7 + data[6]
    draw = tuple(data[7:pos])
    if pos >= len(data) or any(not 1 <= d <= 6 for d in draw):
        raise ValueError("bad game header")
    end = pos + 1 + data[pos]
    rules = Rules.decode(bytes(data[pos + 1 : end]))
    pos = end
    labels = []
    for _ in range(6):
        if pos >= len(data) or pos + 1 + data[pos] > len(data):
            raise ValueError("bad game header")
        try:
            labels.append(bytes(data[pos + 1 : pos + 1 + data[pos]]).decode("utf-8"))
        except UnicodeError:
            raise ValueError("bad game header") from None
        pos += 1 + data[pos]
    if pos != len(data):
        raise ValueError("bad game header")
    return rules, data[1], data[2], data[3], labels, data[4], data[5], draw


# A snapshot holds a Game's header, then these attributes of it as varints:
# the numbers, then each list whole.  Every field of the state must be here,
# or a restored game plays on differently (tests/test_game_snapshot.py).
_NUMBERS = ("turn", "batches", "event_count", "turns", "end_reason", "top")
_LISTS = (
    "remaining",
    "shared",
    "holdings",
    "duitang_by_chajinhua",
    "zy_rank",
    "zy_turn",
    "zy_dice",
    "zy_kind",
    "zy_exempt",
    "skip_next",
    "last_winner",
)


def encode_snapshot(game):
    """A game's whole state: SNAPSHOT_FORMAT, header length, header, varints."""
    buf = bytearray([SNAPSHOT_FORMAT])
    head = game.header()
    buf.append(len(head))
    buf.extend(head)
    for name in _NUMBERS:
        put_varint(buf, getattr(game, name))
    for name in _LISTS:
        for n in getattr(game, name):
            put_varint(buf, n)
    return bytes(buf)


def decode_snapshot(game_class, data):
    """The game encode_snapshot() saved; ValueError unless it is a valid state."""
    if len(data) < 2 or data[0] != SNAPSHOT_FORMAT:
        raise ValueError("bad game snapshot")
    game = game_class.from_header(bytes(data[2 : 2 + data[1]]))
    pos = 2 + data[1]
    number = [0]
    for name in _NUMBERS:
        pos = read_varint(data, pos, number, 0)
        setattr(game, name, number[0])
    for name in _LISTS:
        target = getattr(game, name)
        for i in range(len(target)):
            pos = read_varint(data, pos, target, i)
    players = game.players
    if pos != len(data) or game.turn >= players or game.end_reason >= len(END_REASONS):
        raise ValueError("bad game snapshot")
    for seat in game.last_winner + [game.top]:
        if seat >= players and seat != NO_SEAT:
            raise ValueError("bad game snapshot")
    for tier in range(6):  # every prize of the sets somewhere: 32 一秀 .. 1 状元 a set
        count = game.remaining[tier] + game.shared[tier]
        for seat in range(players):
            count += game.holdings[seat * 6 + tier]
        if count != (32 >> tier) * game.sets:
            raise ValueError("bad game snapshot")
    return game
