"""The only writers of a table's record: its hands, its game totals, the entries typed at the table.

Each is called by the game's owner (`tournament.game`) inside its transaction, once it has locked the round and
checked that the game takes scores. They know nothing of rounds' states, seats or the bell: they are told what
they need as a `Game`, and they report what happened (the table's game is in; the head table played its last hand)
for the owner to decide what follows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError

from . import rules, three
from .ending import Ending, GameEnd, ending, three_totals_fault
from .entry import Totals
from .models import ActionKey, Hand, Submission, TableResult, extras_of
from .seats import SEAT_NAMES, SIDE_NAMES, SIDES, side_of


@dataclass(frozen=True)
class Game:
    """What the record of one table's game needs to know of it, as the game's owner tells it."""

    round_id: int
    number: int  # the game's number in the night, for messages
    table: int
    head: bool  # the head table, on a night where its last hand rings the bell
    ruleset: rules.Ruleset
    hands_per_game: int
    end: GameEnd  # how the night's games end (the points target, the cap on a table's hands)
    tie_rule: str
    draw_seed: int  # for the app's draw on a tied game
    bell_at: dt.datetime | None = None
    confirm_results: bool = True
    three: bool = False  # a table of three: three-handed, each seat's own points (`scoring.three`)
    cut_short: bool = False  # the head table, whose bell rang before its last hand (the organizer, the timer)


@dataclass(frozen=True)
class HandAdded:
    """What a new hand did: the hand, whether it took a side to the night's points target, and whether it ended
    the head table's game (its last hand, or its target: the bell rings)."""

    hand: Hand
    head_table_done: bool
    reached: str | None = None  # the side at the target


def result_extras_refresh(result: TableResult, hands: Sequence[Hand], ruleset: rules.Ruleset) -> None:
    """Set a result's stored extras (each seat's loners, euchres, marches, bonus) from its hands, unsaved.

    The one place they are worked out: every writer that changes a game's hands or the night's rules calls this.
    """
    result.extras = extras_of((hand.as_rules_hand() for hand in hands), ruleset)


def _ending(
    game: Game,
    ns_points: int,
    ew_points: int,
    last_hand: str | None,
    *,
    from_hands: bool = False,
    hands: int | None = None,
) -> Ending:
    """How the game stopped at these totals, and who won it (`scoring.ending`, the one rule for every reader);
    `hands`: the most hands the table can have played (None: the night's cap)."""
    return ending(
        game.end,
        game.ruleset,
        ns_points,
        ew_points,
        last_hand=last_hand,
        from_hands=from_hands,
        tie_rule=game.tie_rule,
        draw_seed=game.draw_seed,
        hands=hands,
    )


def _decide(result: TableResult, game: Game, last_hand_winner: str | None, *, from_hands: bool = False) -> None:
    """Set the result's winner from its totals: at the target by the game's rule, at the bell the higher total and
    a tie by the night's tie rule. Totals that cannot say who won are asked about (`last_hand_winner`)."""
    outcome = _ending(game, result.ns_points, result.ew_points, last_hand_winner, from_hands=from_hands)
    if outcome.fault:
        raise ValidationError({"__all__": outcome.fault})
    if outcome.ask or outcome.winner is None:
        raise ValidationError({"last_hand_winner": outcome.ask})
    result.winner = outcome.winner
    result.tie_break = outcome.tie_break


def _total_hands(result: TableResult, game: Game) -> None:
    """Recompute a hand-by-hand result from its stored hands (points as stored, winner of the last hand, extras)."""
    hands = list(result.hands.order_by("number"))
    result.ns_points = sum(hand.ns_points for hand in hands)
    result.ew_points = sum(hand.ew_points for hand in hands)
    result.hands_played = len(hands)
    result_extras_refresh(result, hands, game.ruleset)
    if hands:
        # The side the last hand went to: at the target it says who got there (on offense, both at once); at the
        # bell it settles a tie under the "last hand" rule.
        went_to = rules.score_hand(hands[-1].as_rules_hand(), game.ruleset).winner
        _decide(result, game, went_to, from_hands=True)


SURE = "Check the score sheet; if it is right, tick “yes, that is the score” and save again."


