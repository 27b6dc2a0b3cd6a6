"""Mutation testing of firmware/bobing/ with cosmic-ray: `make mutate [MODULE=classify]`.

Each mutant is a one-line change to a firmware module (an operator swapped, a
number off by one, a condition negated...); the CPython tests run against it
and should fail.  A mutant they let through is either equivalent (the change
cannot be seen) or a bug a user would meet that no test catches.

How it runs:
  * The work tree is copied to build/mutate/MODULE/tree, and cosmic-ray mutates
    that copy in place, one mutant at a time: this checkout is never modified,
    and an interrupted run leaves nothing behind.  MUTATE_JOBS=2 runs two
    modules at once, each in its own copy (default 1: one core per run).
  * PYTHONPATH puts the copy's firmware/ and host_tools/ ahead of the editable
    install (whose finder maps `bobing` to this checkout), so the tests, the
    `bobing` console script and `python -m host_tools` that they start all
    import the mutated code.  The run checks this before it starts.
  * The MicroPython-port tests are left out.  They would see the mutants
    (tests/mp.py points MICROPYPATH at the copy's firmware/), but they compare
    the port with CPython running the same mutated code, so a mutant makes
    both sides agree on the wrong answer, or (mptest) repeat test_game_rules,
    which the CPython run already makes; and they cost seconds to minutes
    each (the power-cut suite most).  The CPython tests state the behaviour.
  * Per module, only the test files that exercise it run, the module's own
    first, with -x: a killed mutant costs a couple of seconds, a survivor the
    whole selection.  MUTATE_TESTS=all runs the whole CPython side instead.
  * Operators: cosmic-ray replaces every binary operator by every other one
    (12 mutants per `+`) and every comparison by every other; only the
    replacements a slip of the keyboard or of the mind makes are kept (see
    KEEP_BINARY, KEEP_COMPARE), which cuts the mutants about fourfold.

Cost, measured on the shared 2-core machine: about 6.5 CPU-seconds a mutant
(a killed one 2-5 s, a survivor the whole selection); after the operator filter
classify has 419 mutants, dice 62, names 42, rules 79, events 261, game 419.
So a full run is about 140 CPU-minutes (over an hour even with MUTATE_JOBS=2);
MUTATE_SAMPLE=3 with MUTATE_JOBS=2 should take about 25 minutes on two free cores
(an estimate from those figures, not a measured run).

Usage: python tools/mutate.py [MODULE ...]   (classify dice names rules events game store;
default all but store)
Prints the kill rate per module and every survivor's diff; exits 0 either way
(a survivor is a finding, not a build failure), 2 if the unmutated tests fail.
"""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
OUT = os.path.join(ROOT, "build", "mutate")
SAMPLED_OUT = "not in the sample (MUTATE_SAMPLE)"

DEFAULT_MODULES = ["classify", "dice", "names", "rules", "events", "game"]

# Test files that exercise each module, the most direct first.
TESTS = {
    "classify": [
        "test_classify.py",
        "test_rules.py",
        "test_cli_classify.py",
        "test_game_rules.py",
        "test_stats.py",
        "test_cli_game.py",
    ],
    "dice": ["test_dice.py", "test_stats.py", "test_cli_game.py"],
    "names": [
        "test_cli_classify.py",
        "test_cli_game.py",
        "test_stats.py",
        "test_classify.py",
        "test_rules.py",
    ],
    "rules": [
        "test_rules.py",
        "test_classify.py",
        "test_cli_classify.py",
        "test_game_rules.py",
        "test_cli_game.py",
        "test_stats.py",
        "test_game_properties.py",
    ],
    "events": ["test_game_properties.py", "test_game_rules.py", "test_cli_game.py", "test_store_host.py"],
    "game": [
        "test_game_rules.py",
        "test_game_properties.py",
        "test_cli_game.py",
        "test_stats.py",
        "test_store_host.py",
    ],
    "store": ["test_store_host.py", "test_cli_game.py"],
}

# Run MicroPython (firmware/ via MICROPYPATH) and are left out: see above.
MICROPYTHON_TESTS = {
    "test_micropython_game.py",
    "test_micropython_rules.py",
    "test_store_mp.py",
    "test_store_powercut.py",
}

