import ast
import inspect
import os
import sys
import textwrap

import mp
import pytest

# Tests import the firmware's rule package directly, exactly as deployed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware"))
# tests/mplib's host-side helpers are on the path after everything else (mp.py puts them there).


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "mp_ports(*ports): run this MicroPython test on these ports only (tests/mp.py ALL_PORTS)"
    )


def calls_micropython(fn, module, seen=()):
    """Whether `fn`, or a function of its module that it calls, runs run_micropython with no port=.

    Read from the source so that a test file needs no change to run on its
    port (or ports), and so that a call pinned with port= is not run again
    for each.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):
        return False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name == "run_micropython":
            if not any(k.arg == "port" for k in node.keywords):
                return True
        elif name and name not in seen and inspect.isfunction(getattr(module, name, None)):
            helper = getattr(module, name)
            if helper.__module__ == module.__name__ and calls_micropython(helper, module, (*seen, name)):
                return True
    return False


def pytest_generate_tests(metafunc):
    """Run each MicroPython test on the ports of its mp_ports mark, else on
    tests/mp.py ONE_PORT (micropython32 when there is one).

    A test is one if it asks for the mp_port fixture or calls run_micropython
    (directly or through a helper of its module) without port=.
    """
    wants = "mp_port" in inspect.signature(metafunc.function).parameters
    if wants or calls_micropython(metafunc.function, metafunc.module):
        marker = metafunc.definition.get_closest_marker("mp_ports")
        metafunc.parametrize("mp_port", marker.args if marker else (mp.ONE_PORT,), indirect=True)


@pytest.fixture(autouse=True)
def mp_port(request):
    """The MicroPython port this test runs for; run_micropython calls without port= use it."""
    port = getattr(request, "param", "unix64")
    mp.default_port = port
    yield port
    mp.default_port = "unix64"


def pytest_collection_modifyitems(items):
    # The slow tests (the longest) first, so that pytest-xdist's workers
    # share them and the short ones fill in around them, rather than one
    # worker running a minutes-long test alone at the end.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def made_once(tmp_path_factory):
    """made_once(name, make): what `make(folder)` returned (a JSON value), made
    by whichever pytest-xdist worker asks first, in a folder all the workers
    share; the others wait for it and reuse it.

    For a module's costly shared fixture (a MicroPython run of a whole test
    module, a played bowl, a card of clips): the module's tests are spread
    over the workers, and each would otherwise make it again.
    """
    import fcntl
    import json

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # this run's folder, above each worker's own

    def made(name, make):
        folder = root / ("made-" + name)
        with open(str(folder) + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            done = folder / "made.json"
            if not done.exists():
                folder.mkdir(exist_ok=True)
                value = make(folder)
                done.write_text(json.dumps(value))
            return json.loads(done.read_text()), folder

    return made


@pytest.fixture
def sim_bowl(tmp_path):
    """A maker of virtual bowls (`bobing sim --headless --serial`,
    tests/mplib/simsync.py), each killed after the test."""
    import simsync

    yield from simsync.bowls(str(tmp_path))
