"""A form field as every page draws it (templates/tournament/_field.html): its help and its errors are named by its
box (aria-describedby), so a screen reader reads them with it; a group of boxes is a fieldset with a legend."""

from __future__ import annotations

import re

from django import forms
from django.template.loader import render_to_string


class Sample(forms.Form):
    prizes = forms.CharField(label="Prizes", help_text="Which prizes the night gives.")
    side = forms.ChoiceField(
        label="Who is entering?", choices=[("NS", "N–S"), ("EW", "E–W")], widget=forms.RadioSelect, help_text="One."
    )
    name = forms.CharField(label="Name", required=False)


def drawn(form: forms.Form, name: str) -> str:
    return render_to_string("tournament/_field.html", {"field": form[name]})


def described(html: str, tag: str) -> list[str]:
    """The ids the first `tag` names in its aria-describedby, each checked to be an element of `html`."""
    ids = re.search(rf"<{tag}\b[^>]*aria-describedby=\"([^\"]+)\"", html).group(1).split()
    assert all(f'id="{each}"' in html for each in ids), (ids, html)
    return ids


def test_a_boxs_help_and_its_error_are_read_with_it():
    form = Sample(data={"prizes": "", "side": "NS"})
    assert not form.is_valid()
    html = drawn(form, "prizes")
    assert described(html, "input") == ["id_prizes_helptext", "id_prizes_error"]
    assert re.search(r'id="id_prizes_helptext">Which prizes the night gives.<', html)
    assert re.search(r'id="id_prizes_error"><div class="error" role="alert">This field is required.<', html)
    assert 'aria-invalid="true"' in html and '<label for="id_prizes">Prizes</label>' in html


def test_a_box_without_help_or_error_names_nothing():
    html = drawn(Sample(data={"prizes": "x", "side": "NS"}), "name")
    assert "aria-describedby" not in html and "_helptext" not in html and "_error" not in html


def test_a_group_of_boxes_is_a_fieldset_named_by_its_legend_with_its_help_and_error():
    form = Sample(data={"prizes": "x"})
    assert not form.is_valid()
    html = drawn(form, "side")
    assert html.lstrip().startswith("<fieldset") and "<legend>Who is entering?</legend>" in html
    assert described(html, "fieldset") == ["id_side_helptext", "id_side_error"]
    assert "<label for=" not in html.split("<legend>")[0]


def test_the_template_shows_no_comment():
    assert "{#" not in drawn(Sample(), "prizes") and "comment" not in drawn(Sample(), "prizes")
