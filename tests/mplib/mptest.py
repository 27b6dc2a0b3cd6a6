"""Run every test_* function of one test module under MicroPython.

Usage: micropython mptest.py MODULE.  Prints one line per test and a closing
"N passed, N failed" line; exits 1 if any failed or none ran (a module whose
tests were all lost, to a renamed file or a broken import, must not pass).
"""

import sys

import pytest


def cases(fn):
    spec = pytest.PARAMETERS.get(fn)
    if spec is None:
        return [((), "")]
    names = [n.strip() for n in spec[0].split(",")]
    out = []
    for value in spec[1]:
        args = tuple(value) if len(names) > 1 else (value,)
        out.append((args, "[%s]" % "-".join(str(a) for a in args)))
    return out


def main(module_name):
    module = __import__(module_name)
    passed = failed = 0
    for name in sorted(dir(module)):
        fn = getattr(module, name)
        if not name.startswith("test_") or not callable(fn):
            continue
        for args, label in cases(fn):
            try:
                fn(*args)
                passed += 1
                print("PASS", name + label)
            except Exception as e:  # report every failure, keep going
                failed += 1
                print("FAIL", name + label, repr(e))
                sys.print_exception(e)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


main(sys.argv[1])
