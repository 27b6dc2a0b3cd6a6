"""Mutation testing of the firmware and the host tools with cosmic-ray:
`make mutate [MODULE=app.outcome]`.

Each mutant is a one-line change to a module (an operator swapped, a number
off by one, a condition negated...); the tests that exercise the module run
against it and should fail.  A mutant they let through is either equivalent
(the change cannot be seen) or a bug a user would meet that no test catches.

Modules are named as they are imported: `bobing.classify`, `bobing.store`
(the package, one run), `app.outcome`, `board.inputs`, `display.color`,
`sim.clock`, `bowl`, `host_tools.sync.syncer`...; the engine's short names
(`classify`, `game`, `store`...) still work.  `--list` prints every module
and the tests each one runs.

How it runs:
  * The work tree is copied to build/mutate/MODULE/tree, and cosmic-ray mutates
    that copy in place, one mutant at a time: this checkout is never modified,
    and an interrupted run leaves nothing behind.  MUTATE_JOBS=2 runs two
    modules at once, each in its own copy (default 1: one core per run).
  * PYTHONPATH puts the copy's firmware/ and host_tools/ ahead of the editable
    install (whose finder maps `bobing` to this checkout), so the tests, the
    `bobing` console script and `python -m host_tools` that they start all
    import the mutated code.  The run checks this before it starts.
  * The MicroPython tests run too: tests/mp.py and the virtual board take
    firmware/ from the copy (micropython32 compiles the mutated .py into the
    copy's build/mpy-test; ../shared is linked beside the copy), so a mutant
    is judged where the firmware runs, power-cut guarantees included.  An
    engine test that compares the port with CPython sees both run the same
    mutant, so it agrees on the wrong answer: the CPython tests judge those.
  * Per module, only the test files that exercise it run (TESTS, else every
    test file that imports the module or runs a tests/mplib script that
    does), the module's own first, with -x: a killed mutant costs seconds, a
    survivor the whole selection.  MUTATE_TESTS=all runs every test file.
  * A module's run keeps to MUTATE_MINUTES (default 30): from the unmutated
    tests' time it estimates the run's and, if that is longer, judges every
    k-th mutant only (in source order) and says how many it left out.
    MUTATE_SAMPLE=k asks for every k-th mutant outright.
  * Operators: cosmic-ray replaces every binary operator by every other one
    (12 mutants per `+`) and every comparison by every other; only the
    replacements a slip of the keyboard or of the mind makes are kept (see
    KEEP_BINARY, KEEP_COMPARE), which cuts the mutants about fourfold.

Cost, measured on the shared 2-core machine: about 6.5 CPU-seconds a mutant
for the engine's CPython tests (a killed one 2-5 s, a survivor the whole
selection); after the operator filter classify has 419 mutants, dice 62,
names 42, rules 79, events 261, game 419.  Modules whose tests run the
MicroPython port or the virtual board cost more a mutant, hence the budget.

Usage: python tools/mutate.py [MODULE ...]   (default: every module, hours)
       python tools/mutate.py --list         (the modules and their tests)
       python tools/mutate.py --report [MODULE ...]  (the last run's table again)
Prints the kill rate per module and every survivor's diff; exits 0 either way
(a survivor is a finding, not a build failure), 2 if the unmutated tests fail.
"""

import math
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
SAMPLED_OUT = "not in the sample (MUTATE_SAMPLE, MUTATE_MINUTES)"

