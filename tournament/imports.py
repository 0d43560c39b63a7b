"""Reading a list of players from a CSV file, line by line, with a reason for every line that cannot be used.

Columns, in this order, the first line a header if it says "name": name, number (the club's), category.
Only the name is needed. Nothing here writes; `services.players_import` does, all or nothing.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from scoring import names

MAX_NAME = 80


@dataclass(frozen=True)
class ImportLine:
    line: int
    name: str
    number: str
    category: str
    error: str = ""


MAX_BYTES = 1_000_000  # a list of 600 players with numbers and categories is some 30 kB
DELIMITERS = ",;\t|"  # a spreadsheet saves with commas, or semicolons where the comma is the decimal mark


def delimiter(text: str) -> str:
    """The file's separator, as the standard library's csv.Sniffer reads it from the first lines; a comma when it
    cannot tell (a file of names alone has none)."""
    sample = "\n".join(text.splitlines()[:50])
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        return ","


def parse_players_csv(text: str) -> list[ImportLine]:
    """Every non-empty line of the file, each with an error or none. Invisible and control characters (a NUL
    among them) are dropped from every cell, as from every name typed."""
    text = text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter(text)))
    start = 1 if rows and rows[0] and rows[0][0].strip().lower() in {"name", "player", "names"} else 0
    lines: list[ImportLine] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[start:], start=start + 1):
        cells = [names.clean(cell) for cell in row] + ["", "", ""]
        name, club, category = cells[0], cells[1], cells[2]
        if not any(cells):
            continue
        error = ""
        if not name:
            error = "No name in the first column."
        elif len(name) > MAX_NAME:
            error = f"The name is longer than {MAX_NAME} characters."
        elif name.casefold() in seen:
            error = f"Listed twice: the same name is on line {seen[name.casefold()]}."
        elif len(club) > 20:
            error = "The number is longer than 20 characters."
        elif len(category) > 40:
            error = "The category is longer than 40 characters."
        seen.setdefault(name.casefold(), number)
        lines.append(ImportLine(number, name, club, category, error))
    return lines
