# `bobing stats` benchmark, run in CPython by bench/run.py (PYTHONPATH=firmware:repo root).
# Times the command as a user runs it, `bobing stats --players 10 --games 10000`: the
# process start, the exact odds and 10,000 ten-player games through the shared engine
# (host_tools.stats.simulate), with the command's default dice (os.urandom) and with --seed
# (host_tools.stats.fastdice.seeded_bytes, SeededBytes' stream computed in bulk).  Both are
# held to the 10 s target of issues 3 and 12.  Prints "name value unit target" lines.
import subprocess
import sys
import time

GAMES = 10000
TARGET_SECONDS = 10  # 10,000 ten-player games in under 10 s on one core, --seed or not


def command_seconds(*extra):
    """Wall time of one `bobing stats` run, the better of two (less noise from the rest
    of the machine); the command's own output is checked, not printed."""
    cmd = [sys.executable, "-m", "host_tools", "stats", "--players", "10", "--games", str(GAMES), "--json"]
    best = None
    for _ in range(2):
        start = time.perf_counter()
        proc = subprocess.run(cmd + list(extra), capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode or '"games": %d' % GAMES not in proc.stdout:
            raise SystemExit("bobing stats failed:\n%s%s" % (proc.stdout, proc.stderr))
        best = elapsed if best is None else min(best, elapsed)
    return best


random_dice = command_seconds()
seeded_dice = command_seconds("--seed", "1")
print("games.stats_seconds_for_10000_games %.2f s %d" % (random_dice, TARGET_SECONDS))
print("games.stats_seconds_for_10000_seeded_games %.2f s %d" % (seeded_dice, TARGET_SECONDS))
print("games.stats_games_per_second %.0f games/s -" % (GAMES / random_dice))
