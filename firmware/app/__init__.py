"""The bowl's application: game flow, operator menu, settings, sounds, live events."""
