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
    monkeypatch.setattr(module, "TREES", (("", ("host_tools",), 2), ("firmware", ("bobing", "app"), 1)))
    return module


def write(root, files):
    for path, text in files.items():
        full = root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(text)


TREE = {
    "host_tools/__init__.py": "",
    "host_tools/front.py": "from host_tools.verbs import a_cmd\n",
    "host_tools/faults.py": "class UsageError(Exception):\n    pass\n",
    "host_tools/verbs/__init__.py": "",
    "host_tools/verbs/a_cmd.py": "from host_tools.faults import UsageError\nfrom host_tools.store import table\n",
    "host_tools/store/__init__.py": "",
    "host_tools/store/table.py": "import os\nfrom . import link\n",
    "host_tools/store/link.py": "import sqlite3\n",
    "firmware/bobing/__init__.py": "",
    "firmware/bobing/rules.py": "from bobing.names import KINDS\n",
    "firmware/bobing/names.py": "KINDS = ()\n",
}


def test_a_tree_without_circles_passes(check, tmp_path, capsys):
    write(tmp_path, TREE)
    assert check.main([]) == 0
    assert "no import circle" in capsys.readouterr().out


def test_a_circle_through_a_function_import_fails_and_is_named(check, tmp_path, capsys):
    write(tmp_path, {**TREE, "host_tools/faults.py": "def late():\n    from host_tools import front\n"})
    assert check.main([]) == 1
    out = capsys.readouterr().out
    assert (
        "module circle: host_tools.faults -> host_tools.front -> host_tools.verbs.a_cmd -> host_tools.faults"
        in out
    )
    assert "host_tools/faults.py:2" in out  # where the import that closes it is


def test_a_relative_import_counts(check, tmp_path, capsys):
    write(tmp_path, {**TREE, "host_tools/store/link.py": "from .table import x\n"})
    assert check.main([]) == 1
    assert (
        "module circle: host_tools.store.link -> host_tools.store.table -> host_tools.store.link"
        in capsys.readouterr().out
    )


def test_folders_that_import_each_other_fail_as_parts(check, tmp_path, capsys):
    # no module imports itself back, but store/ and verbs/ depend on each other
    write(tmp_path, {**TREE, "host_tools/store/link.py": "from host_tools.verbs import b_cmd\n"})
    write(tmp_path, {"host_tools/verbs/b_cmd.py": ""})
    assert check.main([]) == 1
    out = capsys.readouterr().out
    assert "module circle" not in out
    assert "part circle: host_tools.store -> host_tools.verbs -> host_tools.store" in out


def test_the_rules_and_their_names_importing_each_other_is_a_circle(check, tmp_path, capsys):
    # the circle issue 25 found: rules.py imports names.py, and names.py the rules back
    write(tmp_path, {**TREE, "firmware/bobing/names.py": "def f():\n    from bobing.rules import R\n"})
    assert check.main([]) == 1
    assert "module circle: bobing.names -> bobing.rules -> bobing.names" in capsys.readouterr().out


def test_the_repository_has_no_circle():
    spec = importlib.util.spec_from_file_location(
        "import_check", os.path.join(ROOT, "tools", "import_check.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main([]) == 0