def _check_totals(
    game: Game,
    ns_points: int,
    ew_points: int,
    hands_played: int | None,
    sure: bool = False,
    last_hand_winner: str | None = None,
) -> None:
    """Refuse totals no hands allowed at this table could make: the head table plays exactly its hands a game (or
    fewer, when a side reached the night's target or the bell rang first for another cause), another table any
    number up to the cap before the bell (or exactly `hands_played`, when the sheet says); a game at the target
    stops at the hand that took a side there (`scoring.ending`), and where the totals cannot say who won, the team
    that won the last hand is asked for.
    Totals that are possible but more than a game's hands make are asked about once (`sure` says they were)."""
    cap = game.end.cap
    reached = game.end.reached(ns_points, ew_points)
    exactly = hands_played is not None or (game.head and not game.cut_short and reached is None)
    hands = hands_played if hands_played is not None else (game.hands_per_game if game.head else cap)
    if not 1 <= hands <= cap:
        raise ValidationError({"hands_played": f"Hands played must be between 1 and {cap}."})
    for name, value in (("ns_points", ns_points), ("ew_points", ew_points)):
        if value < 0 and rules.points_range(game.ruleset)[0] >= 0:
            raise ValidationError({name: "Points cannot be negative."})
        try:
            rules.check_game_total(value, hands, game.ruleset)
        except rules.ScoringError as error:
            raise ValidationError({name: str(error)}) from error
    try:
        rules.check_game_totals(ns_points, ew_points, hands, game.ruleset, exactly=exactly)
    except rules.ScoringError as error:
        raise ValidationError({"__all__": str(error)}) from error
    outcome = _ending(game, ns_points, ew_points, last_hand_winner, hands=hands)
    if outcome.fault:
        raise ValidationError({"__all__": outcome.fault})
    if outcome.ask:
        raise ValidationError({"last_hand_winner": outcome.ask})
    if exactly or reached is not None:
        return
    unusual = rules.unusual_game_totals(ns_points, ew_points, game.hands_per_game, game.ruleset)
    if unusual and not sure:
        raise ValidationError({"sure": f"{unusual}: {SURE}"})


def _check_three(
    game: Game, seat_points: Mapping[str, int], hands_played: int | None, last_hand_winner: str | None, sure: bool
) -> dict[str, int]:
    """A table of three's totals, refused field by field (`n_points`, `e_points`, `s_points`) where no hands
    allowed at this table could make them; a tie at the top under the "last hand" rule needs its winner."""
    cap = game.end.cap
    hands = hands_played if hands_played is not None else (game.hands_per_game if game.head else cap)
    if not 1 <= hands <= cap:
        raise ValidationError({"hands_played": f"Hands played must be between 1 and {cap}."})
    points = {seat: seat_points.get(seat) for seat in three.THREE_SEATS}
    errors = three.check_totals(points, hands)  # type: ignore[arg-type]
    if errors:
        raise ValidationError({f"{seat.lower()}_points": reason for seat, reason in errors.items()})
    checked = {seat: int(value) for seat, value in points.items() if value is not None}
    if fault := three_totals_fault(game.end, checked):
        raise ValidationError({"__all__": fault})
    needed = three.hands_needed(checked)
    if hands_played is None and not game.head and needed is not None and needed > game.hands_per_game and not sure:
        more = f"These scores need more than the {game.hands_per_game} hands a game has"
        raise ValidationError({"sure": f"{more}: {SURE}"})
    top = max(checked.values())
    level = [seat for seat, value in checked.items() if value == top]
    if len(level) > 1 and game.tie_rule == "last_hand":
        if not last_hand_winner:
            raise ValidationError({"last_hand_winner": "The game is tied at the top: say who won the last hand."})
        if last_hand_winner not in (*level, three.DRAWN):
            raise ValidationError(
                {"last_hand_winner": f"{SEAT_NAMES.get(last_hand_winner, last_hand_winner)} is not level at the top."}
            )
    return checked


