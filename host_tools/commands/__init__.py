"""The `bobing` subcommands: one module each, registered by host_tools/cli.py."""
