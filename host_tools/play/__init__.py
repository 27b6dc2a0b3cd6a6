"""A game at the terminal: the game file, the sentences, typed throws."""
