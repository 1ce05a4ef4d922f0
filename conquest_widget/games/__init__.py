"""One folder per game: engine, CPU players, text and widget."""