def _decide_three(result: TableResult, game: Game, last_hand_winner: str | None) -> None:
    """A table of three's winner: the most points; a tie at the top by the night's rule (`three.outcome`)."""
    assert result.seat_points is not None
    decided = three.outcome(
        result.seat_points,
        tie_rule=game.tie_rule,
        last_hand_winners=(last_hand_winner,) if last_hand_winner and last_hand_winner != three.DRAWN else (),
        draw_seed=game.draw_seed,
    )
    result.winner = decided.winner
    result.tie_break = decided.tie_break


def _record(game: Game, **values: Any) -> Submission:
    last = (
        Submission.objects.filter(round_id=game.round_id, table=game.table)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return Submission.objects.create(round_id=game.round_id, table=game.table, number=(last or 0) + 1, **values)


def _settle_drafts(game: Game, keep: Submission | None = None) -> None:
    """A score entered or confirmed settles whatever the table had typed before (`keep`: the draft being
    confirmed, which is the score)."""
    waiting = Submission.objects.filter(
        round_id=game.round_id,
        table=game.table,
        status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED],
    )
    if keep is not None:
        waiting = waiting.exclude(pk=keep.pk)
    waiting.update(status=Submission.Status.SUPERSEDED)


def key_used(key: str | None) -> Submission | None:
    """The entry already stored under a form's one-time key, if the same form was posted before."""
    return Submission.objects.filter(key=key).first() if key else None


def hand_key_used(key: str | None) -> Hand | None:
    """The hand already stored under a tap's one-time key, if the same hand was sent before."""
    return Hand.objects.select_related("result").filter(key=key).first() if key else None


def action_key_used(key: str | None) -> ActionKey | None:
    """The Undo or Game over already done under a tap's one-time key, if the same tap was sent before."""
    return ActionKey.objects.filter(key=key).first() if key else None


def action_key_keep(game: Game, *, kind: str, key: str) -> None:
    """Remember the one-time key of an Undo or a Game over just done (nothing without a key)."""
    if key:
        ActionKey.objects.create(key=key, round_id=game.round_id, table=game.table, kind=kind)


def result_locked(game: Game) -> TableResult | None:
    """The table's result row, locked for the rest of the transaction (None before anything was entered)."""
    return TableResult.objects.select_for_update().filter(round_id=game.round_id, table=game.table).first()


@dataclass(frozen=True)
class TableHands:
    """A table's result row, locked, and its last hand, read once for a hand's checks and its entry."""

    result: TableResult | None
    last: Hand | None


def table_hands_locked(game: Game) -> TableHands:
    """The table's result row locked for the rest of the transaction, and its last hand (None and None before
    anything was entered)."""
    result = result_locked(game)
    return TableHands(result, result.hands.order_by("-number").first() if result else None)


def _check_shape(game: Game, totals: Totals) -> None:
    """Refuse two sides' totals at a table of three, or three players' at a table of four (a page drawn before the
    seating changed)."""
    if game.three != (totals.seat_points is not None):
        raise ValidationError(
            {"__all__": f"Table {game.table} has {'three' if game.three else 'four'} players: reload the page."}
        )


def total_store(
    game: Game, totals: Totals, *, user=None, role: str = Submission.Role.ORGANIZER, confirmed_by: str = ""
) -> TableResult:
    """Store a table's game from its two totals: the game is then in, and the entry kept as a submission.

    `totals.expected_version` is the version of the result the person was looking at (None for a first entry); a
    result changed since is refused rather than overwritten. A `reason` makes it a correction of a closed game.
    A table entering hand by hand is taken over only when the keeper says so (`take_over`): its hands are then
    replaced by the totals, and the entry says what they were. `user` (with their `role`) typed it; a draft
    applied says who confirmed it (`confirmed_by`).
    """
    return _totals_stored(game, result_locked(game), totals, user=user, role=role, confirmed_by=confirmed_by)[0]


