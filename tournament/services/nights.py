"""The only writers of a night itself: its settings, its keepers and its scoring rules. One transaction each."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from scoring import names, seeds
from scoring import services as score_services
from scoring.models import TableResult
from scoring.rules import PRESET_TARGETS, PRESETS, STANDARD, Ruleset, ScoringError
from scoring.seats import HEAD_TABLE, is_three

from ..engine import money
from ..models import (
    DEFAULT_PRIZES,
    MONEY_KEY_LENGTH,
    NIGHT_SETTINGS,
    WINNERS_STAY_PRIZES,
    WINNERS_STAY_TARGET,
    Club,
    Entry,
    Membership,
    Night,
    Payment,
    Round,
    Seating,
    prizes_refusal,
    sole_club_id,
)


def clean_name(name: str) -> str:
    """A name as it is stored: no invisible or direction characters, spaces collapsed (scoring.names.clean)."""
    return names.clean(name)


# What a question about the prizes ends with; the form then shows the tick that answers it.
PRIZES_CONFIRM = "Save anyway? Tick “Save these prizes anyway”, or change them."


def prizes_questions(night: Night, prizes: Sequence[money.Prize], house_share: int | None = None) -> list[str]:
    """What saving these prizes asks first, in words (nothing to ask: []): a category prize no player of the night
    is in (asked once the night has players: players may still sign up with it), and prizes whose money the pot
    cannot cover (asked once the door has taken money: before that the pot is empty and every amount is a promise
    the house makes). `house_share`: the house's percent, if it is changing with the prizes."""
    if night.pk is None:
        return []
    asked = []
    categories = list(Entry.objects.filter(night=night, player__house=False).values_list("category", flat=True))
    if categories:
        missing = money.categories_missing([prize.key for prize in prizes], categories)
        if words := money.categories_words(missing, categories):
            asked.append(words)
    lines = Payment.objects.filter(night=night).exclude(method="comp")
    if lines.exists():
        net = lines.aggregate(net=Sum("cents"))["net"] or 0
        pot, _ = money.pot(net, night.house_share if house_share is None else house_share)
        cover = money.pot_cover([prize.payout for prize in prizes if prize.payout], pot)
        if words := cover.words(night.currency):
            asked.append(words)
    return asked


def prizes_ask(field: str, asked: Sequence[str]) -> None:
    """Refuse the prizes until the question is answered (`asked`: `prizes_questions`; nothing asked: return)."""
    if asked:
        raise ValidationError({field: ValidationError(f"{' '.join(asked)} {PRIZES_CONFIRM}", code="confirm")})


def _prizes_set(night: Night, text: str, confirmed: bool = False, shown: tuple[str, str] = ("", "")) -> None:
    """The prizes and their money from the one field that names them ("high 40%, low 30%, loners 30%", or "high,
    low, loners" without money): the prize table (`Night.prizes`, the names in order) and the money of those that
    carry some (`Night.payouts`, in the same words), so the two always agree. The names are checked by
    `Night.clean`; what a treasurer would want to know first (`prizes_questions`) is asked unless `confirmed`.
    `shown`: the prizes as the form showed them and the currency they were written in, read as they were written
    when sent back unchanged with a new currency ("low $5" kept as "low €5" when the night changes to euros)."""
    try:
        prizes = money.parse_prizes(text, night.currency)
    except money.MoneyError as error:
        if not shown[0] or " ".join(text.split()) != " ".join(shown[0].split()):
            raise ValidationError({"prizes": str(error)}) from error
        prizes = money.parse_prizes(text, shown[1])
    if not prizes:
        raise ValidationError({"prizes": "Name at least one prize, e.g. “high, low”."})
    if not confirmed and not prizes_refusal([prize.key for prize in prizes]):
        prizes_ask("prizes", prizes_questions(night, prizes))
    keys = ",".join(prize.key for prize in prizes)
    paid = money.prizes_text([prize for prize in prizes if prize.payout], night.currency)
    limits = (Night._meta.get_field("prizes").max_length or 0, Night._meta.get_field("payouts").max_length or 0)
    if len(keys) > limits[0] or len(paid) > limits[1]:
        raise ValidationError({"prizes": f"That is more than a night's prize table holds ({len(prizes)} prizes)."})
    night.prizes, night.payouts = keys, paid


