"""Games written as draw programs over the public drawdsl API (War, Penney's game)."""
