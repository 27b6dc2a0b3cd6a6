"""Simulated games and the exact odds behind `bobing stats`."""
