# Heap figures from inside MicroPython: what a call allocates, what it keeps,
# and the largest single allocation the heap can still give.  tests/mp.py
# and bench/run.py put tools/ on the path of both unix ports; it runs as is
# on a board too.  Figures are GC heap bytes, whole blocks (16 B at the
# ESP32's word size, 32 B on the 64-bit port): measure on micropython32.
import gc


def garbage(fn):
    """Bytes of heap that fn() allocates, kept or not.

    The collector is off during the call, so nothing is reclaimed and every
    allocation is counted: the heap must be large enough to hold them all
    (a MemoryError says it is not).
    """
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        fn()
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def freed(make):
    """(bytes make() allocated that a collection frees again, what it made).

    The garbage of building something kept: what the heap churns through,
    not what it holds afterwards (see kept).
    """
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    made = make()
    allocated = gc.mem_alloc() - start
    gc.enable()
    gc.collect()
    return allocated - (gc.mem_alloc() - start), made


def kept(fn):
    """Bytes of heap still held after fn() returns and a collection.

    fn's result is held while measured, so kept(lambda: Game(rules, 10)) is
    what the game costs for good; kept(lambda: __import__("bobing.game"))
    what the import leaves in the heap (modules stay in sys.modules).
    """
    gc.collect()
    before = gc.mem_alloc()
    result = fn()  # noqa: F841 (held, so that it is counted)
    gc.collect()
    return gc.mem_alloc() - before


def largest_free_block():
    """Bytes of the largest run of free heap blocks: the biggest allocation that succeeds now.

    Found by bisection on bytearray(n), collecting before each try, so it
    works on every port, the ESP32 included.  It agrees with `max free sz`
    (in blocks) of micropython.mem_info(), which prints only to the console
    and so cannot be read back in-process, to a few blocks: the bytearray's
    own header is allocated before its buffer, and the collector, which
    scans the C stack conservatively, may keep a dead object for a while.
    """
    lo, hi = 0, gc.mem_free()
    while lo < hi:
        mid = (lo + hi + 1) // 2
        gc.collect()
        if _fits(mid):
            lo = mid
        else:
            hi = mid - 1
    gc.collect()
    return lo


def _fits(n):
    # a call of its own, so no reference to the buffer outlives it
    try:
        bytearray(n)
        return True
    except MemoryError:
        return False
