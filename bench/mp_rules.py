# Rule package benchmark, run in the MicroPython unix port by bench/run.py.
# Prints "name value unit target" lines.
import gc
import time

from mp_heap import freed

# Heap kept by importing the rule package as deployed (.mpy, see bench/run.py).
# Heap targets are for the ESP32's word size (micropython32, issue 7).
gc.collect()
before = gc.mem_alloc()
from bobing.classify import classify, rank_of  # noqa: E402
from bobing.rules import Rules  # noqa: E402

gc.collect()
import_bytes = gc.mem_alloc() - before


# Garbage left by building the rule set the bowl plays by: the option tables
# are bytes, read in place, never parsed.
rules_garbage, rules = freed(lambda: Rules("xiamen"))
flags = rules.flags

THROWS = 46656


def sweep(flags, work):
    # Walks all 6^6 throws in place, reusing one list: the loop allocates nothing.
    d = [1, 1, 1, 1, 1, 1]
    for a in range(1, 7):
        d[0] = a
        for b in range(1, 7):
            d[1] = b
            for c in range(1, 7):
                d[2] = c
                for e in range(1, 7):
                    d[3] = e
                    for f in range(1, 7):
                        d[4] = f
                        for g in range(1, 7):
                            d[5] = g
                            work(d, flags)


def classify_and_rank(d, flags):
    rank_of(classify(d, flags))


def nothing(d, flags):
    pass


best = None
for _ in range(3):
    t0 = time.ticks_us()
    sweep(flags, classify_and_rank)
    t1 = time.ticks_us()
    sweep(flags, nothing)
    t2 = time.ticks_us()
    net = time.ticks_diff(t1, t0) - time.ticks_diff(t2, t1)
    best = net if best is None else min(best, net)

gc.collect()
gc.disable()
before = gc.mem_alloc()
sweep(flags, classify_and_rank)
after = gc.mem_alloc()
gc.enable()
print("rules.classify_rank_us_per_throw %.3f us 12" % (best / THROWS))
print("rules.alloc_bytes_per_throw %.3f B 16" % ((after - before) / THROWS))
print("rules.import_heap_bytes %d B 8192" % import_bytes)
print("rules.new_rules_garbage_bytes %d B 2048" % rules_garbage)
