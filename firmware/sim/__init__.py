"""The virtual board's hardware, for the MicroPython unix port only (never frozen).

board (the virtual board: board/'s parts on this package's hardware),
vclock (the virtual clock and watchdog), flash (a LittleFS image in a host
file), tracescreen (a Screen writing one line per call), run (the sim's
main: `micropython -m sim.run`); the panel emulators and the terminal
renderer come with the screens (panels, term).
"""