KEEP_BINARY = [
    "Add_Sub",
    "Sub_Add",
    "Mul_FloorDiv",
    "Div_Mul",
    "FloorDiv_Mul",
    "Mod_FloorDiv",
    "Pow_Mul",
    "LShift_RShift",
    "RShift_LShift",
    "BitAnd_BitOr",
    "BitOr_BitAnd",
    "BitXor_BitOr",
]
KEEP_COMPARE = [
    "Lt_LtE",
    "Lt_GtE",
    "LtE_Lt",
    "LtE_Gt",
    "Gt_GtE",
    "Gt_LtE",
    "GtE_Gt",
    "GtE_Lt",
    "Eq_NotEq",
    "NotEq_Eq",
    "Is_IsNot",
    "IsNot_Is",
    "In_NotIn",
    "NotIn_In",
]
EXCLUDE_OPERATORS = [
    r"core/ReplaceBinaryOperator_(?!(%s)$)" % "|".join(KEEP_BINARY),
    r"core/ReplaceComparisonOperator_(?!(%s)$)" % "|".join(KEEP_COMPARE),
]

CONFIG = """\
[cosmic-ray]
module-path = %(paths)s
timeout = %(timeout).1f
excluded-modules = []
test-command = %(command)s

[cosmic-ray.distributor]
name = "local"

[cosmic-ray.filters.operators-filter]
exclude-operators = %(exclude)s
"""


def toml_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def toml_list(items):
    return "[" + ", ".join(toml_str(s) for s in items) + "]"


def module_paths(module):
    if module == "store":
        folder = os.path.join(ROOT, "firmware", "bobing", "store")
        return ["firmware/bobing/store/" + f for f in sorted(os.listdir(folder)) if f.endswith(".py")]
    return ["firmware/bobing/%s.py" % module]


def test_files(module):
    if os.environ.get("MUTATE_TESTS") == "all":
        own = TESTS.get(module, [])
        rest = sorted(
            f
            for f in os.listdir(os.path.join(ROOT, "tests"))
            if f.startswith("test_") and f.endswith(".py") and f not in MICROPYTHON_TESTS and f not in own
        )
        return own + rest
    return TESTS[module]


def test_command(module):
    # -n 0: no xdist workers (one core per mutant); -x: stop at the first failure;
    # a fixed Hypothesis seed, so a mutant is judged the same way on every run.
    files = " ".join("tests/" + f for f in test_files(module))
    return "%s/pytest -x -q -n 0 -p no:cacheprovider -p no:randomly --hypothesis-seed=0 %s" % (BIN, files)


def env(tree):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([os.path.join(tree, "firmware"), tree])
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    return e


