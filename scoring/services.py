"""The only writers for game results and hands. Each service is one transaction.

A table's game is entered either hand by hand (`hand_record`, `hand_undo`, `table_finish`) or as the two game
totals from a paper sheet (`table_result_submit`). Either way the stored TableResult carries the game score, the
winner and whether the game is in.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from tournament import bell
from tournament.models import Night, Round, Seating
from tournament.selectors import card_numbers

from . import rules
from .models import Hand, Season, Submission, TableLink, TableResult, extras_of

HEAD_TABLE = 1
# Tables other than the head table deal until the bell; this only stops a runaway entry.
MAX_HANDS_FACTOR = 2


@dataclass(frozen=True)
class HandInput:
    """One hand as a scorer enters it: who called, how many tricks the makers took, and the options."""

    dealer: str
    makers: str
    tricks: int
    alone: bool = False
    maker: str | None = None
    blind: bool = False
    defender_alone: str | None = None
    bid: int | None = None
    pepper: str | None = None

    @classmethod
    def of(cls, hand: Any) -> HandInput:
        """The same hand from anything carrying these fields (a simulated hand, a stored Hand)."""
        return cls(**{field.name: getattr(hand, field.name) for field in fields(cls)})

    def as_rules_hand(self) -> rules.Hand:
        return rules.Hand(
            makers=self.makers,  # type: ignore[arg-type]
            tricks=self.tricks,
            alone=self.alone,
            maker=self.maker,  # type: ignore[arg-type]
            blind=self.blind,
            defender_alone=self.defender_alone,  # type: ignore[arg-type]
            bid=self.bid,
            pepper=self.pepper,  # type: ignore[arg-type]
        )


def night_rules(night: Night) -> rules.Ruleset:
    return rules.Ruleset.from_dict(night.rules)


def draw_seed(*, night_seed: int | None, round_number: int, table: int) -> int:
    """A reproducible seed for the app's draw on a tied game, from the night's recorded seed."""
    return ((night_seed or 0) * 1_000_003 + round_number * 1_009 + table) % 2**63


def _after_score(round_: Round) -> None:
    """Tell the room, and move on when this was the last table in after the bell."""
    Night.touch(round_.night_id)
    round_.refresh_from_db(fields=["status"])
    bell.advance_if_all_in(round_)


def _open_round(round_: Round) -> Round:
    """Lock the round and check that scores may be entered for it."""
    round_ = Round.objects.select_for_update().select_related("night").get(pk=round_.pk)
    if round_.status == Round.Status.SEATED:
        raise ValidationError({"__all__": f"Game {round_.number} has not started yet."})
    if round_.status == Round.Status.CLOSED:
        raise ValidationError({"__all__": f"Game {round_.number} is closed: its scores can no longer be changed."})
    return round_


def _check_table(round_: Round, table: int) -> None:
    if not Seating.objects.filter(round=round_, table=table).exists():
        raise ValidationError({"__all__": f"There is no table {table} in game {round_.number}."})


def _decide(result: TableResult, round_: Round, last_hand_winner: str | None) -> None:
    """Set the result's winner from its totals, under the night's tie rule."""
    night = round_.night
    try:
        outcome = rules.game_winner(
            result.ns_points,
            result.ew_points,
            tie_rule=night.tie_rule,
            last_hand_winner=last_hand_winner,
            draw_seed=draw_seed(night_seed=night.seed, round_number=round_.number, table=result.table),
        )
    except rules.ScoringError as error:
        raise ValidationError({"last_hand_winner": str(error)}) from error
    result.winner = outcome.winner
    result.tie_break = outcome.tie_break or ""


def result_extras_refresh(result: TableResult, hands: Sequence[Hand], ruleset: rules.Ruleset) -> None:
    """Set a result's stored extras (each seat's loners, euchres, marches, bonus) from its hands, unsaved.

    The one place they are worked out: every writer that changes a game's hands or the night's rules calls this.
    """
    result.extras = extras_of((hand.as_rules_hand() for hand in hands), ruleset)


def _total_hands(result: TableResult, round_: Round) -> None:
    """Recompute a hand-by-hand result from its stored hands (points as stored, winner of the last hand, extras)."""
    hands = list(result.hands.order_by("number"))
    ruleset = night_rules(round_.night)
    result.ns_points = sum(hand.ns_points for hand in hands)
    result.ew_points = sum(hand.ew_points for hand in hands)
    result.hands_played = len(hands)
    result_extras_refresh(result, hands, ruleset)
    last = hands[-1] if hands else None
    last_winner = None
    if last is not None:
        last_winner = rules.score_hand(last.as_rules_hand(), ruleset).winner
    if hands:
        _decide(result, round_, last_winner)


def _lock_round_for_scores(round_: Round, *, correction: bool) -> Round:
    """Lock the round: open for scores, or (a correction with a reason) closed as well."""
    round_ = Round.objects.select_for_update().select_related("night").get(pk=round_.pk)
    if round_.status == Round.Status.SEATED:
        raise ValidationError({"__all__": f"Game {round_.number} has not started yet."})
    if round_.status == Round.Status.CLOSED and not correction:
        raise ValidationError(
            {"__all__": f"Game {round_.number} is closed: a change now is a correction and needs a reason."}
        )
    return round_


def _check_totals(night: Night, ns_points: int, ew_points: int, hands_played: int | None) -> None:
    ruleset = night_rules(night)
    hands = night.hands_per_game if hands_played is None else hands_played
    if not 1 <= hands <= night.hands_per_game * MAX_HANDS_FACTOR:
        raise ValidationError({"hands_played": f"Hands played must be between 1 and {night.hands_per_game * 2}."})
    for name, value in (("ns_points", ns_points), ("ew_points", ew_points)):
        if value < 0 and rules.points_range(ruleset)[0] >= 0:
            raise ValidationError({name: "Points cannot be negative."})
        try:
            rules.check_game_total(value, hands, ruleset)
        except rules.ScoringError as error:
            raise ValidationError({name: str(error)}) from error


def _record(round_: Round, table: int, **fields) -> Submission:
    last = Submission.objects.filter(round=round_, table=table).order_by("-number").first()
    return Submission.objects.create(round=round_, table=table, number=(last.number + 1) if last else 1, **fields)


def _settle_drafts(round_: Round, table: int) -> None:
    """A score entered or confirmed settles whatever the table had typed before."""
    Submission.objects.filter(
        round=round_, table=table, status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED]
    ).update(status=Submission.Status.SUPERSEDED)


def new_key() -> str:
    """A one-time key for a score form, so the same form posted twice is stored once."""
    return secrets.token_urlsafe(24)


@transaction.atomic
def table_result_submit(
    *,
    round_: Round,
    table: int,
    ns_points: int,
    ew_points: int,
    last_hand_winner: str | None = None,
    hands_played: int | None = None,
    expected_version: int | None = None,
    user=None,
    role: str = Submission.Role.ORGANIZER,
    key: str | None = None,
    reason: str = "",
    side: str = "",
    confirmed_by: str = "",
) -> TableResult:
    """Record one table's game from its two totals. The game is then in, and the entry kept as a submission.

    `expected_version` is the version of the result the person was looking at (None for a first entry); a result
    changed since is refused rather than overwritten. `key` makes a repeated post harmless. After the game is
    closed a change is a correction: it needs a `reason`, and the seating already played stays.
    """
    reason = " ".join(reason.split())
    round_ = _lock_round_for_scores(round_, correction=bool(reason))
    if key and Submission.objects.filter(key=key).exists():  # checked under the lock: a double post waits here
        return TableResult.objects.get(round=round_, table=table)  # the same form, posted again
    _check_table(round_, table)
    result = TableResult.objects.select_for_update().filter(round=round_, table=table).first()
    return _store_total(
        round_,
        table,
        result,
        ns_points=ns_points,
        ew_points=ew_points,
        last_hand_winner=last_hand_winner,
        hands_played=hands_played,
        expected_version=expected_version,
        user=user,
        role=role,
        key=key,
        reason=reason,
        side=side,
        confirmed_by=confirmed_by,
    )


def _store_total(
    round_: Round,
    table: int,
    result: TableResult | None,
    *,
    ns_points: int,
    ew_points: int,
    last_hand_winner: str | None,
    hands_played: int | None,
    expected_version: int | None,
    user,
    role: str,
    key: str | None,
    reason: str,
    side: str,
    confirmed_by: str,
) -> TableResult:
    """table_result_submit's work once the round and the table's result row are locked and the table checked."""
    _check_totals(round_.night, ns_points, ew_points, hands_played)
    if result is not None and result.entry == TableResult.Entry.HANDS and result.hands.exists() and not reason:
        raise ValidationError(
            {"__all__": f"Table {table} is entering hand by hand ({result.hands.count()} hands so far)."}
        )
    if result is not None and expected_version != result.version:
        raise ValidationError(
            {
                "__all__": f"Table {table} already has a score, {result.ns_points}–{result.ew_points}, "
                "entered since this form was opened. Check it before changing it."
            }
        )
    before = f"{result.ns_points}–{result.ew_points}" if result else ""
    if result is None:
        result = TableResult(round=round_, table=table, version=1)
    else:
        result.version += 1
    if result.entry == TableResult.Entry.HANDS and result.pk:
        result.hands.all().delete()  # a correction of a hand-by-hand game replaces its hands by the total
    result.ns_points, result.ew_points = ns_points, ew_points
    result.hands_played = hands_played
    result_extras_refresh(result, [], night_rules(round_.night))  # no hands: nothing but the team score
    result.entry = TableResult.Entry.TOTALS
    result.status = TableResult.Status.FINAL
    _decide(result, round_, last_hand_winner)
    result.entered_by = user if getattr(user, "is_authenticated", False) else None
    # The fields' own checks; the round is locked and the constraints are the database's to enforce (checking
    # them here too cost six statements on every score).
    result.full_clean(exclude=["round", "entered_by"], validate_unique=False, validate_constraints=False)
    result.save()
    _settle_drafts(round_, table)
    _record(
        round_,
        table,
        role=role,
        user=result.entered_by,
        side=side,
        ns_points=ns_points,
        ew_points=ew_points,
        last_hand_winner=last_hand_winner or "",
        status=Submission.Status.CONFIRMED if confirmed_by else Submission.Status.APPLIED,
        reason=reason,
        before=before,
        confirmed_by=confirmed_by,
        key=key or new_key(),
    )
    if round_.status == Round.Status.CLOSED:
        Night.touch(round_.night_id)
    else:
        _after_score(round_)
    return result


def _seated(round_: Round, table: int) -> dict[str, Seating]:
    return {s.seat: s for s in Seating.objects.filter(round=round_, table=table).select_related("player")}


@transaction.atomic
def table_draft_submit(
    *,
    round_: Round,
    table: int,
    side: str,
    ns_points: int,
    ew_points: int,
    last_hand_winner: str | None = None,
    key: str | None = None,
) -> Submission:
    """A score typed on the table's phone by one side. It counts once the other side confirms it (or, when the
    night does not ask for confirmation, at once). Two different scores from the two sides are a dispute for the
    keeper, never settled silently."""
    round_ = _lock_round_for_scores(round_, correction=False)
    if key and (earlier := Submission.objects.filter(key=key).first()):
        return earlier
    _check_table(round_, table)
    if side not in ("NS", "EW"):
        raise ValidationError({"side": "Say which side you are: N–S or E–W."})
    _check_totals(round_.night, ns_points, ew_points, None)
    if last_hand_winner not in ("NS", "EW") and ns_points == ew_points and round_.night.tie_rule == "last_hand":
        raise ValidationError({"last_hand_winner": "The game is tied: say which team won the last hand."})
    result = TableResult.objects.select_for_update().filter(round=round_, table=table).first()
    if result is not None and result.status == TableResult.Status.FINAL:
        raise ValidationError(
            {
                "__all__": f"Table {table}'s score is in: {result.ns_points}–{result.ew_points}. "
                "Ask the keeper to change it."
            }
        )
    if not round_.night.confirm_results:
        _store_total(  # the round and the row are locked and the table checked already
            round_,
            table,
            result,
            ns_points=ns_points,
            ew_points=ew_points,
            last_hand_winner=last_hand_winner,
            hands_played=None,
            expected_version=result.version if result else None,
            user=None,
            role=Submission.Role.TABLE,
            key=key,
            reason="",
            side=side,
            confirmed_by="",
        )
        return Submission.objects.get(key=key) if key else Submission.objects.filter(round=round_, table=table).last()
    waiting = list(
        Submission.objects.select_for_update().filter(
            round=round_, table=table, status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED]
        )
    )
    other = [d for d in waiting if d.side != side]
    same = [d for d in waiting if d.side == side]
    Submission.objects.filter(pk__in=[d.pk for d in same]).update(status=Submission.Status.SUPERSEDED)
    draft = _record(
        round_,
        table,
        role=Submission.Role.TABLE,
        side=side,
        ns_points=ns_points,
        ew_points=ew_points,
        last_hand_winner=last_hand_winner or "",
        status=Submission.Status.DRAFT,
        key=key or new_key(),
    )
    if other:
        theirs = other[-1]
        if (theirs.ns_points, theirs.ew_points) == (ns_points, ew_points):
            _apply_draft(round_, table, theirs, confirmed_by=f"{side[0]}–{side[1]} entered the same score")
            draft.status = Submission.Status.CONFIRMED
        else:
            Submission.objects.filter(pk=theirs.pk).update(status=Submission.Status.DISPUTED)
            draft.status = Submission.Status.DISPUTED
        draft.save(update_fields=["status"])
    Night.touch(round_.night_id)
    return draft


def _apply_draft(round_: Round, table: int, draft: Submission, *, confirmed_by: str) -> None:
    result = TableResult.objects.filter(round=round_, table=table).first()
    table_result_submit(
        round_=round_,
        table=table,
        ns_points=draft.ns_points,
        ew_points=draft.ew_points,
        last_hand_winner=draft.last_hand_winner or None,
        expected_version=result.version if result else None,
        role=Submission.Role.TABLE,
        side=draft.side,
        confirmed_by=confirmed_by,
    )
    Submission.objects.filter(pk=draft.pk).update(status=Submission.Status.CONFIRMED, confirmed_by=confirmed_by)


@transaction.atomic
def table_draft_confirm(*, round_: Round, table: int, draft_number: int, player_number: int) -> TableResult:
    """The other side confirms a draft with one of their player numbers (from their tally cards)."""
    round_ = _lock_round_for_scores(round_, correction=False)
    draft = (
        Submission.objects.select_for_update()
        .filter(round=round_, table=table, number=draft_number, status=Submission.Status.DRAFT)
        .first()
    )
    if draft is None:
        raise ValidationError({"__all__": "That score is no longer waiting to be confirmed: reload the page."})
    seated = _seated(round_, table)
    other_side = [seated[seat] for seat in rules.SEATS_OF[rules.other(draft.side)]]
    numbers = card_numbers(round_.night, [seating.player_id for seating in other_side])
    confirmers = {numbers.get(seating.player_id): seating.player.name for seating in other_side}
    if player_number not in confirmers:
        other = rules.other(draft.side)
        raise ValidationError(
            {"player_number": f"Enter the number of a player sitting {other[0]}–{other[1]} at this table."}
        )
    _apply_draft(round_, table, draft, confirmed_by=confirmers[player_number])
    return TableResult.objects.get(round=round_, table=table)


def _hand_result(round_: Round, table: int) -> TableResult:
    result = TableResult.objects.select_for_update().filter(round=round_, table=table).first()
    if result is None:
        return TableResult(
            round=round_,
            table=table,
            ns_points=0,
            ew_points=0,
            winner="NS",
            status=TableResult.Status.PLAYING,
            entry=TableResult.Entry.HANDS,
            extras={},
        )
    if result.entry == TableResult.Entry.TOTALS:
        raise ValidationError({"__all__": f"Table {table}'s game was entered as totals from the score sheet."})
    return result


@transaction.atomic
def hand_record(*, round_: Round, table: int, hand: HandInput, user=None) -> Hand:
    """Add the next hand to a table's game, score it under the night's rules and update the game score.

    The dealer of the first hand is the scorer's choice (N by default); after that the deal passes to the left.
    The head table's last hand rings the bell; after the bell every other table may record the one hand it was
    playing, and its game is then in.
    """
    round_ = _open_round(round_)
    _check_table(round_, table)
    night = round_.night
    ruleset = night_rules(night)
    result = _hand_result(round_, table)
    if result.status == TableResult.Status.FINAL:
        raise ValidationError({"__all__": f"Table {table}'s game is over: no more hands. Undo the last to correct it."})
    previous = result.hands.order_by("-number").first() if result.pk else None
    count = previous.number if previous else 0
    if table == HEAD_TABLE and count >= night.hands_per_game:
        raise ValidationError({"__all__": f"The head table plays {night.hands_per_game} hands a game."})
    if count >= night.hands_per_game * MAX_HANDS_FACTOR:
        raise ValidationError({"__all__": f"Table {table} has already played {count} hands this game."})
    if round_.bell_at is not None and previous is not None and previous.recorded_at >= round_.bell_at:
        raise ValidationError({"__all__": "The bell has rung and this table has recorded the hand it was playing."})
    dealer = rules.next_dealer(previous.dealer) if previous else (hand.dealer or "N")
    if dealer not in rules.SEATS:
        raise ValidationError({"dealer": "The dealer is N, E, S or W."})
    maker = hand.maker
    makers = hand.makers or (rules.side_of(maker) if maker else "")
    entered = replace(hand, makers=makers, dealer=dealer)
    try:
        score = rules.score_hand(entered.as_rules_hand(), ruleset)
    except rules.ScoringError as error:
        raise ValidationError({"hand": str(error)}) from error

    if result.pk is None:
        result.entered_by = user if getattr(user, "is_authenticated", False) else None
        result.save()
    record = Hand.objects.create(
        result=result,
        number=count + 1,
        dealer=dealer,
        makers=makers,
        maker=maker or "",
        alone=entered.alone,
        blind=entered.blind,
        defender_alone=entered.defender_alone or "",
        bid=entered.bid,
        pepper=entered.pepper or "",
        tricks=entered.tricks,
        ns_points=score.ns,
        ew_points=score.ew,
    )
    _total_hands(result, round_)
    head_done = table == HEAD_TABLE and record.number == night.hands_per_game
    if head_done or round_.bell_at is not None:
        result.status = TableResult.Status.FINAL  # the head table's last hand, or the hand in play at the bell
    result.version += 1
    result.save()
    if head_done:
        bell.ring(round_, cause=f"the head table's hand {record.number}", at=record.recorded_at)
    _after_score(round_)
    return record


@transaction.atomic
def hand_undo(*, round_: Round, table: int) -> TableResult | None:
    """Take back a table's last hand; its game is open again. None when no hand is left."""
    round_ = _open_round(round_)
    result = TableResult.objects.select_for_update().filter(round=round_, table=table).first()
    last = result.hands.order_by("-number").first() if result else None
    if result is None or last is None:
        raise ValidationError({"__all__": f"Table {table} has no hand to undo."})
    if table == HEAD_TABLE and round_.bell_cause.startswith("the head table") and last.recorded_at >= round_.bell_at:
        others_after = Hand.objects.filter(
            result__round=round_, recorded_at__gte=round_.bell_at, result__table__gt=HEAD_TABLE
        ).exists()
        if others_after:
            raise ValidationError(
                {"__all__": "Other tables have finished since the bell: correct this hand instead of undoing it."}
            )
        bell.unring(round_, cause="the head table took back its last hand")
    last.delete()
    if not result.hands.exists():
        result.delete()
        Night.touch(round_.night_id)
        return None
    _total_hands(result, round_)
    result.status = TableResult.Status.PLAYING
    result.version += 1
    result.save()
    Night.touch(round_.night_id)
    return result


