"""Names as people type them: cleaned once at registration, found however they are typed, listed as readers expect.

Pure Python. Transliteration is anyascii's (every script to plain letters: "Łukasz Żółć" -> "Lukasz Zolc"), the
order is the Unicode Collation Algorithm's (pyuca: Ł sorts with L, before M), so neither is a table of our own.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from anyascii import anyascii
from pyuca import Collator

# Characters a name never needs and that make two names that look alike differ: the invisible format characters
# (zero-width spaces and joiners, direction overrides and isolates, the byte-order mark) and control characters.
_INVISIBLE = {"Cf", "Cc", "Cs", "Co", "Cn"}
_NOT_LETTERS = re.compile(r"[^0-9a-z]+")


def clean(name: str) -> str:
    """A name as it is stored: composed (NFC), without invisible characters, spaces collapsed to one."""
    composed = unicodedata.normalize("NFC", name)
    visible = "".join(
        " " if char.isspace() else char for char in composed if unicodedata.category(char) not in _INVISIBLE
    )
    return " ".join(visible.split())


def invisible(text: str) -> str:
    """The first character of `text` that a name never holds (a zero-width space or joiner, a byte-order mark, a
    direction mark, a control character such as an escape or a bell), or "" when there is none. Spaces, tabs and
    line breaks are spacing, not invisible: `clean` collapses them."""
    return next(
        (char for char in text if unicodedata.category(char) in _INVISIBLE and not char.isspace()),
        "",
    )


def fold(text: str) -> str:
    """A name (or a search) reduced to lower-case plain letters and digits, for matching: "O'Brien" -> "obrien",
    "Chloé" -> "chloe", "Łukasz Żółć" -> "lukaszzolc"."""
    return _NOT_LETTERS.sub("", anyascii(clean(text)).casefold())


def matches(query: str, name: str) -> bool:
    """Whether a search finds a name: the folded search appears in the folded name."""
    folded = fold(query)
    return bool(folded) and folded in fold(name)


@functools.cache
def _collator() -> Collator:
    return Collator()


def sort_key(name: str) -> tuple[int, ...]:
    """The key that lists names in the order readers expect (the Unicode Collation Algorithm)."""
    return _collator().sort_key(clean(name))
