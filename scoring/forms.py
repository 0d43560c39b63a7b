"""Forms for scores: one table's game totals, and the night's scoring rules."""

from __future__ import annotations

from django import forms

from . import rules

POINT_ERRORS = {
    "required": "Enter the points, 0 if none.",
    "invalid": "Enter a whole number of points.",
    "max_value": "That is more points than a game can give.",
    "min_value": "That is fewer points than a game can give.",
}


class ScoreForm(forms.Form):
    ns_points = forms.IntegerField(
        label="N–S", min_value=-999, max_value=999, error_messages=POINT_ERRORS, widget=forms.TextInput()
    )
    ew_points = forms.IntegerField(
        label="E–W", min_value=-999, max_value=999, error_messages=POINT_ERRORS, widget=forms.TextInput()
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


class RulesForm(forms.Form):
    """Start from a preset and change any number; every field comes from scoring.rules.Ruleset."""

    scoring = forms.ChoiceField(label="Start from the preset", choices=list(rules.PRESET_LABELS.items()))
    confirm = forms.BooleanField(required=False, label="Yes, rescore every hand already recorded")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label, default in rules.rule_fields():
            if isinstance(default, bool):
                self.fields[name] = forms.BooleanField(label=label, required=False)
            elif name == "defend_alone":
                self.fields[name] = forms.ChoiceField(
                    label=label,
                    choices=[("off", "Not played"), ("vs_loner", "Only against a loner"), ("any", "Against any maker")],
                )
            else:
                self.fields[name] = forms.IntegerField(label=label, min_value=-99, max_value=99)

    def numbers(self) -> dict:
        names = {name for name, _, _ in rules.rule_fields()}
        return {name: value for name, value in self.cleaned_data.items() if name in names}