def _totals_stored(
    game: Game,
    result: TableResult | None,
    totals: Totals,
    *,
    user=None,
    role: str = Submission.Role.ORGANIZER,
    confirmed_by: str = "",
    draft: Submission | None = None,
) -> tuple[TableResult, Submission]:
    """`total_store` for a result row the caller has locked already (None: none yet); the result and the entry.

    At a table of three the totals are `seat_points` (N, E, S), checked against what its hands can make. `draft`:
    the table's own entry this stores, confirmed by the other side (`confirmed_by`): it is the record, marked
    confirmed, and no second entry is written (the table's history says the score once, by the side that typed
    it)."""
    table = game.table
    ns_points, ew_points, seat_points = totals.ns_points, totals.ew_points, totals.seat_points
    last_hand_winner, hands_played, reason = totals.last_hand_winner, totals.hands_played, totals.reason
    _check_shape(game, totals)
    if seat_points is not None:
        seat_points = _check_three(game, seat_points, hands_played, last_hand_winner, totals.sure)
        ns_points = ew_points = 0
    else:
        _check_totals(game, ns_points, ew_points, hands_played, totals.sure, last_hand_winner)
    hands = result.hands.count() if result is not None and result.entry == TableResult.Entry.HANDS else 0
    if hands and result is not None and not (reason or totals.take_over):
        counted = f"{hands} hand{'s' if hands != 1 else ''}"
        state = (
            f"'s game is in, entered hand by hand at the table ({counted}, "
            if result.status == TableResult.Status.FINAL
            else f" is entering hand by hand ({counted} so far, "
        )
        raise ValidationError(
            {
                "take_over": f"Table {table}{state}{result.ns_points}–{result.ew_points}). Tick “take over” to "
                "replace its hands by this total."
            }
        )
    if result is not None and totals.expected_version != result.version:
        raise ValidationError(
            {
                "__all__": f"Table {table} already has a score, {result.ns_points}–{result.ew_points}, "
                "entered since this form was opened. Check it before changing it."
            }
        )
    before = result.score_text if result else ""
    if hands:
        before += f" after {hands} hand{'s' if hands != 1 else ''} entered at the table"
        reason = reason or "the keeper took over from hand-by-hand entry"
    if result is None:
        result = TableResult(round_id=game.round_id, table=table, version=1)
    else:
        result.version += 1
    if result.entry == TableResult.Entry.HANDS and result.pk:
        result.hands.all().delete()  # a correction of a hand-by-hand game replaces its hands by the total
    result.ns_points, result.ew_points = ns_points, ew_points
    result.seat_points = dict(seat_points) if seat_points is not None else None
    result.hands_played = hands_played
    result_extras_refresh(result, [], game.ruleset)  # no hands: nothing but the team score
    result.entry = TableResult.Entry.TOTALS
    result.status = TableResult.Status.FINAL
    if seat_points is not None:
        _decide_three(result, game, last_hand_winner)
    else:
        _decide(result, game, last_hand_winner)
    result.entered_by = user if getattr(user, "is_authenticated", False) else None
    # The fields' own checks; the round is locked and the constraints are the database's to enforce (checking
    # them here too cost six statements on every score).
    result.full_clean(exclude=["round", "entered_by"], validate_unique=False, validate_constraints=False)
    result.save()
    _settle_drafts(game, keep=draft)
    if draft is not None:
        draft.status, draft.confirmed_by = Submission.Status.CONFIRMED, confirmed_by
        draft.reason, draft.before = reason or draft.reason, before or draft.before
        draft.save(update_fields=["status", "confirmed_by", "reason", "before"])
        return result, draft
    entry = _record(
        game,
        role=role,
        user=result.entered_by,
        side=totals.side,
        ns_points=ns_points,
        ew_points=ew_points,
        seat_points=result.seat_points,
        # A table of three's "both or neither" is the result's drawn tie-break: nothing to keep here.
        last_hand_winner=last_hand_winner if last_hand_winner and last_hand_winner != three.DRAWN else "",
        status=Submission.Status.CONFIRMED if confirmed_by else Submission.Status.APPLIED,
        reason=reason,
        before=before,
        confirmed_by=confirmed_by,
        key=totals.key or Submission.new_key(),
    )
    return result, entry


