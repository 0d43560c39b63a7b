"""Forms for scores: one table's game totals, the night's scoring rules, and seasons."""

from __future__ import annotations

from typing import cast

from django import forms
from django.forms.boundfield import BoundField

from scoring import rules
from scoring.entry import Totals
from scoring.models import Season
from scoring.seats import SEAT_NAMES
from scoring.three import DRAWN, THREE_SEATS
from tournament.models import Night

POINT_ERRORS = {
    "required": "Enter the points, 0 if none.",
    "invalid": "Enter a whole number of points.",
    "max_value": "That is more points than a game can give.",
    "min_value": "That is fewer points than a game can give.",
}


class PointBoxes:
    """What the score forms share: the score's boxes, two sides' or a table of three's three players'."""

    three: bool
    cleaned_data: dict

    @property
    def point_names(self) -> list[str]:
        return [f"{seat.lower()}_points" for seat in THREE_SEATS] if self.three else ["ns_points", "ew_points"]

    @property
    def point_fields(self) -> list:
        """The score's boxes, in order: N–S and E–W, or each player's at a table of three."""
        return [self[name] for name in self.point_names]  # type: ignore[index]

    def clean(self):
        """A refused one-time key is said above the form (the key is a hidden field, shown nowhere else)."""
        data = super().clean()  # type: ignore[misc]
        errors = self.errors  # type: ignore[attr-defined]
        if "key" in errors:
            self.add_error(None, errors.pop("key"))  # type: ignore[attr-defined]
        return data

    def totals(self) -> Totals:
        """The entry as the game's life takes it (after is_valid): two sides' totals, or `seat_points`, with what
        this form says of them (its version, one-time key, a correction's reason, "take over", the side)."""
        data = self.cleaned_data
        if self.three:
            points: dict = {"seat_points": {seat: data[f"{seat.lower()}_points"] for seat in THREE_SEATS}}
        else:
            points = {"ns_points": data["ns_points"], "ew_points": data["ew_points"]}
        return Totals(
            **points,
            last_hand_winner=data["last_hand_winner"] or None,
            hands_played=data.get("hands_played"),
            sure=data["sure"],
            expected_version=data.get("version"),
            key=data.get("key"),
            reason=data.get("reason", ""),
            take_over=data.get("take_over", False),
            side=data.get("side", ""),
        )


def _boxes(form: forms.Form, three: dict[str, str] | None) -> None:
    """At a table of three (`three`: seat -> name) the two sides' boxes become a box for each player, and "who won
    the last hand" names them; every box takes digits from a phone's number pad."""
    form.three = three is not None  # type: ignore[attr-defined]
    if three is not None:
        del form.fields["ns_points"], form.fields["ew_points"]
        for seat in THREE_SEATS:
            form.fields[f"{seat.lower()}_points"] = forms.IntegerField(
                label=three.get(seat) or SEAT_NAMES[seat],
                min_value=0,
                max_value=999,
                error_messages=POINT_ERRORS,
                widget=forms.TextInput(),
            )
        last = form.fields["last_hand_winner"]
        last.choices = [  # type: ignore[attr-defined]
            ("", "—"),
            *((seat, three.get(seat) or SEAT_NAMES[seat]) for seat in THREE_SEATS),
            (DRAWN, "both or neither: a draw"),
        ]
        last.label = "If level at the top, who won the last hand?"
    for name in form.point_names:  # type: ignore[attr-defined]
        form.fields[name].widget.attrs.update({"inputmode": "numeric", "autocomplete": "off", "size": 3})


class ScoreForm(PointBoxes, forms.Form):
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
    sure = forms.BooleanField(label="yes, that is the score", required=False)

    def __init__(self, *args, three: dict[str, str] | None = None, **kwargs):
        """`three`: the table is a table of three, seat -> player name: a box for each player's own points."""
        super().__init__(*args, **kwargs)
        _boxes(self, three)


class RulesForm(forms.Form):
    """Start from a preset and change any number; every field comes from scoring.rules.Ruleset."""

    scoring = forms.ChoiceField(label="Start from the preset", choices=list(rules.PRESET_LABELS.items()))
    confirm = forms.BooleanField(required=False, label="Yes, rescore every hand already recorded")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label, default in rules.rule_fields():
            if isinstance(default, bool):
                self.fields[name] = forms.BooleanField(label=label, required=False)
            elif choices := rules.rule_choices(name):
                self.fields[name] = forms.ChoiceField(label=label, choices=list(choices.items()))
            elif isinstance(default, str):
                self.fields[name] = forms.CharField(label=label, max_length=40)
            else:
                self.fields[name] = forms.IntegerField(label=label, min_value=-99, max_value=99)

    def numbers(self) -> dict:
        names = {name for name, _, _ in rules.rule_fields()}
        return {name: value for name, value in self.cleaned_data.items() if name in names}


CODE_ERRORS = {"required": "Type the code printed on your tally card."}


class CodeInput(forms.TextInput):
    """A code box drawn empty every time, a refused form's too: a code typed on the table's shared phone is not
    shown back to whoever picks the phone up next (the README: a player's code is on no page)."""

    def format_value(self, value):
        return None


def code_field(label: str) -> forms.CharField:
    """A confirmation code, typed from a tally card (four digits; spaces forgiven)."""
    return forms.CharField(
        label=label,
        max_length=12,
        error_messages=CODE_ERRORS,
        widget=CodeInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 6}),
    )


