"""A whole night as one JSON file, and back: players, settings, seating, every hand, every entry and its history.

The file names things the way people do (players by name, games by number, accounts by user name), never by
database ids, so it restores into an empty or another installation and a restored night backs up to the same
file. A checksum guards against a damaged file; the night's uid refuses a second restore of the same night.
Restore is one transaction: refused whole, or done whole.

The file's shape is said once, in `tournament.schema`: one codec per record kind, which the export (`export`), the
checks (`checks`) and the restore (`restore`) all read, and the night's record (`selectors.record`) too. It sits a
layer below the backup and the selectors, since the restore reads the night back through the selectors; here it
keeps its name in the backup (`from tournament.backup import schema`).
"""

import hashlib  # noqa: F401  (the checksum is SHA-256 of `_canonical`: tests sign edited files with both)

from .. import schema
from ..models import MAX_PLAYERS
from ..schema import FORMAT, READS, VERSION, legacy_reason
from .export import canonical as _canonical
from .export import night_backup_bytes, night_export
from .publish import MADE, REPLACED, UNCHANGED, Finished, Published, night_publish
from .restore import as_restored_checksum, night_restore
from .send import night_publish_send, retry_after

# A night's file is a few megabytes at most (600 players, 12 games of 8 hands entered hand by hand: about 6 MB); a
# file far larger is not a backup, and is refused before it is read into memory as JSON. A file of more players
# than a night takes is refused too. The checks read both here.
MAX_BYTES = 64 * 1024 * 1024

__all__ = [
    "FORMAT",
    "MADE",
    "MAX_BYTES",
    "MAX_PLAYERS",
    "READS",
    "REPLACED",
    "UNCHANGED",
    "VERSION",
    "Finished",
    "Published",
    "_canonical",
    "as_restored_checksum",
    "legacy_reason",
    "night_backup_bytes",
    "night_export",
    "night_publish",
    "night_publish_send",
    "night_restore",
    "retry_after",
    "schema",
]