# Test files that exercise a module, the most direct first, where finding
# them by their imports (tests_importing) would take too many or too few.
TESTS = {
    "bobing.classify": [
        "test_classify.py",
        "test_rules.py",
        "test_cli_classify.py",
        "test_game_rules.py",
        "test_stats.py",
        "test_cli_game.py",
    ],
    "bobing.dice": ["test_dice.py", "test_stats.py", "test_cli_game.py"],
    "bobing.names": [
        "test_cli_classify.py",
        "test_cli_game.py",
        "test_stats.py",
        "test_classify.py",
        "test_rules.py",
    ],
    "bobing.rules": [
        "test_rules.py",
        "test_classify.py",
        "test_cli_classify.py",
        "test_game_rules.py",
        "test_cli_game.py",
        "test_stats.py",
        "test_game_properties.py",
    ],
    "bobing.events": [
        "test_game_properties.py",
        "test_game_rules.py",
        "test_cli_game.py",
        "test_store_host.py",
    ],
    "bobing.game": [
        "test_game_rules.py",
        "test_game_properties.py",
        "test_cli_game.py",
        "test_stats.py",
        "test_store_host.py",
    ],
}

# Folders of firmware/ whose modules are the bowl's; firmware/device/ holds build recipes.
FIRMWARE_PACKAGES = ("bobing", "app", "board", "display", "sim")
# Packages mutated as one module (their files share one test selection).
WHOLE_PACKAGES = ("bobing.store",)
SKIP_FILES = ("__init__.py", "manifest.py")


def modules():
    """{module name: [its files, relative to ROOT]}, in a stable order."""
    found = {}

    def add(folder, prefix):
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            path = os.path.join(folder, name)
            if name.endswith(".py") and name not in SKIP_FILES:
                found[prefix + name[:-3]] = [path]

    add("firmware", "")
    for package in FIRMWARE_PACKAGES:
        add(os.path.join("firmware", package), package + ".")
    for package in WHOLE_PACKAGES:
        folder = os.path.join("firmware", *package.split("."))
        found[package] = [
            os.path.join(folder, f)
            for f in sorted(os.listdir(os.path.join(ROOT, folder)))
            if f.endswith(".py")
        ]
    add("host_tools", "host_tools.")
    for package in sorted(os.listdir(os.path.join(ROOT, "host_tools"))):
        if os.path.isfile(os.path.join(ROOT, "host_tools", package, "__init__.py")):
            add(os.path.join("host_tools", package), "host_tools.%s." % package)
    return found


ALIASES = {
    name: "bobing." + name for name in ("classify", "dice", "names", "rules", "events", "game", "store")
}


def _mentions(module):
    """A regex that finds an import of `module` (or a run of its file) in a test's text."""
    package, _, leaf = module.rpartition(".")
    if not package:  # firmware/main.py, bowl.py, boot.py: imported or run by name
        return re.compile(r"^\s*(import|from) %s\b|\b%s\.py\b" % (leaf, leaf), re.M)
    return re.compile(
        r"(?<![\w.])%s\b|from %s import [^\n]*\b%s\b|%s\.py\b"
        % (re.escape(module), re.escape(package), leaf, re.escape(module.replace(".", "/")))
    )


def _named(module):
    """A regex that finds the module's name as a word in quotes: a board
    profile ("cyd"), a command ("play" for play_cmd) that tests pick by name."""
    return re.compile(r"[\"']%s[\"' ]" % module.rpartition(".")[2].removesuffix("_cmd"))


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def tests_importing(module, indirect=True):
    """The test files that import `module`, or run a tests/mplib script that
    does, else those that name it (_named), else (`indirect`) those of the
    modules that import it: the test named after the module first, then the
    smaller files."""
    tests = os.path.join(ROOT, "tests")
    mentions = _mentions(module)
    names = [f for f in os.listdir(tests) if f.startswith("test_") and f.endswith(".py")]
    texts = {f: _read(os.path.join(tests, f)) for f in names}
    scripts = [
        f[:-3]
        for f in os.listdir(os.path.join(tests, "mplib"))
        if f.endswith(".py") and mentions.search(_read(os.path.join(tests, "mplib", f)))
    ]
    runs = re.compile(r"\b(%s)(\.py\b|[\"'])|import (%s)\b" % ("|".join(scripts), "|".join(scripts)))
    chosen = [f for f in names if mentions.search(texts[f]) or (scripts and runs.search(texts[f]))]
    if not chosen:
        named = _named(module)
        chosen = [f for f in names if named.search(texts[f])]
    if not chosen and indirect:  # reached only through another module: that one's tests
        chosen = sorted(
            {
                f
                for other, paths in modules().items()
                if other != module and any(mentions.search(_read(os.path.join(ROOT, p))) for p in paths)
                for f in tests_importing(other, indirect=False)
            }
        )
    own = "test_" + module.rpartition(".")[2]
    return sorted(chosen, key=lambda f: (not f.startswith(own), os.path.getsize(os.path.join(tests, f)), f))


