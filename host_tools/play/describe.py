"""What `play` and `replay` say about a game: sentences for its events, the 状元
holder, the standings, and the JSON summary (the `bobing replay --json` contract).

Seats are 0-based in the engine and shown by name (阿明) or number (1号, player 1).
"""

import unicodedata

from bobing import events as ev
from bobing.classify import classify
from bobing.game import STAND_BELOW, STAND_KEPT, STAND_LUGU, STAND_TIE
from bobing.names import KINDS, TIER_NAMES, TIERS, award_names
from host_tools.errors import UsageError
from host_tools.play.texts import pad, width

_ZY = 5
_PLACE = 7  # the place bits of game.stand, without STAND_LUGU
MAX_NAME_COLUMNS = 12  # a name: 6 Chinese characters or 12 letters, so every line fits 80 columns


def tier_label(tier, labels, texts):
    """A tier's name and its prize (the game's label): 对堂（月饼）, or in English its
    meaning with the Chinese after it: Runner-up (对堂: 月饼)."""
    hanzi, _, english = TIER_NAMES[tier]
    prize = labels[tier] if labels else ""
    if texts.lang == "zh":
        return "%s（%s）" % (hanzi, prize) if prize else hanzi
    return "%s (%s: %s)" % (english, hanzi, prize) if prize else "%s (%s)" % (english, hanzi)


def tier_short(tier, texts):
    """A tier's name alone, for a column or the pool line: 对堂, Runner-up."""
    return TIER_NAMES[tier][0 if texts.lang == "zh" else 2]


def throw_name(game, dice, texts):
    """The name of a throw under the game's rules: 五红, or five reds: Champion (五红)."""
    result = classify(dice, game.rules.flags)
    if not result & 15:  # the kind: 0 is a throw that wins nothing
        return texts("no_award")
    hanzi, _, english = award_names(result)
    return hanzi if texts.lang == "zh" else "%s (%s)" % (english, hanzi)


def show_dice(dice):
    return " ".join(map(str, dice))