class TableScoreForm(PointBoxes, forms.Form):
    """The game score typed on the table's phone, by one side: it proves its side with a code from its own tally
    card where the night asks for confirmation, and otherwise says which side it is."""

    side = forms.ChoiceField(
        label="Who is entering?",
        choices=[("NS", "We are N–S"), ("EW", "We are E–W")],
        widget=forms.RadioSelect,
        error_messages={"required": "Say which side you are."},
    )
    code = code_field("Your code (on your tally card)")
    ns_points = forms.IntegerField(label="N–S points", min_value=-999, max_value=999, error_messages=POINT_ERRORS)
    ew_points = forms.IntegerField(label="E–W points", min_value=-999, max_value=999, error_messages=POINT_ERRORS)
    last_hand_winner = forms.ChoiceField(
        label="If tied, who won the last hand?",
        choices=[("", "—"), ("NS", "N–S"), ("EW", "E–W")],
        required=False,
    )
    key = forms.CharField(
        widget=forms.HiddenInput(),
        max_length=64,
        error_messages={"max_length": "This form is out of date: reload the page and type the score again."},
    )
    sure = forms.BooleanField(label="yes, that is the score", required=False)

    def __init__(self, *args, confirm: bool = True, three: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["side" if confirm else "code"]
        if three is not None and not confirm:  # at a table of three each player is their own side
            side = self.fields["side"]
            side.choices = [(seat, f"I am {three.get(seat, seat)}") for seat in THREE_SEATS]  # type: ignore[attr-defined]
            side.error_messages["required"] = "Say who you are."
        for name in ("ns_points", "ew_points"):
            self.fields[name].widget = forms.TextInput()
        _boxes(self, three)


class ConfirmForm(forms.Form):
    """The other side confirms a score with a code from one of their tally cards."""

    draft = forms.IntegerField(widget=forms.HiddenInput())
    code = code_field("Your code (on your tally card)")


class FinishForm(forms.Form):
    """Game over from the table's phone: a code from each side, so both are there to say so."""

    ns_code = code_field("A code from N–S")
    ew_code = code_field("A code from E–W")


SIDE_BOXES = {"ns_points": "N–S", "ew_points": "E–W"}
DESK_HELP = "desk-note"  # the desk's one line on typing a slip (keeper_desk.html)


class DeskBox(BoundField):
    """A box on the desk names what a screen reader says after its label: the desk's typing help on a table's
    first box, and a refusal of the whole slip (shown under the form) on each score box, beside its own."""

    @property
    def aria_describedby(self) -> str:
        ids = (super().aria_describedby or "").split()
        form = cast("DeskForm", self.form)
        if self.name in form.point_names:
            if self.name == form.point_names[0]:
                ids.insert(0, DESK_HELP)
            if form.non_field_errors():
                ids.append(form.errors_id)
        return " ".join(ids)


class DeskForm(ScoreForm):
    """A keeper's line for one table: the totals, and after the game closed, why it changes."""

    bound_field_class = DeskBox
    key = forms.CharField(
        widget=forms.HiddenInput(),
        max_length=64,
        error_messages={"max_length": "This form is out of date: reload the page and type the score again."},
    )
    take_over = forms.BooleanField(label="take over from its hands", required=False)

    def __init__(self, *args, closed: bool = False, cut_short: int | None = None, **kwargs):
        """`cut_short`: the head table's hands a game, at the head table of a game whose bell rang before its last
        hand (the organizer's button, the timer): the slip then says how many hands it played, from 1 to that."""
        super().__init__(*args, **kwargs)
        top = "highest totals" if self.three else "totals"
        self.fields["last_hand_winner"].help_text = f"Only when the {top} are level."
        for name in self.point_names:  # the boxes say which is which (a first name fits a box at a table of three)
            self.fields[name].widget.attrs["placeholder"] = SIDE_BOXES.get(name) or self.fields[name].label.split()[0]
        if cut_short is not None:
            self.fields["hands_played"] = forms.IntegerField(
                label=f"hands played (the bell rang before hand {cut_short})",
                required=False,
                min_value=1,
                max_value=cut_short,
                help_text=f"Empty: not known (any number up to {cut_short}).",
                error_messages={
                    "invalid": "Type the number of hands the head table played.",
                    "min_value": "At least 1 hand.",
                    "max_value": f"The head table plays at most {cut_short} hands a game.",
                },
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 2}),
            )
        if closed:
            self.fields["reason"] = forms.CharField(
                label="Why the change (the game is closed)",
                max_length=200,
                widget=forms.TextInput(attrs={"placeholder": "why the change"}),
                error_messages={"required": "A correction after the game closed needs a reason."},
            )

    @property
    def errors_id(self) -> str:
        """The id of the refusals of the whole slip, under the form."""
        return f"{self.prefix}-errors"


class SeasonForm(forms.ModelForm):
    """A season's name and how it ranks players; its nights are picked on their own form."""

    class Meta:
        model = Season
        fields = ["name", "club", "notes", "method", "best_of"]
        # Not a choice of club (a season is its own club's): only the words its pages print under its name.
        labels = {"club": "Club's name, as its pages print it"}
        help_texts = {"club": "For example “St Mary's Tuesday Euchre”. Leave it blank to print none."}
        widgets = {
            "notes": forms.Textarea(attrs={"rows": 3}),
            "best_of": forms.TextInput(attrs={"inputmode": "numeric", "size": 3}),
        }


class NightChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, night: Night) -> str:
        venue = f" · {night.venue}" if night.venue else ""
        return f"{night.date:%a %d %b %Y} · {night.name}{venue}"


class SeasonNightsForm(forms.Form):
    nights = NightChoices(
        label="Nights in this season",
        queryset=Night.objects.order_by("-date", "-id"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, club_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        # the season's club's nights only: another club's is no choice here
        self.fields["nights"].queryset = Night.objects.filter(club_id=club_id).order_by("-date", "-id")
