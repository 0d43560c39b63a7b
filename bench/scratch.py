"""What the rehearsal benchmarks share: Django on a throwaway database, migrated."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scratch_django() -> str:
    """Set Django up on a SQLite database in a new temporary folder (or DATABASE_URL if set), migrated; the
    folder (the run's HEADTABLE_VAR_DIR)."""
    sys.path.insert(0, str(ROOT))
    workdir = tempfile.mkdtemp()
    os.environ["HEADTABLE_VAR_DIR"] = workdir
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return workdir