def copy_tree(tree):
    """Copy the tracked and new (not ignored) files of this checkout, as they are now."""
    shutil.rmtree(tree, ignore_errors=True)
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in files:
        name = name.decode()
        src = os.path.join(ROOT, name)
        if not name or not os.path.isfile(src):
            continue
        dst = os.path.join(tree, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def check_imports(tree):
    """The console script and `python -m host_tools` must import the copy: mark the copy's
    package, run both, and look for the mark."""
    init = os.path.join(tree, "firmware", "bobing", "__init__.py")
    with open(init) as f:
        original = f.read()
    with open(init, "w") as f:
        f.write(original + "\nimport sys\nsys.stderr.write('MUTATE-TREE %s\\n' % __file__)\n")
    try:
        for argv in ([os.path.join(BIN, "bobing"), "rules"], [sys.executable, "-m", "host_tools", "rules"]):
            proc = subprocess.run(argv, cwd=tree, env=env(tree), capture_output=True, text=True)
            if "MUTATE-TREE " + init not in proc.stderr:
                sys.exit("mutate: %s does not import %s:\n%s" % (" ".join(argv), init, proc.stderr))
    finally:
        with open(init, "w") as f:
            f.write(original)


def baseline(module, tree):
    """Seconds the unmutated tests take; None if they fail (then no mutant can be judged)."""
    start = time.monotonic()
    proc = subprocess.run(
        test_command(module).split(), cwd=tree, env=env(tree), capture_output=True, text=True
    )
    if proc.returncode != 0:
        print("mutate %s: the unmutated tests fail; fix them first\n%s" % (module, proc.stdout[-4000:]))
        return None
    return time.monotonic() - start


def results(session):
    db = sqlite3.connect(session)
    rows = db.execute(
        "SELECT s.module_path, s.start_pos_row, s.operator_name, r.worker_outcome, r.test_outcome, r.diff, r.output"
        " FROM mutation_specs s JOIN work_results r ON r.job_id = s.job_id"
    ).fetchall()
    db.close()
    # outcomes are stored as enum names (KILLED, SKIPPED...)
    return [
        (path, row, op, (worker or "").lower(), (test or "").lower(), diff, output)
        for path, row, op, worker, test, diff, output in rows
    ]


def mutate(module):
    start = time.monotonic()
    work = os.path.join(OUT, module)
    tree = os.path.join(work, "tree")
    copy_tree(tree)
    check_imports(tree)
    seconds = baseline(module, tree)
    if seconds is None:
        return None
    timeout = max(30.0, 4 * seconds)
    config = os.path.join(work, "cosmic-ray.toml")
    session = os.path.join(work, "session.sqlite")
    with open(config, "w") as f:
        f.write(
            CONFIG
            % {
                "paths": toml_list(module_paths(module)),
                "timeout": timeout,
                "command": toml_str(test_command(module)),
                "exclude": toml_list(EXCLUDE_OPERATORS),
            }
        )
    if os.path.exists(session):
        os.remove(session)
    print("mutate %s: baseline %.1f s, timeout %.0f s" % (module, seconds, timeout), flush=True)
    for step in (["cosmic-ray", "init", config, session], ["cr-filter-operators", session, config]):
        subprocess.run([os.path.join(BIN, step[0]), *step[1:]], cwd=tree, env=env(tree), check=True)
    sample(session, int(os.environ.get("MUTATE_SAMPLE", "1")))
    subprocess.run(
        [os.path.join(BIN, "cosmic-ray"), "exec", config, session], cwd=tree, env=env(tree), check=True
    )
    return summary(module, session, time.monotonic() - start)


def sample(session, every):
    """Keep every `every`-th mutant, in source order (MUTATE_SAMPLE=3: a third), for a quick look."""
    if every <= 1:
        return
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(session, WorkDB.Mode.open) as db:
        pending = sorted(
            db.pending_work_items,
            key=lambda item: [
                (m.module_path, tuple(m.start_pos), m.operator_name, m.occurrence) for m in item.mutations
            ],
        )
        for i, item in enumerate(pending):
            if i % every:
                db.set_result(
                    item.job_id, WorkResult(output=SAMPLED_OUT, worker_outcome=WorkerOutcome.SKIPPED)
                )


def summary(module, session, seconds):
    rows = results(session)
    killed = sum(1 for r in rows if r[4] == "killed")
    survived = [r for r in rows if r[4] == "survived"]
    other = [r for r in rows if r[3] != "skipped" and r[4] not in ("killed", "survived")]
    return {
        "module": module,
        "killed": killed,
        "survived": survived,
        "other": other,
        "sampled_out": sum(1 for r in rows if r[6] == SAMPLED_OUT),
        "seconds": seconds,
    }


def report(summaries):
    for s in summaries:
        for path, row, op, _, _, diff, _ in sorted(s["survived"]):
            print("\nSURVIVED %s:%d %s" % (path, row + 1, op))
            print("\n".join(line for line in (diff or "").splitlines() if re.match(r"[-+][^-+]", line)))
        for path, row, op, worker, test, _, _ in s["other"]:
            print("\nNOT RUN %s:%d %s (%s, %s)" % (path, row + 1, op, worker, test))
    print("\nmodule      mutants  killed  survived  kill rate   time")
    for s in summaries:
        tested = s["killed"] + len(s["survived"])
        rate = 100.0 * s["killed"] / tested if tested else 0.0
        note = "  (a sample: %d more not run)" % s["sampled_out"] if s["sampled_out"] else ""
        if s["other"]:
            note += "  (%d not judged)" % len(s["other"])
        print(
            "%-10s %8d %7d %9d %9.1f%% %5.0f s%s"
            % (s["module"], tested, s["killed"], len(s["survived"]), rate, s["seconds"], note)
        )


def main(argv):
    if argv[:1] == ["--report"]:  # the table again, from the sessions of the last run
        report(
            [
                summary(m, os.path.join(OUT, m, "session.sqlite"), 0.0)
                for m in argv[1:] or DEFAULT_MODULES
                if os.path.exists(os.path.join(OUT, m, "session.sqlite"))
            ]
        )
        return
    modules = [m for arg in argv for m in arg.replace(",", " ").split()] or DEFAULT_MODULES
    for m in modules:
        if m not in TESTS:
            sys.exit("mutate: unknown module %r (choose from %s)" % (m, ", ".join(TESTS)))
    jobs = int(os.environ.get("MUTATE_JOBS", "1"))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        summaries = list(pool.map(mutate, modules))
    report([s for s in summaries if s])
    if not all(summaries):
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
