"""Django's `{# … #}` comment ends on its own line: one left open runs on as text into the page (a volunteer saw the
night page print a comment). Longer comments use {% comment %}."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def test_no_template_leaves_a_one_line_comment_open():
    open_comments = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert open_comments == []