class Table:
    """The players' names and the language, for everything said about one game."""

    def __init__(self, game, names, texts):
        self.game = game
        self.names = names
        self.texts = texts

    def name(self, seat):
        return self.names[seat]

    def tier(self, tier):
        return tier_label(tier, self.game.labels, self.texts)

    def standing(self, seat):
        """The name of the 状元-class throw a seat stands with."""
        return throw_name(self.game, ev.dice_of(self.game.zy_dice[seat]), self.texts)

    def holder(self):
        """`阿明 五红` while somebody holds the 状元 for now, else `暂无`."""
        top = self.game.top
        if top == ev.NO_SEAT:
            return self.texts("nobody")
        return self.texts("holder_throw", name=self.name(top), throw=self.standing(top))

    def before(self):
        """What the next action's sentences compare against: the 状元 contest as it stands."""
        game = self.game
        return game.top, list(game.zy_dice)

    def narrate(self, before):
        """Lines for the latest action's events; `before` is self.before() taken before it."""
        game, t = self.game, self.texts
        grab = game.rules.get("liubo_hei") == "grab"
        lines = []
        thrower, throw = ev.NO_SEAT, ""
        events = game.last_events()
        top_moved = any(event[0] == ev.ZY for event in events)
        for event in events:
            kind = event[0]
            if kind == ev.THROW:
                thrower, dice = event[1], ev.dice_of(event[2])
                throw = throw_name(game, dice, t)
                lines.append(t("throw", name=self.name(thrower), dice=show_dice(dice), award=throw))
                if not top_moved:
                    lines.extend(self._zy_stays(thrower, throw, before))
            elif kind == ev.VOID:
                lines.append(t("void", name=self.name(event[1])))
            elif kind == ev.SKIP:
                lines.append(t("skip", name=self.name(event[1])))
            elif kind == ev.AWARD:
                lines.append(t("award", name=self.name(event[1]), count=event[3], tier=self.tier(event[2])))
            elif kind == ev.TAKE:
                lines.append(
                    t(
                        "take",
                        name=self.name(event[1]),
                        source=self.name(event[3]),
                        count=event[4],
                        tier=self.tier(event[2]),
                    )
                )
            elif kind == ev.SHARE:
                lines.append(t("grab" if grab else "share", count=event[2], tier=self.tier(event[1])))
            elif kind == ev.ZY:
                lines.append(self._zy_change(event[1], thrower, throw, before))
            elif kind == ev.MISS:
                lines.append(t("miss", tier=self.tier(event[1])))
            elif kind == ev.EXHAUSTED:
                lines.append(t("exhausted", tier=self.tier(event[1])))
            else:
                lines.append(self._end_line(event[1], thrower, throw, grab))
        return lines

    def _zy_change(self, seat, thrower, throw, before):
        # Why the provisional 状元 moved: a first or higher throw, or the holder's own
        # lower throw replacing their earlier one (禄骨), or an equal one (the earlier wins).
        t = self.texts
        old_top, old_dice = before
        if seat == ev.NO_SEAT:
            return t("zy_none")
        name = self.name(seat)
        if seat == thrower:
            if old_top == ev.NO_SEAT:
                return t("zy_first", name=name, throw=throw)
            old_throw = throw_name(self.game, ev.dice_of(old_dice[old_top]), t)
            return t("zy_higher", name=name, throw=throw, old=self.name(old_top), old_throw=old_throw)
        old_throw = throw_name(self.game, ev.dice_of(old_dice[thrower]), t)
        fields = {"name": name, "throw": throw, "old": self.name(thrower), "old_throw": old_throw}
        if self.game.stand & _PLACE == STAND_TIE:
            return t("zy_tie", **fields)
        return t("zy_lugu", new_throw=self.standing(seat), **fields)

    def _zy_stays(self, thrower, throw, before):
        # Why a 状元-class throw did not move the 状元, as the engine decided it
        # (game.stand): its own higher throw replaced (禄骨), an equal earlier throw
        # or a higher one standing above it, or an earlier throw that cannot be replaced.
        game, t = self.game, self.texts
        stand = game.stand
        name = self.name(thrower)
        if stand == STAND_KEPT:
            return [t("zy_kept", name=name, old_throw=self.standing(thrower))]
        lines = []
        if stand & STAND_LUGU:
            old_throw = throw_name(game, ev.dice_of(before[1][thrower]), t)
            lines.append(t("zy_lugu_own", name=name, throw=throw, old_throw=old_throw))
        place = stand & _PLACE
        if place in (STAND_TIE, STAND_BELOW):
            key = "zy_stays_tie" if place == STAND_TIE else "zy_stays_below"
            lines.append(t(key, holder=self.name(game.top), top_throw=self.standing(game.top)))
        return lines

    def _end_line(self, reason, thrower, throw, grab):
        t = self.texts
        if reason == ev.END_POOL_EMPTY:
            return t("end_pool_empty")
        key = {ev.END_LIUBO_HONG: "end_liubo_hong", ev.END_BIANDIJIN: "end_biandijin"}.get(
            reason, "end_grab" if grab else "end_liubo_hei"
        )
        return t(key, name=self.name(thrower), throw=throw)

    def winners(self):
        """The line naming every 状元 winner with their throw, once the game has ended."""
        game, t = self.game, self.texts
        won = []
        for seat in range(game.players):
            count = game.holdings[seat * 6 + _ZY]
            if not count:
                continue
            if game.zy_rank[seat]:
                dice = show_dice(ev.dice_of(game.zy_dice[seat]))
                item = t("winner", name=self.name(seat), throw=self.standing(seat), dice=dice)
                won.append(item + (" x%d" % count if count > 1 else ""))
            else:
                won.append(t("winner_all", name=self.name(seat), n=count))
        if won:
            return t("winners", list=", ".join(won))
        if game.shared[_ZY]:
            return t("zy_grabbed" if game.rules.get("liubo_hei") == "grab" else "zy_shared")
        return t("no_winner")

    def standings(self):
        """Lines of a table, 状元 first: each player's prizes per tier, the pool, the holder marked."""
        game, t = self.game, self.texts
        column = max(width(t("player")), width(t("shared")), *(width(n) for n in self.names))
        heads = [tier_short(tier, t) for tier in range(5, -1, -1)]
        widths = [max(6, width(head) + 1) for head in heads]  # 8 sets: 256 一秀 fit in 6

        def row(label, counts):
            return pad(label, column) + "".join(
                pad(str(n), w, True) for n, w in zip(counts, widths, strict=True)
            )

        lines = [row(t("player"), heads)]
        for seat in range(game.players):
            line = row(self.name(seat), reversed(seat_holdings(game, seat)))
            if seat == game.top and not game.ended:
                line += "  " + t("holder_mark")
            lines.append(line)
        lines.append(row(t("left"), reversed(game.remaining)))
        if any(game.shared):
            lines.append(row(t("shared"), reversed(game.shared)))
        return lines

    def pool(self):
        """The prizes left per tier, 状元 first: `状元1 对堂2 三红4 ...`, `Champion 1 Runner-up 2 ...`."""
        t = self.texts
        items = [(tier_short(tier, t), self.game.remaining[tier]) for tier in range(5, -1, -1)]
        return " ".join(("%s%d" if t.lang == "zh" else "%s %d") % item for item in items)