@transaction.atomic
def table_finish(*, round_: Round, table: int) -> TableResult:
    """A table entering hand by hand says its game is over (after the bell, or when it stops early)."""
    round_ = _open_round(round_)
    result = TableResult.objects.select_for_update().filter(round=round_, table=table).first()
    if result is None or not result.hands.exists():
        raise ValidationError({"__all__": f"Table {table} has no hands yet: enter them, or the game totals."})
    result.status = TableResult.Status.FINAL
    result.version += 1
    result.save(update_fields=["status", "version", "updated_at"])
    _after_score(round_)
    return result


@transaction.atomic
def night_rules_update(*, night: Night, preset: str, numbers: Mapping[str, Any], confirm: bool = False) -> int:
    """Change the night's ruleset and rescore every stored hand under it. Returns the number of hands rescored.

    With hands already recorded the organizer must confirm; the seating already played is kept even where a
    game's winner changes.
    """
    night = Night.objects.select_for_update().get(pk=night.pk)
    if preset not in rules.PRESETS:
        raise ValidationError({"scoring": f"Unknown preset {preset!r}."})
    try:
        ruleset = rules.Ruleset.from_dict({**numbers, "name": preset})
    except (rules.ScoringError, TypeError) as error:
        raise ValidationError({"__all__": str(error)}) from error
    hands = list(Hand.objects.filter(result__round__night=night).select_related("result__round"))
    if hands and not confirm:
        raise ValidationError(
            {
                "confirm": f"{len(hands)} hand{'s are' if len(hands) > 1 else ' is'} already recorded: "
                "confirm to rescore them under the new rules."
            }
        )
    for hand in hands:
        try:
            score = rules.score_hand(hand.as_rules_hand(), ruleset)
        except rules.ScoringError as error:
            raise ValidationError(
                {"__all__": f"Game {hand.result.round.number}, table {hand.result.table}, hand {hand.number}: {error}"}
            ) from error
        hand.ns_points, hand.ew_points = score.ns, score.ew
    Hand.objects.bulk_update(hands, ["ns_points", "ew_points"])
    night.scoring = preset
    night.rules = ruleset.as_dict()
    night.save(update_fields=["scoring", "rules"])
    rescored = {hand.result_id: hand.result.round for hand in hands}
    for result in TableResult.objects.filter(pk__in=rescored).select_for_update():
        round_ = rescored[result.pk]
        round_.night = night
        _total_hands(result, round_)
        result.version += 1
        result.save()
    return len(hands)


