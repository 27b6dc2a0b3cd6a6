"""Desktop tools for the Bobing bowl, built on the firmware's own rule package."""
