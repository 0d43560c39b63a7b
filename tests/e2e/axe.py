"""axe-core on a page in the browser tests: no critical or serious WCAG 2.0/2.1 A or AA violation on any screen.

axe-core comes from npm, pinned in package-lock.json, installed into node_modules/ by `python3 headtable.py test`
(`npm ci`). Without it the checks are skipped with a warning, except in CI (CI=true), where a missing axe-core fails
the test: a screen that was never checked must not pass as checked. Each screen's full answer (every violation,
the minor ones too) is written to test-artifacts/e2e/axe-<screen>.json.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING = ("critical", "serious")

RUN = """async (tags) => {
  const answer = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return answer.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.map(String).join(' '), message: n.failureSummary,
                              html: n.html.slice(0, 200)})),
  }));
}"""


class AxeSkipped(UserWarning):
    """axe-core is not installed here (no npm): the page was not checked."""


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def violations(page) -> list[dict]:
    """Every WCAG 2.x A/AA violation axe finds on the page as it stands, whatever its impact."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    try:
        return page.evaluate(RUN, TAGS)
    except Exception:  # a poll swapped part of the page mid-run: once more, on the page as it is now
        page.wait_for_timeout(200)
        return page.evaluate(RUN, TAGS)


def axe(page, screen: str, *, allow: Iterable[str] = ()) -> list[dict]:
    """Check the page as it stands now, named `screen` in the report; fail on any critical or serious violation,
    listing each with its rule, the elements (axe's selectors) and what is wrong.

    `allow`: rule ids known to fail on this screen and left to be fixed (each with a TODO where it is passed). A rule
    allowed that no longer fails fails the test too, so the allowance is taken out as soon as it can be."""
    if not AXE.exists():
        if in_ci():
            pytest.fail(f"axe-core is not installed ({AXE.relative_to(ROOT)}): run `npm ci`; CI checks every screen")
        warnings.warn(
            f"axe-core is not installed (no npm?): the accessibility check of {screen!r} was skipped", AxeSkipped, 2
        )
        return []
    found = violations(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"axe-{screen}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    allowed = set(allow)
    serious = [v for v in found if v["impact"] in FAILING]
    failing = [v for v in serious if v["id"] not in allowed]
    fixed = allowed - {v["id"] for v in serious}
    problems = [report(v) for v in failing]
    problems += [f"- {rule}: allowed on this screen but no longer fails: take it out of `allow`" for rule in fixed]
    if problems:
        pytest.fail(f"axe on {screen!r} ({page.url}):\n" + "\n".join(problems), pytrace=False)
    return found


def report(violation: dict) -> str:
    """One violation as lines: the rule, its impact and help, then each element with what is wrong with it."""
    lines = [f"- {violation['id']} ({violation['impact']}): {violation['help']}"]
    for node in violation["nodes"]:
        message = " ".join(node["message"].split())
        lines.append(f"    {node['target']}: {message}")
    return "\n".join(lines)