def seat_holdings(game, seat):
    """Prizes per tier (一秀 first) a 0-based seat holds."""
    return game.holdings[seat * 6 : seat * 6 + 6]


def summary(game):
    """The JSON-ready state of a game (the `bobing replay --json` contract)."""
    zy = game.zhuangyuan()
    return {
        "ended": game.ended,
        "end_reason": game.end_reason_name(),
        "zhuangyuan": None
        if zy is None
        else {
            "player": zy[0] + 1,
            "dice": ev.dice_of(zy[1]),
            "kind": KINDS[zy[2]],
        },
        "holdings": {
            str(seat + 1): dict(zip(TIERS, seat_holdings(game, seat), strict=True))
            for seat in range(game.players)
        },
        "remaining": dict(zip(TIERS, game.remaining, strict=True)),
        "shared": dict(zip(TIERS, game.shared, strict=True)),
    }


# --- names and labels from the command line (and from a saved game) -------------------


def _text_value(text):
    # As typed, in NFKC (full-width letters and digits become plain) so that a saved
    # game reads back the very same text; '#' would start a comment in the file.
    return unicodedata.normalize("NFKC", text).strip()


def tier_of(name):
    """A tier by its id (duitang) or Chinese name (对堂); None if neither."""
    for tier, (hanzi, _, _) in enumerate(TIER_NAMES):
        if name in (TIERS[tier], hanzi):
            return tier
    return None


def parse_label(item, labels):
    """Set labels[tier] from `TIER=PRIZE` (状元=红包 or zhuangyuan=红包); UsageError if bad."""
    tier_name, sep, text = _text_value(item).partition("=")
    tier = tier_of(tier_name.strip())
    text = text.strip()
    if not sep or tier is None or not text:
        raise UsageError(
            "--label %r: expected TIER=PRIZE, TIER one of %s or %s"
            % (item, " ".join(n[0] for n in TIER_NAMES), ", ".join(TIERS))
        )
    if len(text.encode("utf-8")) > ev.MAX_LABEL_BYTES or "#" in text or "\n" in text:
        raise UsageError(
            "--label %r: a prize is at most 10 Chinese characters or 30 letters, without '#'" % item
        )
    labels[tier] = text


def labels_from_list(items):
    """Six labels, 一秀 first, from TIER=PRIZE items."""
    labels = [""] * 6
    for item in items:
        parse_label(item, labels)
    return labels


def parse_names(text):
    """Player names from `阿公,阿嬷,小明` (commas, full-width commas or 、); UsageError if bad."""
    for comma in ("，", "、"):
        text = text.replace(comma, ",")
    names = [_text_value(n) for n in text.split(",")]
    for name in names:
        if not name or width(name) > MAX_NAME_COLUMNS or "#" in name or not name.isprintable():
            raise UsageError(
                "--names %r: each name 1-6 Chinese characters or 1-12 letters, without '#'" % text
            )
    if len(set(names)) != len(names):
        raise UsageError("--names %r: two players have the same name" % text)
    return names


def default_names(players, texts):
    return [texts("default_name", n=seat + 1) for seat in range(players)]
