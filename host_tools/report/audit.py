"""The festival's figures from the database: per bowl and per day, with a fairness audit.

For each bowl: throws, games, the six faces' counts and every award kind's
count against what fair dice give.  The exact probability of each kind
comes from enumerating all 6^6 = 46,656 ordered throws through
bobing.classify under each game's own rules (so a bowl that played
several rule sets is judged against the mix it played).  Two chi-square
tests (scipy): faces against 1/6 each, kinds against the exact
probabilities (kinds expected fewer than 5 times pooled into one cell, as
the test needs).  A bowl whose dice fail either test at the 99 % level
(p < 0.01) is flagged; a bowl whose log showed damage, a broken chain or a
rewritten history has chain_ok false.
"""

from functools import cache
from itertools import product

from bobing.classify import classify, kind_of
from bobing.names import KINDS, TIERS

LEVEL = 0.01  # flagged when p < LEVEL: the dice fail at the 99 % level
MIN_EXPECTED = 5.0  # chi-square cells expected fewer times are pooled


@cache
def kind_odds(flags):
    """Probability of each kind (KIND_* order) for one throw under Rules.flags `flags`."""
    counts = [0] * len(KINDS)
    for dice in product(range(1, 7), repeat=6):
        counts[kind_of(classify(dice, flags))] += 1
    return tuple(n / 6**6 for n in counts)


def chi_square(observed, expected):
    """p-value of observed counts against expected ones (same total), pooling
    small cells; None when fewer than two cells are left (nothing to test)."""
    from scipy.stats import chisquare

    cells = []
    pool_obs = pool_exp = 0.0
    for o, e in zip(observed, expected, strict=True):
        if e < MIN_EXPECTED:
            pool_obs += o
            pool_exp += e
        else:
            cells.append((o, e))
    if pool_exp > 0:
        cells.append((pool_obs, pool_exp))
    if len(cells) < 2 or sum(o for o, _ in cells) == 0:
        return None
    total_obs = sum(o for o, _ in cells)
    total_exp = sum(e for _, e in cells)
    scale = total_obs / total_exp
    return float(chisquare([o for o, _ in cells], [e * scale for _, e in cells]).pvalue)


def _dice_figures(faces, kinds, expected):
    faces_p = chi_square(faces, [sum(faces) / 6] * 6)
    kinds_p = chi_square(kinds, expected)
    failed = [name for name, p in (("faces", faces_p), ("kinds", kinds_p)) if p is not None and p < LEVEL]
    return faces_p, kinds_p, failed


# Each game with its number in its bowl (1, 2, ... in record order), its last
# record (the end, else the last held before the next game), and the 状元
# holder's own throw (games.zy_seq, as the engine gives it: host_tools/sync/db.py).
_WINNERS = """
WITH numbered AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY bowl ORDER BY seq) AS number,
    LEAD(seq) OVER (PARTITION BY bowl ORDER BY seq) AS next FROM games)
SELECT g.bowl, g.seq, g.number,
    COALESCE(g.end_seq, (SELECT MAX(r.seq) FROM records r WHERE r.bowl = g.bowl AND r.seq >= g.seq
                         AND (g.next IS NULL OR r.seq < g.next))),
    g.day, g.zy_seat, t.dice, t.kind, g.end_reason
FROM numbered g LEFT JOIN throws t ON t.bowl = g.bowl AND t.seq = g.zy_seq AND t.n = 0
WHERE g.zy_seat IS NOT NULL ORDER BY g.bowl, g.seq
"""


