"""`bobing report` over a simulated festival (host_tools/festival.py: the
firmware's Session and Store per bowl, synced every evening): the loaded
bowl is flagged, the fair ones are not (fixed seeds), and the JSON relied
on from outside keeps its shape."""

import json
from itertools import product

import pytest

from bobing.classify import classify, kind_of
from bobing.names import KINDS
from bobing.rules import Rules
from host_tools import audit, db
from host_tools.cli import main
from host_tools.festival import simulate


@pytest.fixture(scope="module")
def festival(tmp_path_factory):
    folder = tmp_path_factory.mktemp("festival")
    database = str(folder / "festival.db")
    ids = simulate(
        str(folder / "bowls"), database, bowls=3, days=2, throws=600, loaded=(1,), load=0.03, seed=7
    )
    return database, ids


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
