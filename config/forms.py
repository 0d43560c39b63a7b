"""The form renderer: Django's, with its plainest widgets drawn in Python.

The keeper's desk and the night page draw a form for each of up to 250 tables, and Django draws each box from
three small templates: after a move that was half of a second's redraw. The boxes those forms use (text, number,
hidden, checkbox and a plain select) are drawn here to the very same characters (the tests compare them with
Django's own templates); every other widget, and any widget given a template of its own, is drawn by Django.
"""

from __future__ import annotations

from collections.abc import Callable

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

WIDGETS = "django/forms/widgets/"


def _attrs(attrs: dict) -> str:
    """As attrs.html: ` name="value"` for each attribute, the name alone for True, nothing for False."""
    parts = []
    for name, value in attrs.items():
        if value is False:
            continue
        parts.append(
            f" {conditional_escape(name)}" if value is True else f' {conditional_escape(name)}="{_text(value)}"'
        )
    return "".join(parts)


def _text(value) -> str:
    """As `{{ value|stringformat:'s' }}`: the value as text, escaped unless already safe."""
    return conditional_escape(value if isinstance(value, SafeString) else f"{value}")


def _input(widget: dict) -> str:
    """As input.html (included by text.html, number.html, hidden.html and checkbox.html)."""
    value = "" if widget["value"] is None else f' value="{_text(widget["value"])}"'
    kind, name = conditional_escape(widget["type"]), conditional_escape(widget["name"])
    return f'<input type="{kind}" name="{name}"{value}{_attrs(widget["attrs"])}>'


def _select(widget: dict) -> str:
    """As select.html with select_option.html, for selects whose options have no template of their own."""
    out = [f'<select name="{conditional_escape(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            out.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
        for option in options:
            if option["template_name"] != f"{WIDGETS}select_option.html":
                raise _Fallback
            label = conditional_escape(option["label"])
            out.append(f'\n  <option value="{_text(option["value"])}"{_attrs(option["attrs"])}>{label}</option>\n')
        if group_name:
            out.append("\n  </optgroup>")
    out.append("\n</select>")
    return "".join(out)


class _Fallback(Exception):
    """A widget this module does not draw exactly as Django would: Django draws it."""


DRAWN: dict[str, Callable[[dict], str]] = {
    f"{WIDGETS}text.html": _input,
    f"{WIDGETS}number.html": _input,
    f"{WIDGETS}hidden.html": _input,
    f"{WIDGETS}checkbox.html": _input,
    f"{WIDGETS}select.html": _select,
}


class FastWidgets(DjangoTemplates):
    """Django's renderer strips what a template draws; so does every drawing above (only the ends differ)."""

    def render(self, template_name, context, request=None):
        draw = DRAWN.get(template_name)
        widget = context.get("widget") if draw is not None else None
        if widget is not None and set(context) == {"widget"}:
            try:
                return mark_safe(draw(widget))
            except _Fallback:
                pass
        return super().render(template_name, context, request)
