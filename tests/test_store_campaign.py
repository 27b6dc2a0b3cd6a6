"""The fault campaign of bench/mp_faults.py on a sample: raw bit flips, file
damage and power cuts during the boot after a loss, each booted on the real
store in MicroPython, with the tip kept in the NVS partition beside it; and
that partition damaged alone.  `make bench` runs it whole and
docs/storage.md has its table.

What a user would notice if it broke: a throw shown on the bowl missing with
no word of it, a record number given twice (the host's records no longer
match the bowl's), the bowl under a new id (its records counted twice), or
a bowl that does not boot.
"""

import os

from mp import run_micropython

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMPAIGN = os.path.join(ROOT, "bench", "mp_faults.py")


def test_no_fault_in_the_sample_loses_a_throw_silently_or_reuses_a_number():
    out = run_micropython(CAMPAIGN, 16_000_000, script_args=["60", "-v"])
    figures = dict(line.split()[:2] for line in out.splitlines() if line.startswith("faults_"))
    for campaign, least in (("flips", 20), ("files", 20), ("cuts", 20), ("nvs", 6)):
        assert int(figures["faults_%s_cases" % campaign]) >= least, figures
        for bad in ("silent", "reused", "new_id", "crash", "boot_loop"):
            assert figures["faults_%s_%s" % (campaign, bad)] == "0", out
