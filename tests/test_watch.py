"""`bobing watch` on a file of the bowl's event lines (the schema of issue 8):
what a spectator's screen shows."""

import json

from host_tools.cli import main
from host_tools.commands.watch_cmd import WatchState

EVENTS = [
    {"event": "game", "players": 4, "rules": "xiamen", "resumed": False, "throws": 0, "last": None},
    {"event": "throw", "seat": 1, "dice": [4, 1, 2, 3, 5, 6], "kind": "yixiu"},
    {"event": "throw", "seat": 2, "dice": [4, 4, 4, 4, 1, 2], "kind": "sihong"},
    {"event": "throw", "seat": 3, "dice": [2, 2, 2, 2, 2, 1], "kind": "wuzi"},
    {
        "event": "throw",
        "seat": 4,
        "dice": [4, 4, 1, 4, 2, 3],
        "kind": "sanhong",
        "remaining": {"yixiu": 31, "erju": 16, "sijin": 8, "sanhong": 7, "duitang": 2, "zhuangyuan": 1},
    },
]


def test_the_best_zhuangyuan_throw_holds_and_the_view_follows_the_events(tmp_path, capsys):
    path = tmp_path / "events.txt"
    lines = [json.dumps(e) for e in EVENTS]
    lines.insert(2, ">>> some REPL text")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["watch", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seat 3 with 222221 (wuzi)" in out  # 五子 outranks the earlier 四红
    assert "seat 4: 441423" in out and "三红" in out
    assert "一秀 31" in out and "状元 1" in out
    assert "other lines" in out


def test_the_end_event_shows_every_seats_prizes():
    state = WatchState()
    for e in EVENTS:
        state.line(json.dumps(e))
    state.line(
        json.dumps(
            {
                "event": "end",
                "reason": "pool_empty",
                "holdings": {"2": {"yixiu": 3, "zhuangyuan": 0}, "1": {"yixiu": 0, "duitang": 1}},
            }
        )
    )
    rows = dict(state.rows())
    assert rows["game over"] == "pool_empty"
    assert rows["seat 1"] == "对堂 1" and rows["seat 2"] == "一秀 3"
    assert not state.line("not json") and not state.line("[1, 2]")


def test_a_missing_file_or_port_is_one_line(tmp_path, capsys):
    assert main(["watch", "--file", str(tmp_path / "none.txt")]) == 2
    assert main(["watch", "--port", str(tmp_path / "ttyNONE")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "cannot read" in err[0] and "cannot open the port" in err[1]