def _price_set(night: Night, price: int | None, currency: str | None) -> None:
    """The entry price and its currency from the night's form: everyone pays `price` (cents), at the door too unless
    the Money page set the door's price apart (a member's price stays as it is)."""
    if currency is not None:
        try:
            code = money.currency_code(currency)
        except money.MoneyError as error:
            raise ValidationError({"currency": str(error)}) from error
        if code != night.currency:
            night.payouts = money.payouts_in(night.payouts, code)  # the prizes' money in the night's new mark
        night.currency = code
    if price is not None:
        if not 0 <= price <= money.MAX_CENTS:
            raise ValidationError({"price": f"A price is from 0 to {money.limit_words(night.currency)}."})
        if night.price_door == night.price_pre:
            night.price_door = price
        night.price_pre = price


@transaction.atomic
def night_create(
    *,
    created_by=None,
    price: int | None = None,
    currency: str | None = None,
    prizes_confirmed: bool = False,
    club: Club | None = None,
    **settings: Any,
) -> Night:
    """A new night from the organizer's settings (any of `NIGHT_SETTINGS`; the rest keep the model's defaults), its
    entry price in cents and currency. `prizes` names the prizes with their money, the one way
    (`tournament.engine.money.parse_prizes`).

    The night starts with its own copy of the chosen preset's rules. It is `club`'s (on the laptop: its one club).
    """
    unknown = sorted(set(settings) - set(NIGHT_SETTINGS))
    if unknown:
        raise TypeError(f"A night has no setting {unknown[0]!r}.")
    night = Night(
        **{name: value for name, value in settings.items() if name != "prizes"},
        club_id=club.pk if club is not None else sole_club_id(),
        created_by=created_by,
    )
    _price_set(night, price, currency)
    if "prizes" in settings:
        _prizes_set(night, settings["prizes"])
    night.name = clean_name(night.name)
    night.date = night.date or timezone.localdate()
    night.venue = clean_name(night.venue)
    night.rules = PRESETS.get(night.scoring, STANDARD).as_dict()
    if night.movement == Night.Movement.WINNERS_STAY:
        if night.prizes == DEFAULT_PRIZES and not night.payouts:
            night.prizes = WINNERS_STAY_PRIZES  # the champion first, the high score apart (README)
        if "points_target" not in settings:  # games to 10 at every table, not the head table's hands (README)
            night.points_target = WINNERS_STAY_TARGET
            night.head_table_ends = settings.get("head_table_ends", False)
    elif "points_target" not in settings and night.scoring in PRESET_TARGETS:
        night.points_target = PRESET_TARGETS[night.scoring]  # a bid game's own target (README)
    night.full_clean()
    night.save()
    return night


# What a night may still change once its seating is drawn: what the room reads and prints, and whether the night
# runs by itself; not how a game plays.
LATER_SETTINGS = (
    "name",
    "date",
    "venue",
    "prizes",
    "one_prize_each",
    "prize_rules",
    "substitutes",
    "paper",
    "auto_advance",
)
# The night's length changes at the night too, through the game's life (tournament.game.night_games_set), which
# keeps every game already seated or played.
NIGHT_LENGTH = ("games",)


@transaction.atomic
def night_update(
    *,
    night: Night,
    price: int | None = None,
    currency: str | None = None,
    prizes_confirmed: bool = False,
    **settings: Any,
) -> Night:
    """Change a night's settings (any of `NIGHT_SETTINGS`): all of them before the opening draw, only
    `LATER_SETTINGS` after it; its entry price and currency at any time (as on the Money page). A new scoring
    preset gives the night that preset's rules (no hand is recorded yet). `prizes` names the prizes with their
    money, as on the new night's form; `prizes_confirmed`: the organizer said to save them though asked about them
    (`prizes_questions`)."""
    night = lock_night(night)
    unknown = sorted(set(settings) - set(NIGHT_SETTINGS))
    if unknown:
        raise TypeError(f"A night has no setting {unknown[0]!r}.")
    if night.status == Night.Status.FINISHED:
        _finished_unchanged(night, price, currency, settings)
    drawn = night.status != Night.Status.SETUP
    fixed = [name for name, value in settings.items() if name not in LATER_SETTINGS and getattr(night, name) != value]
    if drawn and fixed:
        only = "the name, date, venue, prizes, paper, number of games and running by itself still do"
        raise ValidationError({fixed[0]: f"The seating is drawn: this no longer changes ({only})."})
    if settings.get("scoring", night.scoring) != night.scoring:
        night.rules = PRESETS.get(settings["scoring"], STANDARD).as_dict()
    shown = (night.prizes_text, night.currency)  # as the form showed them, before a new currency
    _price_set(night, price, currency)
    for name, value in settings.items():
        if name == "prizes":
            _prizes_set(night, value, prizes_confirmed, shown)
        else:
            setattr(night, name, value)
    night.name = clean_name(night.name)
    night.venue = clean_name(night.venue)
    night.full_clean()
    night.save()
    Night.touch(night.pk, moved=True)
    return night


