"""tools/import_check.py, which `make check` runs: it finds the import circles it must
(between modules, between parts, through an import inside a function) and names them."""

import importlib.util
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def check(tmp_path, monkeypatch):
    """The checker over a tree of our own (tmp_path/host_tools, tmp_path/firmware)."""
    spec = importlib.util.spec_from_file_location(
        "import_check", os.path.join(ROOT, "tools", "import_check.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "ROOT", str(tmp_path))
    monkeypatch.setattr(module, "TREES", (("", ("host_tools",), 2), ("firmware", ("bobing", "sim"), 1)))
    monkeypatch.setattr(module, "PENDING", ())
    return module


def write(root, files):
    for path, text in files.items():
        full = root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(text)


TREE = {
    "host_tools/__init__.py": "",
    "host_tools/cli.py": "from host_tools.commands import a_cmd\n",
    "host_tools/errors.py": "class UsageError(Exception):\n    pass\n",
    "host_tools/commands/__init__.py": "",
    "host_tools/commands/a_cmd.py": "from host_tools.errors import UsageError\nfrom host_tools.sync import db\n",
    "host_tools/sync/__init__.py": "",
    "host_tools/sync/db.py": "import os\nfrom . import syncer\n",
    "host_tools/sync/syncer.py": "import sqlite3\n",
    "firmware/bobing/__init__.py": "",
    "firmware/bobing/rules.py": "from bobing.names import KINDS\n",
    "firmware/bobing/names.py": "KINDS = ()\n",
}


def test_a_tree_without_circles_passes(check, tmp_path, capsys):
    write(tmp_path, TREE)
    assert check.main([]) == 0
    assert "no import circle" in capsys.readouterr().out


def test_a_circle_through_a_function_import_fails_and_is_named(check, tmp_path, capsys):
    write(tmp_path, {**TREE, "host_tools/errors.py": "def late():\n    from host_tools import cli\n"})
    assert check.main([]) == 1
    out = capsys.readouterr().out
    assert (
        "module circle: host_tools.cli -> host_tools.commands.a_cmd -> host_tools.errors -> host_tools.cli"
        in out
    )
    assert "host_tools/errors.py:2" in out  # where the import that closes it is


def test_a_relative_import_counts(check, tmp_path, capsys):
    write(tmp_path, {**TREE, "host_tools/sync/syncer.py": "from .db import x\n"})
    assert check.main([]) == 1
    assert (
        "module circle: host_tools.sync.db -> host_tools.sync.syncer -> host_tools.sync.db"
        in capsys.readouterr().out
    )


def test_folders_that_import_each_other_fail_as_parts(check, tmp_path, capsys):
    # no module imports itself back, but sync/ and commands/ depend on each other
    write(tmp_path, {**TREE, "host_tools/sync/syncer.py": "from host_tools.commands import b_cmd\n"})
    write(tmp_path, {"host_tools/commands/b_cmd.py": ""})
    assert check.main([]) == 1
    out = capsys.readouterr().out
    assert "module circle" not in out
    assert "part circle: host_tools.commands -> host_tools.sync -> host_tools.commands" in out


def test_a_pending_circle_is_reported_not_failed(check, tmp_path, capsys, monkeypatch):
    write(tmp_path, {**TREE, "firmware/bobing/names.py": "def f():\n    from bobing.rules import R\n"})
    assert check.main([]) == 1
    monkeypatch.setattr(check, "PENDING", (("bobing.names", "bobing.rules"),))
    assert check.main([]) == 0
    assert "pending (another branch removes it): module circle: bobing.names -> bobing.rules" in (
        capsys.readouterr().out
    )


def test_the_repository_has_no_circle_but_the_pending_ones():
    spec = importlib.util.spec_from_file_location(
        "import_check", os.path.join(ROOT, "tools", "import_check.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main([]) == 0