def draft_store(game: Game, totals: Totals) -> Submission:
    """A score typed on the table's phone by one side (`totals.side`). It counts once the other side confirms it
    (or, when the night does not ask for confirmation, at once). Two different scores from the two sides are a
    dispute for the keeper, never settled silently. At a table of three (`seat_points`) each player is a side of
    their own: a score one player typed counts once another confirms it.

    A draft is the score, its side, its key and `sure`: a phone says nothing of hands played, versions or
    corrections."""
    table, side = game.table, totals.side
    ns_points, ew_points, seat_points = totals.ns_points, totals.ew_points, totals.seat_points
    last_hand_winner = totals.last_hand_winner
    _check_shape(game, totals)
    if seat_points is not None:
        if side not in three.THREE_SEATS:
            raise ValidationError({"side": "Say who you are."})
        seat_points = _check_three(game, seat_points, None, last_hand_winner, totals.sure)
    else:
        if side not in SIDES:
            raise ValidationError({"side": "Say which side you are: N–S or E–W."})
        _check_totals(game, ns_points, ew_points, None, totals.sure, last_hand_winner)
    result = result_locked(game)
    if result is not None and result.status == TableResult.Status.FINAL:
        raise ValidationError(
            {"__all__": f"Table {table}'s score is in: {result.score_text}. Ask the keeper to change it."}
        )
    if not game.confirm_results:
        typed = Totals(
            ns_points=ns_points,
            ew_points=ew_points,
            seat_points=seat_points,
            last_hand_winner=last_hand_winner,
            sure=totals.sure,
            expected_version=result.version if result else None,
            key=totals.key,
            side=side,
        )
        return _totals_stored(game, result, typed, role=Submission.Role.TABLE)[1]
    waiting = list(
        Submission.objects.select_for_update().filter(
            round_id=game.round_id, table=table, status__in=[Submission.Status.DRAFT, Submission.Status.DISPUTED]
        )
    )
    other = [d for d in waiting if d.side != side]
    same = [d for d in waiting if d.side == side]
    Submission.objects.filter(pk__in=[d.pk for d in same]).update(status=Submission.Status.SUPERSEDED)
    draft = _record(
        game,
        role=Submission.Role.TABLE,
        side=side,
        ns_points=ns_points,
        ew_points=ew_points,
        seat_points=seat_points,
        last_hand_winner=last_hand_winner or "",
        status=Submission.Status.DRAFT,
        key=totals.key or Submission.new_key(),
    )
    if other:
        theirs = other[-1]
        if (theirs.ns_points, theirs.ew_points, theirs.seat_points) == (ns_points, ew_points, seat_points):
            who = SEAT_NAMES[side] if seat_points is not None else f"{side[0]}–{side[1]}"
            _apply_draft(game, theirs, confirmed_by=f"{who} entered the same score")
            draft.status = Submission.Status.CONFIRMED
        else:
            Submission.objects.filter(pk=theirs.pk).update(status=Submission.Status.DISPUTED)
            draft.status = Submission.Status.DISPUTED
        draft.save(update_fields=["status"])
    return draft


def _apply_draft(game: Game, draft: Submission, *, confirmed_by: str) -> TableResult:
    result = result_locked(game)
    typed = Totals(
        ns_points=draft.ns_points,
        ew_points=draft.ew_points,
        seat_points=draft.seat_points,
        last_hand_winner=draft.last_hand_winner or None,
        sure=True,  # the side that typed it was asked already, and the other side has checked it
        expected_version=result.version if result else None,
        side=draft.side,
    )
    stored, _ = _totals_stored(game, result, typed, role=Submission.Role.TABLE, confirmed_by=confirmed_by, draft=draft)
    return stored


def draft_waiting(game: Game, draft_number: int) -> Submission:
    """The table's draft `draft_number`, locked, if it is still waiting for the other side."""
    draft = (
        Submission.objects.select_for_update()
        .filter(round_id=game.round_id, table=game.table, number=draft_number, status=Submission.Status.DRAFT)
        .first()
    )
    if draft is None:
        raise ValidationError({"__all__": _not_waiting(game, draft_number)})
    return draft


