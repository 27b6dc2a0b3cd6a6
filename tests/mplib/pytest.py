"""The little of pytest that the engine's scenario tests use, for MicroPython.

tests/mplib/mptest.py runs a test module under the unix port with this on the
path, so the very same test file checks the engine in both runtimes.
"""


class _Raises:
    def __init__(self, exc, match=None):
        self.exc = exc
        self.match = match

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError("did not raise %s" % self.exc.__name__)
        if not issubclass(kind, self.exc):
            return False
        if self.match is not None and self.match not in str(value):
            raise AssertionError("%r does not contain %r" % (str(value), self.match))
        return True


def raises(exc, match=None):
    return _Raises(exc, match)


# MicroPython functions take no attributes: parameters are kept here, by function.
PARAMETERS = {}


class _Mark:
    @staticmethod
    def parametrize(names, values):
        def decorate(fn):
            PARAMETERS[fn] = (names, values)
            return fn

        return decorate


mark = _Mark()
