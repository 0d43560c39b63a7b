"""Pure Python seating engines: the opening draw and the movements. Nothing here imports Django."""