def _not_waiting(game: Game, draft_number: int) -> str:
    """Why draft `draft_number` can no longer be confirmed (a confirmation kept on a phone, or a page left open,
    arriving after the table's score moved on), in words: what the table's score is now, and what to do."""
    result = TableResult.objects.filter(round_id=game.round_id, table=game.table).first()
    score = f"N–S {result.ns_points}, E–W {result.ew_points}" if result else ""
    was = Submission.objects.filter(round_id=game.round_id, table=game.table, number=draft_number).first()
    if result is not None and result.entered_by_id and result.entry == TableResult.Entry.TOTALS:
        why = f"The desk entered {score} for this table"
    elif was is not None and was.status in (Submission.Status.CONFIRMED, Submission.Status.APPLIED) and result:
        why = f"This score was already confirmed: {score}"
    elif was is not None and was.status == Submission.Status.DISPUTED:
        why = "The other side entered a different score: the two do not agree, so the score keeper decides"
    elif was is not None and result is not None and result.status == TableResult.Status.FINAL:
        why = f"This table's score went in as {score}"
    elif was is not None:
        why = "A later score was entered for this table since: confirm that one, if it is right"
    else:
        why = "This table has no such score waiting"
    return f"{why}. This confirmation was not saved. Ask the score keeper if that is not the score."


def draft_confirm(game: Game, draft: Submission, *, side: str, name: str) -> TableResult:
    """A player of `side` (named `name`) confirms a draft: only the side that did not enter it may (at a table of
    three, `side` is the player's seat: anyone but the one who entered it)."""
    if side == draft.side and draft.seat_points is not None:
        raise ValidationError({"code": "You entered this score: another player at the table confirms it."})
    if side == draft.side:
        raise ValidationError(
            {"code": f"{SIDE_NAMES[side]} entered this score: a player of the other side confirms it."}
        )
    return _apply_draft(game, draft, confirmed_by=name)


def _hand_result(game: Game, result: TableResult | None) -> TableResult:
    if result is None:
        return TableResult(
            round_id=game.round_id,
            table=game.table,
            ns_points=0,
            ew_points=0,
            winner="NS",
            status=TableResult.Status.PLAYING,
            entry=TableResult.Entry.HANDS,
            extras={},
        )
    if result.entry == TableResult.Entry.TOTALS:
        raise ValidationError({"__all__": f"Table {game.table}'s game was entered as totals from the score sheet."})
    return result


def hand_add(game: Game, *, hand: rules.Hand, user=None, key: str = "", locked: TableHands | None = None) -> HandAdded:
    """Add the next hand to a table's game, score it under the night's rules and update the game score.

    The dealer of the first hand is the scorer's choice (N by default); after that the deal passes to the left.
    No hand makes a game final: a table's game is in when it says "Game over" (`table_finish`), so a table that
    kept its hands on paper may enter them all after the bell, and a mis-tapped last hand can still be undone.
    The head table plays exactly its hands a game; another table up to the cap. `locked`: the table's result and
    last hand as the caller has just read them, in this transaction (`table_hands_locked`), not read again.
    """
    table = game.table
    if game.three:
        raise ValidationError(
            {"__all__": f"Table {table} is a table of three: its game goes in as each player's points, at the desk."}
        )
    locked = locked or table_hands_locked(game)
    result = _hand_result(game, locked.result)
    if result.status == TableResult.Status.FINAL:
        raise ValidationError(
            {"__all__": f"Table {table}'s game is in: no more hands. To correct it, ask the score keeper."}
        )
    previous = locked.last
    # The side the last hand went to: "on offense" only it can have reached the target; both at it, it took the bid.
    went_to = rules.score_hand(previous.as_rules_hand(), game.ruleset).winner if previous else None
    if (side := game.end.reached(result.ns_points, result.ew_points, went_to)) and result.pk:
        raise ValidationError(
            {
                "__all__": f"{SIDE_NAMES[side]} reached {game.end.target} points: table {table}'s game is over. "
                "Tap “Game over”, or undo the last hand to correct it."
            }
        )
    count = previous.number if previous else 0
    if game.head and count >= game.hands_per_game:
        raise ValidationError({"__all__": f"The head table plays {game.hands_per_game} hands a game."})
    if count >= game.end.cap:
        raise ValidationError({"__all__": f"Table {table} has already played {count} hands this game."})
    dealer = rules.next_dealer(previous.dealer) if previous else (hand.dealer or "N")
    if dealer not in rules.SEATS:
        raise ValidationError({"dealer": "The dealer is N, E, S or W."})
    maker = hand.maker
    makers = hand.makers or (side_of(maker) if maker else "")
    entered = replace(hand, makers=makers, dealer=dealer)
    try:
        if entered.renege is not None:  # recorded as it is scored: the other side took every trick
            entered = rules.forfeited(entered, game.ruleset)
        score = rules.score_hand(entered, game.ruleset)
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
        renege=entered.renege or "",
        passed=entered.passed,
        ns_points=score.ns,
        ew_points=score.ew,
        key=key,
    )
    _total_hands(result, game)
    result.version += 1
    result.save()
    reached = game.end.reached(result.ns_points, result.ew_points, score.winner)
    done = game.head and (record.number == game.hands_per_game or reached is not None)
    return HandAdded(record, head_table_done=done, reached=reached)