def _finished_unchanged(night: Night, price: int | None, currency: str | None, settings: dict[str, Any]) -> None:
    """A night that is over takes a new name, venue or paper size, and nothing else (`require_unfinished`)."""
    if currency is not None and currency.strip().upper() != night.currency:
        require_unfinished(night, "currency", "its currency no longer changes")
    if price is not None and price != night.price_pre:
        require_unfinished(night, "price", "its prices no longer change")
    for name, value in settings.items():
        if name in UNFINISHED_TOO:
            continue
        if name == "prizes":
            try:
                same = money.prizes_text(money.parse_prizes(value, night.currency), night.currency) == night.prizes_text
            except money.MoneyError:
                same = False
            if not same:
                require_unfinished(night, "prizes", "its prizes and their money no longer change")
        elif getattr(night, name) != value:
            require_unfinished(night, name, "its settings no longer change, but for its name, venue and paper size")


def form_key(key: str) -> str:
    """A form's one-time key as stored (money, a sign-up, a check-in): letters, figures and dashes, at most
    MONEY_KEY_LENGTH; anything else (a forged or broken key) is no key, and the form is taken as one without one."""
    key = (key or "").strip()
    return key if len(key) <= MONEY_KEY_LENGTH and re.fullmatch(r"[A-Za-z0-9-]+", key) else ""


def create_once(model, *, key: str, **fields):
    """A record of the cash (a payment, a pot line) made once for its form's key: the form sent again (a double
    tap, two posts at the same moment) gives back the line the first one stored. Returns (line, made now)."""
    night = fields["night"]
    if key and (done := model.objects.filter(night=night, key=key).first()) is not None:
        return done, False
    try:
        with transaction.atomic():
            return model.objects.create(key=key, **fields), True
    except IntegrityError:
        if key and (done := model.objects.filter(night=night, key=key).first()) is not None:
            return done, False
        raise


