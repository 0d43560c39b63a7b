"""SQLite as Django has it, with each process's writers taking their turn in order (see base.py)."""