def hands_since(round_id: int, at: dt.datetime, *, except_table: int) -> bool:
    """Whether any other table of the round has recorded a hand since `at`."""
    return (
        Hand.objects.filter(result__round_id=round_id, recorded_at__gte=at).exclude(result__table=except_table).exists()
    )


def hand_take_back(game: Game, *, locked: TableHands | None = None) -> TableResult | None:
    """Take back a table's last hand; its game is open again. None when no hand is left. `locked`: as `hand_add`'s."""
    locked = locked or table_hands_locked(game)
    result, last = locked.result, locked.last
    if result is None or last is None:
        raise ValidationError({"__all__": f"Table {game.table} has no hand to undo."})
    last.delete()
    if not result.hands.exists():
        result.delete()
        return None
    _total_hands(result, game)
    result.status = TableResult.Status.PLAYING
    result.version += 1
    result.save()
    return result


def table_finish(game: Game, *, seen_hands: int | None = None, seen_score: str = "") -> TableResult:
    """A table entering hand by hand says its game is over (after the bell, or when it stops early).

    `seen_hands` is the number of hands the players saw when they said so (and `seen_score` the score they saw, for
    the words): when the table's hands have changed since (another phone entered or took back a hand, while this one
    was offline), the game is not closed at a score nobody confirmed."""
    result = result_locked(game)
    if result is None or not result.hands.exists():
        raise ValidationError({"__all__": f"Table {game.table} has no hands yet: enter them, or the game totals."})
    if result.status == TableResult.Status.FINAL:
        raise ValidationError({"__all__": f"Table {game.table}'s game is already in."})
    count = result.hands.count()
    if seen_hands is not None and seen_hands != count:
        at = f" at {seen_score}" if seen_score else ""
        raise ValidationError(
            {
                "__all__": f"Game over was confirmed{at} after {_hands_words(seen_hands)}, but the table now has "
                f"{_hands_words(count)} ({result.ns_points}–{result.ew_points}): the game is not over yet. Check the "
                "hands, then confirm Game over again."
            }
        )
    result.status = TableResult.Status.FINAL
    result.version += 1
    result.save(update_fields=["status", "version", "updated_at"])
    return result


def _hands_words(count: int) -> str:
    return f"{count} hand" if count == 1 else f"{count} hands"


def hands_rescore(*, night_id: int, ruleset: rules.Ruleset, games: Mapping[int, Game]) -> int:
    """Rescore every stored hand of a night under a new ruleset and total their games again; the number rescored.

    `games` gives each result's game (by the result's id) under the new rules, for its winner.
    """
    hands = list(Hand.objects.filter(result__round__night_id=night_id).select_related("result__round"))
    for hand in hands:
        try:
            score = rules.score_hand(hand.as_rules_hand(), ruleset)
        except rules.ScoringError as error:
            raise ValidationError(
                {"__all__": f"Game {hand.result.round.number}, table {hand.result.table}, hand {hand.number}: {error}"}
            ) from error
        hand.ns_points, hand.ew_points = score.ns, score.ew
    Hand.objects.bulk_update(hands, ["ns_points", "ew_points"])
    for result in TableResult.objects.filter(pk__in={hand.result_id for hand in hands}).select_for_update():
        _total_hands(result, games[result.pk])
        result.version += 1
        result.save()
    return len(hands)


def hands_recorded(night_id: int) -> int:
    return Hand.objects.filter(result__round__night_id=night_id).count()