@transaction.atomic
def table_links_ensure(*, night: Night) -> list[TableLink]:
    """A live link for every table of the night's latest game (made once, kept until regenerated)."""
    current = night.rounds.order_by("-number").first()
    tables = set(current.seatings.values_list("table", flat=True)) if current else set()
    have = set(TableLink.objects.filter(night=night, active=True).values_list("table", flat=True))
    TableLink.objects.bulk_create(
        TableLink(night=night, table=table, token=secrets.token_urlsafe(18)) for table in sorted(tables - have)
    )
    return list(TableLink.objects.filter(night=night, active=True).order_by("table"))


@transaction.atomic
def table_link_regenerate(*, night: Night, table: int) -> TableLink:
    """A new link for one table; the old one stops working at once."""
    TableLink.objects.select_for_update().filter(night=night, table=table, active=True).update(active=False)
    return TableLink.objects.create(night=night, table=table, token=secrets.token_urlsafe(18))


# --- seasons ----------------------------------------------------------------------------------------------------------

SEASON_FIELDS = ("name", "club", "notes", "method", "best_of")


def _season_save(season: Season) -> Season:
    season.name = " ".join(season.name.split())
    season.club = " ".join(season.club.split())
    season.notes = season.notes.strip()
    if not season.name:
        raise ValidationError({"name": "Give the season a name, for example “Winter 2027”."})
    if season.method != Season.Method.BEST:
        season.best_of = None  # a number that counts for nothing would only confuse the next reader
    season.full_clean(exclude=["created_by"])
    season.save()
    return season


