"""`bobing report` over a simulated festival (host_tools/festival.py: the
firmware's Session and Store per bowl, synced every evening): the loaded
bowl is flagged, the fair ones are not (fixed seeds), and the JSON relied
on from outside keeps its shape."""

import json
import os
from itertools import product

import pytest
from scipy.stats import chi2

from bobing.classify import classify, kind_of
from bobing.dice import Dice, SeededBytes
from bobing.names import KINDS, TIERS
from bobing.rules import Rules
from bobing.session import Session
from bobing.store.store import Store
from host_tools.cli import main
from host_tools.festival import simulate
from host_tools.report import audit
from host_tools.sync import db, syncer


@pytest.fixture(scope="module")
def festival(made_once):
    ids, folder = made_once("festival", three_bowls_two_days)
    return str(folder / "festival.db"), ids


def three_bowls_two_days(folder):
    return simulate(
        str(folder / "bowls"),
        str(folder / "festival.db"),
        bowls=3,
        days=2,
        throws=600,
        loaded=(1,),
        load=0.03,
        seed=7,
    )


def report_json(database, capsys):
    assert main(["report", "--db", database, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_loaded_bowl_is_flagged_and_the_fair_ones_are_not(festival, capsys):
    database, ids = festival
    report = report_json(database, capsys)
    by_id = {b["bowl"]: b for b in report["bowls"]}
    assert sorted(by_id) == sorted(ids)
    assert by_id[ids[1]]["flagged"] and by_id[ids[1]]["faces_p"] < 0.01
    assert by_id[ids[1]]["faces"][5] == max(by_id[ids[1]]["faces"])  # the sixes
    for fair in (ids[0], ids[2]):
        assert not by_id[fair]["flagged"]
        assert by_id[fair]["faces_p"] > 0.01 and by_id[fair]["kinds_p"] > 0.01
    for b in report["bowls"]:
        # the contract's keys and types
        assert isinstance(b["throws"], int) and isinstance(b["games"], int)
        assert b["chain_ok"] is True and isinstance(b["flagged"], bool)
        assert len(b["faces"]) == 6 and sum(b["faces"]) == 6 * b["throws"]
        assert [d["day"] for d in b["days"]] == ["2026-09-25", "2026-09-26"]
        assert sum(d["throws"] for d in b["days"]) == b["throws"]


def test_the_text_report_puts_the_alarm_first_and_html_embeds_its_plots(festival, capsys, tmp_path):
    database, ids = festival
    assert main(["report", "--db", database, "--html", str(tmp_path / "out")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bowl %s: dice FAIL at the 99%% level" % ids[1])
    assert not any("FAIL" in line for line in lines[1:])
    page = open(tmp_path / "out" / "index.html", encoding="utf-8").read()
    assert page.index("class='alarm'") < page.index("<h2>Bowls</h2>")
    assert page.count("src='data:image/png;base64,") == 2 * len(ids)
    assert "src='http" not in page and "src='faces" not in page  # self-contained


def test_a_broken_chain_is_flagged_in_red_at_the_top(festival, capsys, tmp_path):
    database, ids = festival
    copy = str(tmp_path / "copy.db")
    conn = db.connect(database)
    conn.execute("VACUUM INTO ?", (copy,))
    conn.close()
    conn = db.connect(copy)
    db.add_issues(
        conn, ids[2], "2026-09-26", [("host", "record 9: chain link broken: a record before it was edited")]
    )
    conn.close()
    report = report_json(copy, capsys)
    assert [b["chain_ok"] for b in report["bowls"] if b["bowl"] == ids[2]] == [False]
    assert main(["report", "--db", copy]) == 0
    first = capsys.readouterr().out.splitlines()[:2]
    assert any(line.startswith("bowl %s: log NOT intact: record 9" % ids[2]) for line in first)


def test_expected_counts_come_from_every_one_of_the_46656_throws():
    odds = audit.kind_odds(Rules("xiamen").flags)
    assert sum(odds) == pytest.approx(1.0)
    duitang = sum(
        1
        for d in product(range(1, 7), repeat=6)
        if KINDS[kind_of(classify(d, Rules("xiamen").flags))] == "duitang"
    )
    assert odds[KINDS.index("duitang")] == duitang / 46656 == 720 / 46656


def test_bad_databases_are_one_line_each(tmp_path, capsys):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 100)
    assert main(["report", "--db", str(junk)]) == 2
    assert main(["report", "--db", str(tmp_path / "missing.db")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "not a usable database" in err[0] and "no such database" in err[1]
    assert not (tmp_path / "missing.db").exists()


def test_a_prize_taken_from_another_seat_is_not_counted_as_a_second_prize_given(tmp_path):
    """A festival hands out each prize once: a game ended by folk's 六勃红,
    which takes back what the others won, still reports the 63 prizes of one
    set (32 一秀 ... 1 状元), not 63 plus every prize taken."""
    root = str(tmp_path / "bowl" / "data")
    os.makedirs(root)
    with open(os.path.join(root, "id"), "w") as f:
        f.write("b0b1a90000000001")
    session = Session(Store(root), Dice(SeededBytes(3)))
    session.boot()
    session.new_game(Rules("folk"), 4)
    for _ in range(40):
        session.throw()
    session.throw([4, 4, 4, 4, 4, 4])
    assert session.game.ended
    conn = db.connect(str(tmp_path / "f.db"))
    syncer.sync(conn, syncer.DirSource(root), "2026-09-25", "t")
    taken = conn.execute("SELECT SUM(count) FROM prizes WHERE how = 'take'").fetchone()[0]
    assert taken  # the 六勃红 took prizes the others held
    (bowl,) = audit.figures(conn)["bowls"]
    assert bowl["prizes"] == dict(zip(TIERS, (32, 16, 8, 4, 2, 1), strict=True))


def test_the_chi_square_p_values_are_those_of_the_textbook_test():
    """A fair bowl is flagged 1 time in 100 at the 99 % level, no more: the
    p-values match the chi-square test worked by hand, with one degree of
    freedom fewer than the cells (one too few flags fair bowls about twice as often)."""
    # faces: statistic (400 + 400 + 0 + 0 + 25 + 25) / 100 = 8.5, 5 degrees of freedom
    assert audit.chi_square([80, 120, 100, 100, 95, 105], [100] * 6) == pytest.approx(chi2.sf(8.5, 5))
    assert chi2.sf(8.5, 5) == pytest.approx(0.130748, abs=1e-6)
    # kinds: the cells expected fewer than 5 times (4, 1, 1) pooled into one (6, observed 5):
    # 25/45 + 25/35 + 1/14 + 1/6 over 4 cells, 3 degrees of freedom
    statistic = 25 / 45 + 25 / 35 + 1 / 14 + 1 / 6
    p = audit.chi_square([50, 30, 15, 3, 1, 1], [45, 35, 14, 4, 1, 1])
    assert p == pytest.approx(chi2.sf(statistic, 3)) == pytest.approx(0.680440, abs=1e-6)
