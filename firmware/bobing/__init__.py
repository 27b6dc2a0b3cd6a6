"""Bobing (博饼) rules and game engine, shared by the bowl's firmware and the desktop tools."""
