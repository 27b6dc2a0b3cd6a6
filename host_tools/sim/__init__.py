"""The virtual boards behind `bobing sim`: the terminal view, its story, the bare board, the serial line."""