def lock_night(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


def require_setup(night: Night, field: str) -> None:
    require_unfinished(night, field, "who played in it no longer changes")
    if night.status != Night.Status.SETUP:
        raise ValidationError({field: "The opening seating is already drawn: mark the player as gone instead."})


def require_open(night: Night, field: str) -> None:
    require_unfinished(night, field, "no more players can join")


# A night that is over is history (#34): once its last game is closed, what it was played with and what it pays
# (its players, seating and wishes, its prices, currency and the door's cash the prize pot is a share of, its prizes,
# their money and who may take them) stays as its sheets printed it. Every service that would change one of those
# refuses through `require_unfinished`. What is handed out after the last game is still recorded, each a new dated
# line that changes no prize's money: a side pot's line (the 50/50 paid, a jackpot carried on or taken in) and a
# draw (a tie settled, a door prize drawn). The night's name, venue and paper size (what the sheets are titled and
# printed on) may still be put right.
UNFINISHED_TOO = ("name", "venue", "paper")


def require_unfinished(night: Night, field: str, what: str) -> None:
    """Refuse, beside `field`, a change to a night that is over: `what` says what no longer changes."""
    if night.status == Night.Status.FINISHED:
        raise ValidationError(
            {field: f"The night is over: {what}. What a night played, printed and paid stays as it was."}
        )


@transaction.atomic
def keeper_add(*, night: Night, username: str, password: str = "") -> User:
    """Give a person score-keeping rights on this night, making their account if it is new."""
    username = username.strip()
    if not username:
        raise ValidationError({"username": "Type a name to log in with."})
    user = User.objects.filter(username__iexact=username).first()
    if user is None:
        if len(password) < 8:
            raise ValidationError({"password": "A new keeper needs a password of at least 8 characters."})
        user = User(username=username)
        try:
            validate_password(password, user=user)  # Django's validators: not "password", nor the name, nor digits
        except ValidationError as error:
            raise ValidationError({"password": error.messages}) from error
        user.set_password(password)
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as error:
            raise ValidationError({"username": error.messages}) from error
        user.save()
        Membership.objects.get_or_create(user=user, defaults={"club_id": night.club_id})  # the night's club's
    elif not Membership.objects.filter(user=user, club=night.club_id).exists():
        # an account of another club (names are one list on a server): never lent across clubs
        raise ValidationError({"username": f"The name {username} is taken: choose another for this keeper."})
    elif user.is_staff:
        raise ValidationError({"username": f"{user.username} is an organizer and can already keep score."})
    night.keepers.add(user)
    return user


@transaction.atomic
def keeper_remove(*, night: Night, user_id: int) -> None:
    night.keepers.remove(user_id)


@transaction.atomic
def night_delete(*, night: Night, typed_name: str = "") -> str:
    """Delete a night and everything in it (a practice night, a night made by mistake); its name, for the answer.

    A night with results or money in it (`Night.contents().guarded`) goes only when the organizer types its name
    exactly: the Delete page asks first either way. Its players stay on the club roster; the files printed for it
    are removed once the deletion is committed.
    """
    night = lock_night(night)
    typed = typed_name.strip()
    if night.contents().guarded and typed != night.name:
        wrong = f"“{typed[:80]}” is not its name. " if typed else ""
        raise ValidationError(
            {
                "typed_name": f"{wrong}This night has results or money in it: to delete it with them, type its "
                f"name exactly, “{night.name}”."
            }
        )
    name = night.name
    files = [job.file.name for job in night.print_jobs.exclude(file="")]
    night.delete()

    def remove_files() -> None:
        for file in files:
            default_storage.delete(file)

    transaction.on_commit(remove_files)
    return name


def scoring_game(round_: Round, table: int, *, night: Night | None = None) -> score_services.Game:
    """What `scoring.services` needs to know of one table's game (under `night`'s rules when given)."""
    night = night or round_.night
    return score_services.Game(
        round_id=round_.pk,
        number=round_.number,
        table=table,
        head=table == HEAD_TABLE and night.head_table_ends,
        cut_short=table == HEAD_TABLE and round_.head_table_cut_short(night),
        ruleset=Ruleset.from_dict(night.rules),
        hands_per_game=night.hands_per_game,
        end=night.game_end(),
        tie_rule=night.tie_rule,
        draw_seed=seeds.tied_game(night.seed, round_.number, table),
        bell_at=round_.bell_at,
        confirm_results=night.confirm_results,
        # A table of three (only a night that seats them asks): one statement.
        three=night.fill == Night.Fill.THREES
        and is_three(Seating.objects.filter(round=round_, table=table).values_list("seat", flat=True)),
    )


@transaction.atomic
def night_rules_update(*, night: Night, preset: str, numbers: Mapping[str, Any], confirm: bool = False) -> int:
    """Change the night's ruleset and rescore every stored hand under it. Returns the number of hands rescored.

    With hands already recorded the organizer must confirm; the seating already played is kept even where a
    game's winner changes.
    """
    night = Night.objects.select_for_update().get(pk=night.pk)
    # Rescoring a finished night's hands would move its standings and prizes after they were printed and paid.
    require_unfinished(night, "scoring", "its scoring rules no longer change")
    if preset not in PRESETS:
        raise ValidationError({"scoring": f"Unknown preset {preset!r}."})
    try:
        ruleset = Ruleset.from_dict({**numbers, "name": preset})
    except (ScoringError, TypeError) as error:
        raise ValidationError({"__all__": str(error)}) from error
    recorded = score_services.hands_recorded(night.pk)
    if recorded and not confirm:
        raise ValidationError(
            {
                "confirm": f"{recorded} hand{'s are' if recorded > 1 else ' is'} already recorded: "
                "confirm to rescore them under the new rules."
            }
        )
    night.scoring = preset
    night.rules = ruleset.as_dict()
    night.save(update_fields=["scoring", "rules"])
    games = {
        result.pk: scoring_game(result.round, result.table, night=night)
        for result in TableResult.objects.filter(round__night=night, entry=TableResult.Entry.HANDS).select_related(
            "round"
        )
    }
    return score_services.hands_rescore(night_id=night.pk, ruleset=ruleset, games=games)