def figures(conn):
    """The report as one JSON-ready object: {"bowls": [...]}, bowls by id."""
    bowls = {}

    def bowl_entry(bowl):
        if bowl not in bowls:
            bowls[bowl] = {
                "bowl": bowl,
                "throws": 0,
                "games": 0,
                "faces": [0] * 6,
                "kinds": {k: {"count": 0, "expected": 0.0} for k in KINDS},
                "days": {},
                "prizes": dict.fromkeys(TIERS, 0),
                "zhuangyuan": [],
                "issues": [],
                "notes": [],
            }
        return bowls[bowl]

    def day_entry(bowl, day):
        days = bowl_entry(bowl)["days"]
        if day not in days:
            days[day] = {
                "day": day,
                "throws": 0,
                "games": 0,
                "faces": [0] * 6,
                "kinds": [0] * len(KINDS),
                "expected": [0.0] * len(KINDS),
            }
        return days[day]

    rows = conn.execute(
        "SELECT t.bowl, t.day, COALESCE(g.flags, 0), t.kind, COUNT(*), SUM(n1), SUM(n2), SUM(n3), SUM(n4),"
        " SUM(n5), SUM(n6) FROM throws t LEFT JOIN games g ON g.bowl = t.bowl AND g.seq = t.game"
        " GROUP BY t.bowl, t.day, g.flags, t.kind"
    )
    for bowl, day, flags, kind, n, *faces in rows:
        entry = day_entry(bowl, day)
        entry["throws"] += n
        entry["kinds"][kind] += n
        odds = kind_odds(flags)
        for k in range(len(KINDS)):
            entry["expected"][k] += n * odds[k]
        for f in range(6):
            entry["faces"][f] += faces[f]
    for bowl, day, n in conn.execute("SELECT bowl, day, COUNT(*) FROM games GROUP BY bowl, day"):
        day_entry(bowl, day)["games"] += n
    for bowl, tier, n in conn.execute(
        "SELECT bowl, tier, SUM(count) FROM prizes WHERE how != 'take' GROUP BY bowl, tier"
    ):
        bowl_entry(bowl)["prizes"][TIERS[tier]] = n
    for bowl, game, number, last, day, seat, dice, kind, reason in conn.execute(_WINNERS):
        bowl_entry(bowl)["zhuangyuan"].append(
            {
                "game": game,
                "number": number,
                "records": [game, last],
                "day": day,
                "seat": seat,
                "dice": _dice_text(dice),
                "kind": KINDS[kind] if kind is not None else None,
                "ended": reason,
            }
        )
    for bowl, source, text in conn.execute("SELECT bowl, source, text FROM issues ORDER BY rowid"):
        bowl_entry(bowl)["issues" if source == "host" else "notes"].append(text)
    for bowl, recoveries, lifetime_games, lifetime_throws, last_sync in conn.execute(
        "SELECT bowl, recoveries, games, throws, last_sync FROM bowls"
    ):
        entry = bowl_entry(bowl)
        entry["recoveries"] = recoveries
        entry["lifetime"] = {"games": lifetime_games, "throws": lifetime_throws}
        entry["last_sync"] = last_sync
    out = []
    for bowl in sorted(bowls):
        entry = bowls[bowl]
        expected = [0.0] * len(KINDS)
        kinds = [0] * len(KINDS)
        days = []
        for day in sorted(entry["days"]):
            d = entry["days"][day]
            entry["throws"] += d["throws"]
            entry["games"] += d["games"]
            for f in range(6):
                entry["faces"][f] += d["faces"][f]
            for k in range(len(KINDS)):
                kinds[k] += d["kinds"][k]
                expected[k] += d["expected"][k]
            d["faces_p"], d["kinds_p"], d["failed"] = _dice_figures(d["faces"], d["kinds"], d["expected"])
            d["kinds"] = dict(zip(KINDS, d["kinds"], strict=True))
            del d["expected"]
            days.append(d)
        entry["days"] = days
        entry["kinds"] = {k: {"count": kinds[i], "expected": expected[i]} for i, k in enumerate(KINDS)}
        entry["faces_p"], entry["kinds_p"], entry["failed"] = _dice_figures(entry["faces"], kinds, expected)
        entry["flagged"] = bool(entry["failed"])
        entry["chain_ok"] = not entry["issues"]
        entry.setdefault("recoveries", 0)
        out.append(entry)
    return {"level": LEVEL, "bowls": out}


def _dice_text(code):
    if code is None:
        return None
    from bobing.events import dice_of

    return "".join(map(str, dice_of(code)))