@transaction.atomic
def season_create(
    *,
    name: str,
    club: str = "",
    notes: str = "",
    method: str = Season.Method.TOTAL,
    best_of: int | None = None,
    created_by=None,
) -> Season:
    """A new season with no nights yet."""
    season = Season(name=name, club=club, notes=notes, method=method, best_of=best_of)
    season.created_by = created_by if getattr(created_by, "is_authenticated", False) else None
    return _season_save(season)


@transaction.atomic
def season_update(*, season: Season, **changes: Any) -> Season:
    """Change a season's name, club, notes or how it ranks players."""
    unknown = sorted(set(changes) - set(SEASON_FIELDS))
    if unknown:
        raise ValidationError({"__all__": f"A season has no setting {unknown[0]!r}."})
    season = Season.objects.select_for_update().get(pk=season.pk)
    for name, value in changes.items():
        setattr(season, name, value)
    return _season_save(season)


def _nights(night_ids: Sequence[int]) -> list[Night]:
    ids = list(dict.fromkeys(night_ids))
    nights = list(Night.objects.filter(pk__in=ids))
    if len(nights) != len(ids):
        missing = sorted(set(ids) - {night.pk for night in nights})
        raise ValidationError({"nights": f"No such night: {', '.join(map(str, missing))}."})
    return nights


@transaction.atomic
def season_nights_add(*, season: Season, night_ids: Sequence[int]) -> Season:
    """Add nights to a season; a night already in it stays once."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    nights = _nights(night_ids)
    if not nights:
        raise ValidationError({"nights": "Pick at least one night to add."})
    season.nights.add(*nights)
    return season


@transaction.atomic
def season_nights_remove(*, season: Season, night_ids: Sequence[int]) -> Season:
    """Take nights out of a season (the nights themselves are kept)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    ids = set(night_ids)
    outside = sorted(ids - set(season.nights.filter(pk__in=ids).values_list("pk", flat=True)))
    if outside:
        raise ValidationError({"nights": f"Not in this season: night {', '.join(map(str, outside))}."})
    season.nights.remove(*ids)
    return season


@transaction.atomic
def season_nights_set(*, season: Season, night_ids: Sequence[int]) -> Season:
    """Make the season's nights exactly these (the organizer's ticked list)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    season.nights.set(_nights(night_ids))
    return season
