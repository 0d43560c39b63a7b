"""Rewrite tests/durations.json from a run's timings: the longest tests' seconds, which tests/backends.py deals out
to the test processes longest first.

    .venv/bin/python -m pytest -m "not postgres" --durations=0 -q > run.txt
    python3 tests/durations.py run.txt

Only tests of 1.5 s or more are kept (setup, call and teardown added up); the rest are weighed by their marks."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

LINE = re.compile(r"^([0-9.]+)s (?:call|setup|teardown)\s+(.+?)\s*$")  # an id may hold spaces


def main(path: str) -> None:
    seconds: dict[str, float] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if found := LINE.match(line):
            seconds[found[2]] = seconds.get(found[2], 0.0) + float(found[1])
    kept = sorted(((round(value, 1), test) for test, value in seconds.items() if value >= 1.5), reverse=True)
    lines = [f" {json.dumps(test)}: {value}" for value, test in kept]
    Path(__file__).with_name("durations.json").write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
