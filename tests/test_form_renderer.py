"""The form renderer draws its plain widgets to exactly the characters Django's own templates draw."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from config.forms import DRAWN, FastWidgets
from tournament.score_forms import DeskForm, TableScoreForm

DJANGO, FAST = DjangoTemplates(), FastWidgets()

# Text a box may carry: markup and quotes, accents, and Django's safe strings (drawn unescaped by both).
TEXT = st.one_of(
    st.text(alphabet=st.sampled_from("ab<>&\"' é=-0 \u200b"), max_size=8),
    st.integers(-1000, 1000),
    st.text(alphabet="ab<i>", max_size=6).map(mark_safe),
)
ATTRS = st.dictionaries(
    st.sampled_from(["id", "size", "placeholder", "inputmode", "required", "disabled", "data-x", "class"]),
    st.one_of(TEXT, st.booleans()),
    max_size=4,
)


def both(widget: forms.Widget, name: str, value, attrs: dict | None = None) -> tuple[str, str]:
    return widget.render(name, value, attrs, renderer=DJANGO), widget.render(name, value, attrs, renderer=FAST)


@pytest.mark.parametrize(
    "widget",
    [forms.TextInput(), forms.NumberInput(), forms.HiddenInput(), forms.CheckboxInput(), forms.EmailInput()],
    ids=lambda widget: type(widget).__name__,
)
@given(name=st.sampled_from(["ns_points", "t5-ew_points", 'a"b<']), value=st.one_of(st.none(), TEXT), attrs=ATTRS)
def test_each_input_is_drawn_as_django_draws_it(widget, name, value, attrs):
    if isinstance(widget, forms.CheckboxInput):
        value = bool(value)  # a checkbox takes its value as checked or not
    expected, drawn = both(widget, name, value, attrs)
    assert drawn == expected


@given(
    choices=st.lists(st.tuples(TEXT, TEXT), max_size=5),
    groups=st.booleans(),
    value=st.one_of(st.none(), TEXT),
    attrs=ATTRS,
)
def test_a_select_is_drawn_as_django_draws_it(choices, groups, value, attrs):
    options = [("Group <1>", choices), ("", choices[:1])] if groups else [("", "—"), *choices]
    widget = forms.Select(choices=options)
    expected, drawn = both(widget, "last_hand_winner", value, attrs)
    assert drawn == expected


def test_the_forms_of_the_desk_and_the_table_phone_are_drawn_the_same_whole():
    for form in (
        DeskForm(initial={"ns_points": 7, "ew_points": 3, "version": 2, "key": "k<1>"}, prefix="t5", closed=True),
        DeskForm(data={"t9-ns_points": "x<", "t9-ew_points": ""}, prefix="t9"),
        TableScoreForm(data={"ns_points": "5", "side": "NS"}, confirm=False),
    ):
        form.is_valid()
        for field in form:
            expected = field.field.widget.render(field.html_name, field.value(), field.build_widget_attrs({}), DJANGO)
            drawn = field.field.widget.render(field.html_name, field.value(), field.build_widget_attrs({}), FAST)
            assert drawn == expected, field.name


def test_widgets_it_does_not_draw_go_to_django():
    radio = forms.RadioSelect(choices=[("NS", "We are N–S"), ("EW", "We are E–W")])
    assert f"{radio.template_name}" not in DRAWN
    assert radio.render("side", "NS", renderer=FAST) == radio.render("side", "NS", renderer=DJANGO)
    textarea = forms.Textarea()
    assert textarea.render("note", "a <b>", renderer=FAST) == textarea.render("note", "a <b>", renderer=DJANGO)


def test_the_project_draws_its_forms_with_it():
    from django.forms.renderers import get_default_renderer

    assert isinstance(get_default_renderer(), FastWidgets)
