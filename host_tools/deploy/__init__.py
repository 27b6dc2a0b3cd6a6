"""The firmware this package carries and what it costs a bowl's heap."""
