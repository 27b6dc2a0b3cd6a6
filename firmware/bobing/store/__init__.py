"""Flash storage: the append-only game log, tally snapshots and lifetime counters."""
