"""Forms for the organizer's pages. They check the shape of input; the services check the rules."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django import forms
from django.core.exceptions import ValidationError

from scoring.prizes import PRIZES
from scoring.rules import PRESET_TARGETS

from .engine import money
from .imports import MAX_BYTES as MAX_IMPORT_BYTES
from .models import (
    DEFAULT_PRIZES,
    NAME_LENGTH,
    NIGHT_SETTINGS,
    WINNERS_STAY_TARGET,
    Draw,
    Night,
    Player,
    PotLine,
    prizes_refusal,
)
from .services.nights import LATER_SETTINGS, NIGHT_LENGTH


def apply_errors(form: forms.Form, error: ValidationError, aliases: dict[str, str] | None = None) -> None:
    """Put a service's refusal beside the field it is about (or at the top of the form).

    `aliases` maps a service's argument name to the form field that fed it (the service's "names" is the
    single-player form's "name").
    """
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():  # each with its code (a question: "confirm")
            field = (aliases or {}).get(field, field)
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


class CentsField(forms.CharField):
    """An amount typed at the cash box ("20", "20.50"), cleaned to integer cents (`tournament.engine.money`)."""

    currency = "USD"  # whose way of writing amounts is read (the decimal mark): set by the form, see `read_in`

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 20)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 8}))
        super().__init__(*args, **kwargs)

    def clean(self, value):
        text = super().clean(value)
        if not text:
            return None
        try:
            return money.parse_cents(text, self.currency)
        except money.MoneyError as error:
            raise ValidationError(str(error)) from error

    def has_changed(self, initial, data) -> bool:
        """An amount typed as "20" where the form showed "20.00" is the same amount: no change."""
        try:
            return self.clean(initial or "") != self.clean(data or "")
        except ValidationError:
            return True


def read_in(form: forms.BaseForm, currency: str | None) -> None:
    """Read the form's amounts as they are written in the night's currency ("12,50" on a euro night), or in the
    currency typed on the same form when it has one."""
    typed = form.data.get(form.add_prefix("currency"), "") if form.is_bound and "currency" in form.fields else ""
    code = (typed if isinstance(typed, str) and typed.strip() else currency or "USD").strip().upper()
    form.currency_code = code  # type: ignore[attr-defined]  # the prizes' amounts are read the same way
    for field in form.fields.values():
        if isinstance(field, CentsField):
            field.currency = code
            example = f"20{money.decimal_mark(code)}50"
            field.widget.attrs.setdefault("placeholder", example)


PRIZES_HELP = (
    "Each prize once, in order, with its money if it pays any: a share of the pot or an amount, e.g. "
    "“high 40%, low 30%, loners 30%”, “high $20, low”, or just “high, low, loners”. Prizes: "
    f"{', '.join(PRIZES)}, and high:<category> (e.g. high:lady)."
)


class NightForm(forms.ModelForm):
    """A night's settings: a short form (the name, the date, the movement, the games, the entry price and the
    prizes with their money, each with the classic default) and the rest under "More settings"."""

    # The short form, row by row; every other setting is in MORE, under its heading (a setting in neither is shown
    # under the last, so none is ever left off the page).
    SHORT = (("name",), ("date", "games"), ("movement",), ("price", "currency"), ("prizes",))
    MORE = (
        ("The night", ("venue", "paper")),
        (
            "How a game ends",
            (
                "hands_per_game",
                "head_table_ends",
                "points_target",
                "minutes_per_game",
                "warning_minutes",
                "auto_advance",
                "break_after",
                "break_minutes",
            ),
        ),
        ("Who sits where", ("fill", "bye_credit", "bye_points", "numbering", "substitutes")),
        ("Scores", ("scoring", "tie_rule", "confirm_results")),
        ("Standings and prizes", ("rank_by", "tie_chain", "final_draw", "one_prize_each", "prize_rules")),
    )

    class Meta:
        model = Night
        # The prizes are a field of the form's own (named with their money), written by the services.
        fields = [name for name in NIGHT_SETTINGS if name != "prizes"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        help_texts = {
            "games": "Ten is the classic night.",
            "hands_per_game": "The head table's hands a game. Eight lets everyone deal twice.",
            "minutes_per_game": "The timer's bell. Leave empty when the head table's last hand (or a points target) "
            "ends the game.",
            "numbering": "Rotation charts only: how the numbers on the chart go to players as they arrive.",
            "fill": "Tables of three: 13 players play 4 + 3 + 3 + 3, 14 play 4 + 4 + 3 + 3, 15 play 4 + 4 + 4 + 3; "
            "each hand's caller plays alone against the other two and everyone keeps their own score (the keeper "
            "types each player's points at the desk). With fixed partners the pairs take turns playing a game apart "
            "there; a rotation chart builds them in (build it after choosing this).",
            "bye_credit": "When the players are not a multiple of four, some sit out each game. With “nothing”, "
            "they fall behind on points; the low-score prize still goes only to players who played every game.",
        }

    price = CentsField(
        label="Entry price",
        required=False,
        help_text="What each player pays; empty: free. A price at the door or a member's price apart from it: on "
        "the Money page.",
    )
    currency = forms.CharField(
        label="Currency",
        required=False,
        max_length=3,
        initial="USD",
        widget=forms.TextInput(attrs={"size": 4, "autocapitalize": "characters", "autocomplete": "off"}),
    )
    prizes = forms.CharField(
        label="Prizes and their money",
        max_length=200,
        initial=money.prizes_text(money.Prize(key) for key in DEFAULT_PRIZES.split(",")),
        error_messages={"required": "Name at least one prize, e.g. “high, low”."},
        help_text=PRIZES_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    # Shown under the prizes once saving them asked a question (a prize the pot cannot cover, a category nobody
    # tonight is in: `services.nights.prizes_questions`); ticked, the prizes are saved as typed.
    prizes_confirmed = forms.BooleanField(label="Save these prizes anyway", required=False)
    # Empty means the movement's own rule (winners-stay plays to 10), or else the scoring preset's (a bid game's own
    # target), or none; 0 means none.
    points_target = forms.IntegerField(
        label="A table's game ends at this many points",
        required=False,
        min_value=0,
        max_value=99,
        error_messages={
            "invalid": "Type a whole number of points, 0 for no target.",
            "min_value": "Type a number of points from 1 to 99, or 0 for no target.",
            "max_value": "Type a number of points from 1 to 99, or 0 for no target.",
        },
        help_text=f"A table whose side reaches it is done; the bell rings for the rest. Empty: no target, except "
        f"on a winners-stay night, which then plays to {WINNERS_STAY_TARGET} without the head table's bell, and "
        "with a bid game's preset, which plays to its own (Indiana double deck 50, Pfeffer 42, Buck 25…). "
        "0: no target.",
    )
    # What the night's money may change at any time, as on the Money page (the prizes are among LATER_SETTINGS, and
    # the tick that answers a question about them with them).
    ANY_TIME = ("price", "currency", "prizes_confirmed")

    def __init__(self, *args, editing: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["numbering"].required = False  # only rotation nights use it
        self.fields["points_target"].widget.attrs.update(inputmode="numeric", size=3)
        self.fields["price"].widget.attrs.update(placeholder="free")
        read_in(self, self.instance.currency)
        night = self.instance
        if not editing and not self.is_bound:  # a new night: the cursor starts in its name (a refusal takes it after)
            self.fields["name"].widget.attrs["autofocus"] = True
        if editing:
            # A night without a target shows 0, so that saving the form again keeps it without one.
            self.initial["points_target"] = night.points_target if night.points_target is not None else 0
            self.initial.update(
                prizes=night.prizes_text, price=money.typed(night.price_pre, night.currency), currency=night.currency
            )
            if night.price_door != night.price_pre:
                door = money.shown(night.price_door, night.currency)
                self.fields["price"].label = "Entry price (pre-registered)"
                self.fields["price"].help_text = f"At the door: {door}, set apart on the Money page."
            if night.status != Night.Status.SETUP:
                for name, field in self.fields.items():
                    if name not in LATER_SETTINGS + NIGHT_LENGTH and name not in self.ANY_TIME:
                        field.disabled = True  # shown as it is; a posted value is ignored

    @property
    def prizes_asked(self) -> bool:
        """Whether saving the prizes asked a question (or the tick that answers one was sent): the tick is shown."""
        return self.has_error("prizes", "confirm") or bool(self.is_bound and self.data.get("prizes_confirmed"))

    def short(self) -> list[list[forms.BoundField]]:
        """The short form's rows of fields, with the tick that answers a question about the prizes when asked."""
        rows = [[self[name] for name in row] for row in self.SHORT]
        if self.prizes_asked:
            rows.insert(rows.index([self["prizes"]]) + 1, [self["prizes_confirmed"]])
        return rows

    def more(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The settings under "More settings", under their headings; any setting not placed goes under the last."""
        placed = {name for row in self.SHORT for name in row} | {name for _, names in self.MORE for name in names}
        placed.add("prizes_confirmed")
        groups = [(title, [self[name] for name in names]) for title, names in self.MORE]
        groups[-1][1].extend(self[name] for name in self.fields if name not in placed)
        return groups

    def more_errors(self) -> bool:
        """Whether a setting under "More settings" is refused (the section then opens by itself)."""
        return any(field.errors for _, fields in self.more() for field in fields)

    def clean_numbering(self):
        return self.cleaned_data.get("numbering") or Night.Numbering.ARRIVAL

    def clean_prizes(self):
        """The prizes as typed, once they read as prizes with their money (the services store them)."""
        text = self.cleaned_data["prizes"]
        shown = self.initial.get("prizes") or ""
        unchanged = bool(shown) and " ".join(text.split()) == " ".join(shown.split())
        try:  # the prizes sent back as shown are read in the currency they were shown in (the currency may change)
            prizes = money.parse_prizes(
                text, self.instance.currency if unchanged else getattr(self, "currency_code", "USD")
            )
            refusal = prizes_refusal([prize.key for prize in prizes])
        except money.MoneyError as error:
            refusal = str(error)
        if refusal:
            raise ValidationError(refusal)
        return text

    def clean_price(self):
        return self.cleaned_data.get("price") or 0  # empty: free

    def clean_currency(self):
        return self.cleaned_data.get("currency", "").strip() or None  # empty: as it is (a new night: USD)

    def clean(self):
        data = super().clean()
        if data.get("points_target") is None and data.get("movement") == Night.Movement.WINNERS_STAY:
            data["points_target"], data["head_table_ends"] = WINNERS_STAY_TARGET, False
        elif data.get("points_target") is None and data.get("scoring") in PRESET_TARGETS:
            data["points_target"] = PRESET_TARGETS[data["scoring"]]
        elif data.get("points_target") == 0:
            data["points_target"] = None
        return data


def new_key() -> str:
    """A form's one-time key (see Payment.key, SignUp.form_key): the form sent twice is stored once."""
    return uuid.uuid4().hex


class OnceKey(forms.CharField):
    """The form's one-time key, hidden, new each time the form is drawn."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "error_messages", {"max_length": "This form is out of date: reload the page and send it again."}
        )
        super().__init__(required=False, max_length=200, initial=new_key, widget=forms.HiddenInput, **kwargs)


class SignUpForm(forms.Form):
    key = OnceKey()
    name = forms.CharField(
        label="Your name",
        max_length=NAME_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
        error_messages={"required": "Type your name.", "max_length": "That name is too long (80 characters at most)."},
    )
    contact = forms.CharField(
        label="Phone or email (optional, for the organizer only)",
        required=False,
        max_length=120,
        widget=forms.TextInput(attrs={"autocomplete": "email"}),
    )
    category = forms.CharField(
        label="Category for a prize, if the club plays one (optional, e.g. lady or man)", required=False, max_length=40
    )
    unlisted = forms.BooleanField(
        label="Leave my name off the public lists (the public standings and the room's screen)", required=False
    )


class SignUpSettingsForm(forms.Form):
    open = forms.BooleanField(label="Players may sign up from the public link", required=False)
    checkin = forms.BooleanField(label="Players may check themselves in by phone at the door", required=False)
    cap = forms.IntegerField(
        label="At most this many players (later sign-ups wait on the waitlist)",
        required=False,
        min_value=4,
        max_value=2000,
        error_messages={
            "invalid": "Type a whole number of players, or leave it empty for no cap.",
            "min_value": "A cap is at least 4 players (one table).",
            "max_value": "A night takes at most 2,000 players.",
        },
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 4}),
    )


class SubstituteForm(forms.Form):
    """A player who must leave, and the substitute who takes their place."""

    leaving = forms.TypedChoiceField(label="Who leaves", coerce=int, choices=())
    name = forms.CharField(
        label="The substitute's name", max_length=200, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )

    def __init__(self, *args, entries=(), **kwargs):
        # Ids of their own: the night page also holds the late arrival's "name" box, and a label must name its box.
        kwargs.setdefault("auto_id", "id_substitute_%s")
        super().__init__(*args, **kwargs)
        # Nobody chosen until the organizer picks: a list that started on the first name replaced the wrong player
        # when the organizer was in a hurry (a volunteer's trial).
        self.fields["leaving"].choices = [("", "Pick who leaves…")] + [(entry.pk, entry.name) for entry in entries]
        self.fields["leaving"].error_messages["required"] = "Pick the player who leaves."


class WishesForm(forms.Form):
    """A night's partner wishes as the organizer writes them (`services.night_wishes_set` reads the names)."""

    partner_groups = forms.CharField(
        label="Two groups: every partnership one of each (optional)",
        required=False,
        max_length=81,
        help_text="Two categories from the door list, e.g. “lady, man”. Players in neither partner anyone.",
        widget=forms.TextInput(attrs={"placeholder": "lady, man", "autocomplete": "off"}),
    )
    never = forms.CharField(
        label="Never partners: one pair a line",
        required=False,
        max_length=20000,
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": "Mary Smith & John Smith", "autocomplete": "off"}),
    )
    always = forms.CharField(
        label="Always partners (couples): one pair a line",
        required=False,
        max_length=20000,
        help_text="Kept all night with fixed partners; other movements split every partnership after the draw.",
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Ann Lee & Bob Lee", "autocomplete": "off"}),
    )


class MoneySettingsForm(forms.Form):
    currency = forms.CharField(label="Currency (three letters)", max_length=3, initial="USD")
    pre = CentsField(label="Pre-registered price", error_messages={"required": "Type a price, 0 for free."})
    door = CentsField(label="Price at the door", error_messages={"required": "Type a price, 0 for free."})
    member = CentsField(label="A member's price (empty: the pre-registered price)", required=False)
    house_share = forms.IntegerField(
        label="The house keeps (percent of the entry money)",
        min_value=0,
        max_value=100,
        initial=0,
        error_messages={"min_value": "0 to 100 percent.", "max_value": "0 to 100 percent."},
    )

    def __init__(self, *args, currency: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        read_in(self, currency)


class RefundForm(forms.Form):
    key = OnceKey()
    cents = CentsField(label="Amount back", error_messages={"required": "Type the amount given back."})
    method = forms.ChoiceField(label="By", choices=[(method, method) for method in money.METHODS])
    reason = forms.CharField(
        label="Why", max_length=200, error_messages={"required": "Say why (a refund or a correction needs a reason)."}
    )

    def __init__(self, *args, currency: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        read_in(self, currency)


class PotLineForm(forms.Form):
    key = OnceKey()
    pot = forms.CharField(
        label="Pot",
        max_length=40,
        error_messages={"required": "Name the pot: “50/50”, “Bump cup”, “Jackpot”…"},
        widget=forms.TextInput(attrs={"list": "pot-names", "placeholder": "50/50", "autocomplete": "off"}),
    )
    kind = forms.ChoiceField(label="What", choices=PotLine.Kind.choices, initial=PotLine.Kind.IN)
    cents = CentsField(label="Amount", error_messages={"required": "Type the amount."})
    reason = forms.CharField(label="Who won it, or a note", max_length=200, required=False)

    def __init__(self, *args, currency: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        read_in(self, currency)


class DrawForm(forms.Form):
    key = OnceKey()  # a double tap draws once: the second answer is the first draw
    title = forms.CharField(
        label="What it is for",
        max_length=80,
        error_messages={"required": "Say what the draw is for: “Door prize”, “50/50”…"},
        widget=forms.TextInput(attrs={"placeholder": "Door prize", "autocomplete": "off"}),
    )
    count = forms.IntegerField(
        label="How many winners",
        initial=1,
        min_value=1,
        max_value=600,
        error_messages={"required": "Say how many to draw.", "invalid": "Type a whole number of winners."},
    )
    pool_kind = forms.ChoiceField(label="Draw from", choices=Draw.Pool.choices, initial=Draw.Pool.PLAYERS)
    tickets = forms.IntegerField(
        label="Tickets sold (for a ticket draw)",
        required=False,
        min_value=1,
        max_value=100_000,
        error_messages={"invalid": "Type the number of tickets sold."},
    )
    prize = forms.ChoiceField(label="The tied prize (for a tie's draw)", required=False, choices=[("", "—")])
    redraw = forms.BooleanField(
        label="Draw again (a pot or a tie already drawn tonight: the first draw stays in the record)", required=False
    )

    def __init__(self, *args, tied: Sequence[tuple[str, str]] = (), **kwargs):
        """`tied`: the night's tied prizes (key, words), the choices for a tie's draw."""
        super().__init__(*args, **kwargs)
        self.fields["prize"].choices = [("", "— no prize is tied —" if not tied else "—"), *tied]
        self.fields["key"].widget.attrs["id"] = "id_draw_key"  # the side pots' form on the same page has an id_key


class PlayerAddForm(forms.Form):
    name = forms.CharField(max_length=80, label="Name", widget=forms.TextInput(attrs={"autocomplete": "off"}))
    checked_in = forms.BooleanField(required=False, initial=True, label="Here now (checked in)")


class PlayerPasteForm(forms.Form):
    names = forms.CharField(
        label="Paste names, one per line",
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": "Ann Kowalski\nBob Martin\n…"}),
    )


class RosterPickForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        label="From the club roster",
        widget=forms.SelectMultiple(attrs={"size": 8}),
        error_messages={"required": "Pick at least one player from the roster."},
    )

    def __init__(self, *args, queryset=None, **kwargs):
        super().__init__(*args, **kwargs)
        if queryset is not None:
            self.fields["players"].queryset = queryset


class KeeperForm(forms.Form):
    username = forms.CharField(label="Keeper's login name", max_length=150)
    password = forms.CharField(
        label="Password (for a new keeper)", required=False, widget=forms.PasswordInput(render_value=False)
    )


class ClubSiteForm(forms.Form):
    """The club's site on the hosted server and its publishing key, typed once on the laptop."""

    address = forms.CharField(
        label="The club's site",
        required=False,
        max_length=200,
        help_text="As its operator gave it, e.g. https://euchre.example.org/c/our-club/ (empty: no site).",
    )
    key = forms.CharField(
        label="Publishing key",
        required=False,
        max_length=200,
        widget=forms.PasswordInput(render_value=False),
        help_text="Typed once; kept on this laptop, never shown again. Left empty, the key typed before is kept.",
    )


class RestoreForm(forms.Form):
    file = forms.FileField(
        label="The night's backup file (.json)", error_messages={"required": "Choose the backup file to restore."}
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label="A CSV file: name, number, category (a header line is fine)",
        error_messages={"required": "Choose the CSV file to import."},
    )

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                f"This file is {file.size / 1_000_000:.1f} MB: a list of players is far smaller (600 players are"
                " about 30 kB). Is it the right file? Save the list alone as CSV."
            )
        return file


class ChartForm(forms.Form):
    players = forms.IntegerField(
        label="Build the chart for up to this many players",
        min_value=4,
        max_value=400,
        help_text="Numbers nobody takes simply sit out, so count generously.",
        error_messages={"min_value": "A chart needs at least 4 players.", "max_value": "400 players at most."},
    )


class NumberForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=None, label="Player", empty_label="Choose a player")
    number = forms.IntegerField(label="Chart number", min_value=1)

    def __init__(self, *args, entries=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries


class NightDeleteForm(forms.Form):
    """Deleting a night: its name typed, when it has results or money in it (the service decides)."""

    typed_name = forms.CharField(
        label="The night's name, typed exactly",
        required=False,
        max_length=400,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
