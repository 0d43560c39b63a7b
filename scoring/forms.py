"""The score form a keeper fills in for one table's game."""

from __future__ import annotations

from django import forms

POINT_ERRORS = {
    "required": "Enter the points, 0 if none.",
    "invalid": "Enter a whole number of points.",
    "min_value": "Points cannot be negative.",
    "max_value": "That is more points than a game can give.",
}


class ScoreForm(forms.Form):
    ns_points = forms.IntegerField(
        label="N–S", min_value=0, max_value=99, error_messages=POINT_ERRORS, widget=forms.TextInput()
    )
    ew_points = forms.IntegerField(
        label="E–W", min_value=0, max_value=99, error_messages=POINT_ERRORS, widget=forms.TextInput()
    )
    last_hand_winner = forms.ChoiceField(
        label="If tied, who won the last hand?",
        choices=[("", "—"), ("NS", "N–S"), ("EW", "E–W")],
        required=False,
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("ns_points", "ew_points"):
            self.fields[name].widget.attrs.update({"inputmode": "numeric", "autocomplete": "off", "size": 3})
