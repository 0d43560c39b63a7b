"""Templates compare states and kinds by their names (RoundStatus.BELL), never by a bare word or a label."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
# An attribute holding a choice or a state, compared with a quoted word: `round.status == "bell"`.
BARE = re.compile(r"\.(status|movement|method|state|place|where|entry|ranked_by|fill|bye_credit)\s*(==|!=)\s*[\"']")


def test_no_template_compares_a_state_with_a_bare_word():
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}: {match.group(0)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        for match in BARE.finditer(line)
    ]
    assert found == []


def test_the_check_sees_a_bare_word():
    assert BARE.search('{% if round.status == "bell" %}') and BARE.search("{% if row.where != 'gone' %}")
    assert not BARE.search("{% if round.status == RoundStatus.BELL %}")