def module_paths(module):
    return modules()[module]


def test_files(module):
    own = TESTS.get(module) or tests_importing(module)
    if os.environ.get("MUTATE_TESTS") == "all":
        rest = sorted(
            f
            for f in os.listdir(os.path.join(ROOT, "tests"))
            if f.startswith("test_") and f.endswith(".py") and f not in own
        )
        return own + rest
    return own


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
    # tests/mp.py finds micropython32 in ../shared beside the repository
    shared = os.path.join(os.path.dirname(tree), "shared")
    if not os.path.lexists(shared):
        os.symlink(os.path.join(os.path.dirname(ROOT), "shared"), shared)


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
    if not test_files(module):
        print("mutate %s: no test exercises it: nothing to judge its mutants" % module)
        return summary(module, None, 0.0)
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
    sample(session, os.environ.get("MUTATE_SAMPLE"), seconds, time.monotonic() - start)
    subprocess.run(
        [os.path.join(BIN, "cosmic-ray"), "exec", config, session], cwd=tree, env=env(tree), check=True
    )
    return summary(module, session, time.monotonic() - start)


# The share of the unmutated tests' time a mutant costs on average, to plan
# a run: a killed mutant stops at its first failing test, a survivor runs
# them all.  An estimate, on the safe side.
_MUTANT_SHARE = 0.5


def sample(session, asked, baseline_s, spent_s):
    """Judge every k-th mutant only, in source order, the others marked as
    left out: k = `asked` (MUTATE_SAMPLE) if given, else the smallest that
    keeps the module's run within MUTATE_MINUTES (baseline_s: the unmutated
    tests' seconds, spent_s: the run's so far)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(session, WorkDB.Mode.open) as db:
        pending = sorted(
            db.pending_work_items,
            key=lambda item: [
                (m.module_path, tuple(m.start_pos), m.operator_name, m.occurrence) for m in item.mutations
            ],
        )
        if asked:
            every = int(asked)
        else:
            budget = max(60.0, 60 * float(os.environ.get("MUTATE_MINUTES", "30")) - spent_s)
            every = math.ceil(len(pending) * baseline_s * _MUTANT_SHARE / budget)
        for i, item in enumerate(pending):
            if every > 1 and i % every:
                db.set_result(
                    item.job_id, WorkResult(output=SAMPLED_OUT, worker_outcome=WorkerOutcome.SKIPPED)
                )


def summary(module, session, seconds):
    rows = results(session) if session else []
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
    names = modules()
    if argv[:1] == ["--list"]:
        for name in names:
            print("%-28s %s" % (name, " ".join(test_files(name)) or "(no test imports it)"))
        return
    if argv[:1] == ["--report"]:  # the table again, from the sessions of the last run
        report(
            [
                summary(m, os.path.join(OUT, m, "session.sqlite"), 0.0)
                for m in [ALIASES.get(m, m) for m in argv[1:]] or names
                if os.path.exists(os.path.join(OUT, m, "session.sqlite"))
            ]
        )
        return
    chosen = [ALIASES.get(m, m) for arg in argv for m in arg.replace(",", " ").split()] or list(names)
    for m in chosen:
        if m not in names:
            sys.exit("mutate: unknown module %r (`python tools/mutate.py --list` names them)" % m)
    jobs = int(os.environ.get("MUTATE_JOBS", "1"))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        summaries = list(pool.map(mutate, chosen))
    report([s for s in summaries if s])
    if not all(summaries):
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
