"""A game's life, and its one owner: every change of a round's state is made here, and nowhere else.

A round lives seated -> playing -> bell -> closed (`MOVES` lists every allowed move, each stored with its cause
as a `Cause`). The bell rings once, for the first of: the head table's last hand (or its points target), the
timer, the organizer's button; on a night with a points target, a game whose every table is in closes without
it (`scoring.ending` says how a night's games end). Only this module rings, takes the bell back, closes a game
and asks the movement to seat the next.

Scores reach the record through here too: each entry point locks the round, checks that the game takes the
entry, lets `scoring.services` write the table's record, and acts on what it reports (the table is in; the head
table played its last hand).

The database holds the truth about time (`Round.ends_at`); tasks sent for that moment carry the round's `token`,
which changes whenever the end moves, so a stale task does nothing and a task run twice rings once.
`rounds_tick` (beat, and a worker starting) rings any bell that is due, so a worker that was down catches up.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from scoring import rules
from scoring import services as record
from scoring.entry import Totals
from scoring.models import Submission, TableResult
from scoring.seats import HEAD_TABLE, SIDE_NAMES, other_side, side_of
from scoring.three import THREE_SEATS

from . import dispatch, services
from .engine.movements import Outcome
from .engine.types import Table
from .models import Action, Bye, Cause, CodeMiss, Entry, Night, Round, RoundEvent, Seating
from .services.nights import require_unfinished

# Wrong confirmation codes a table may type in one game; after that only the keeper enters its score. With four
# digits, guessing one of the other side's two codes within them is a chance in a thousand.

Status = Round.Status


@dataclass(frozen=True)
class Move:
    """An allowed move: the states it may start from and the state it leaves the round in."""

    sources: frozenset[str]
    target: str


MOVES: dict[Action, Move] = {
    Action.START: Move(frozenset({Status.SEATED}), Status.PLAYING),
    Action.BREAK: Move(frozenset({Status.SEATED}), Status.SEATED),
    Action.PAUSE: Move(frozenset({Status.PLAYING}), Status.PLAYING),
    Action.RESUME: Move(frozenset({Status.PLAYING}), Status.PLAYING),
    Action.EXTEND: Move(frozenset({Status.PLAYING}), Status.PLAYING),
    Action.BELL: Move(frozenset({Status.PLAYING}), Status.BELL),
    Action.UNBELL: Move(frozenset({Status.BELL}), Status.PLAYING),
    Action.CLOSE: Move(frozenset({Status.PLAYING, Status.BELL}), Status.CLOSED),
}


def allowed(round_: Round, action: Action) -> bool:
    return round_.status in MOVES[action].sources


def _move(
    round_: Round, action: Action, reason: Cause, *, by=None, fields: tuple[str, ...] = (), words: str = "", **detail
) -> None:
    """Make one move of the table (the caller holds the lock), saving `fields` with the new state and the event."""
    if not allowed(round_, action):
        raise ValidationError({"round": f"Game {round_.number} cannot be {action.label} now ({round_.status})."})
    round_.status = MOVES[action].target
    round_.save(update_fields=["status", *fields])
    RoundEvent.record(round_, action, reason, by, words=words, **detail)


def _lock(round_: Round | int) -> Round:
    pk = round_ if isinstance(round_, int) else round_.pk
    return Round.objects.select_for_update().select_related("night").get(pk=pk)


def _lock_if_kept(round_id: int) -> Round | None:
    return Round.objects.select_for_update().select_related("night").filter(pk=round_id).first()


def _move_end(round_: Round, ends_at: dt.datetime | None) -> None:
    round_.ends_at = ends_at
    round_.token += 1
    if ends_at is not None:
        dispatch.send_on_commit(dispatch.RING_BELL, round_.pk, round_.token, eta=ends_at)


# ---- the moves, each for a locked round ---------------------------------------------------------------------------


def start(round_: Round, *, reason: Cause, by=None, **detail) -> Round:
    """Start a seated round: the timer runs from now when the night has one."""
    night = round_.night
    if round_.status != Status.SEATED:
        raise ValidationError({"round": f"Game {round_.number} has already started."})
    earlier = night.rounds.filter(number__lt=round_.number).exclude(status=Status.CLOSED).first()
    if earlier is not None:
        raise ValidationError({"round": f"Game {earlier.number} is still open: close it first."})
    now = timezone.now()
    round_.started_at = now
    round_.starts_at = None
    _move_end(round_, now + dt.timedelta(minutes=night.minutes_per_game) if night.minutes_per_game else None)
    _move(round_, Action.START, reason, by=by, fields=("started_at", "starts_at", "ends_at", "token"), **detail)
    return round_


def plan_start(round_: Round, *, at: dt.datetime, reason: Cause, **detail) -> None:
    """Start a seated round later (after a break)."""
    round_.starts_at = at
    round_.token += 1
    dispatch.send_on_commit(dispatch.START_ROUND, round_.pk, round_.token, eta=at)
    _move(round_, Action.BREAK, reason, fields=("starts_at", "token"), **detail)


def ring(round_: Round, *, reason: Cause, by=None, at: dt.datetime | None = None, words: str = "", **detail) -> bool:
    """Ring the bell if it has not rung. Returns whether it rang now."""
    if not allowed(round_, Action.BELL):
        return False
    round_.bell_at = at or timezone.now()
    round_.bell_reason = reason
    round_.bell_cause = words or reason.words(**detail)
    round_.paused_left = None
    round_.token += 1  # any timer task still on its way is now stale
    _move(
        round_,
        Action.BELL,
        reason,
        by=by,
        fields=("bell_at", "bell_cause", "bell_reason", "paused_left", "token"),
        words=round_.bell_cause,
    )
    return True


def unring(round_: Round, *, reason: Cause) -> None:
    """Take the bell back (the head table undid its last hand before anyone else finished)."""
    round_.bell_at, round_.bell_cause, round_.bell_reason = None, "", ""
    now = timezone.now()
    _move_end(round_, round_.ends_at if round_.ends_at and round_.ends_at > now else None)
    _move(round_, Action.UNBELL, reason, fields=("bell_at", "bell_cause", "bell_reason", "ends_at", "token"))


def _finals(round_: Round):
    """The game's results that are in (unordered: callers read them as a set or a map)."""
    return TableResult.objects.filter(round=round_, status=TableResult.Status.FINAL).order_by()


def _winners(round_: Round, tables: list[Table]) -> dict[int, Outcome]:
    """What each table's game left for the movement: the winning side, or at a table of three its players from
    the winner down (the others by points, seat order among equals)."""
    seated = {table.number: table.seats for table in tables}
    outcomes: dict[int, Outcome] = {}
    for table, winner, seat_points in _finals(round_).values_list("table", "winner", "seat_points"):
        if seat_points is None:
            outcomes[table] = winner
        elif table in seated:
            rest = sorted((seat for seat in THREE_SEATS if seat != winner), key=lambda seat: -seat_points[seat])
            outcomes[table] = tuple(seated[table][seat] for seat in (winner, *rest) if seat in seated[table])
    return outcomes


def close(round_: Round, *, reason: Cause, by=None) -> Round | None:
    """Close a round once every table is in: the bell if it has not rung, the movement, the next game seated
    (and, on a night that runs by itself, started or its break planned). None after the night's last game."""
    night = round_.night
    if round_.status == Status.CLOSED:
        raise ValidationError({"round": f"Game {round_.number} is already closed."})
    if not round_.open:
        raise ValidationError({"round": f"Game {round_.number} has not started yet."})
    tables = services.round_tables(round_)
    winners = _winners(round_, tables)
    missing = [table.number for table in tables if table.number not in winners]
    if missing:
        label = "Table" if len(missing) == 1 else "Tables"
        raise ValidationError(
            {"round": f"{label} {', '.join(map(str, missing))} still to enter a score for game {round_.number}."}
        )
    ring(round_, reason=reason, by=by, words=f"closed by {reason.words()}")  # closed before its bell: it rings now
    round_.closed_at = timezone.now()
    _move(round_, Action.CLOSE, reason, by=by, fields=("closed_at",))
    services.publish_after_game(night.pk)  # a night published after each game: queued, sent once committed
    if round_.is_last(night):
        Night.objects.filter(pk=night.pk).update(status=Night.Status.FINISHED)
        return None
    if night.hold_next:  # the organizer seats the next game when the room is ready (`night_seat_next`)
        Night.touch(night.pk, moved=True)
        return None
    next_round = services.round_seat_next(round_, tables=tables, winners=winners)
    RoundEvent.record(next_round, Action.SEATED, Cause.MOVEMENT, by, game=round_.number)
    if night.auto_advance:
        if night.break_after == round_.number:
            at = timezone.now() + dt.timedelta(minutes=night.break_minutes)
            plan_start(next_round, at=at, reason=Cause.BREAK, minutes=night.break_minutes, game=round_.number)
        else:
            start(next_round, reason=Cause.STRAIGHT_ON, game=round_.number)
    return next_round


def _advance_if_all_in(round_: Round) -> None:
    """Once every table is in, after the bell (or, on a night with a points target, before it: every table has
    finished its game), a night that runs by itself closes the game and moves on."""
    night = round_.night
    to_target = night.points_target is not None and round_.status == Status.PLAYING
    if not night.auto_advance or not (round_.status == Status.BELL or to_target) or round_.is_last(night):
        return  # the night's last game waits for a person's Close: a last look before its scores and money lock
    tables_in = _finals(round_).values("table")
    if not round_.seatings.exclude(table__in=tables_in).order_by().exists():  # one statement on every score
        close(round_, reason=Cause.ALL_IN if round_.status == Status.BELL else Cause.ALL_DONE)


# ---- the organizer's buttons --------------------------------------------------------------------------------------


def seen(round_: Round) -> str:
    """The version of a game's state that a page's buttons were drawn from (its state and its clock's token)."""
    return f"{round_.status}:{round_.token}"


def _lock_seen(round_: Round, drawn_from: str | None) -> Round:
    """Lock the round; refuse a button drawn from a state the game has since left (None: the caller does not say)."""
    round_ = _lock(round_)
    if drawn_from is not None and drawn_from != seen(round_):
        raise ValidationError(
            {
                "round": f"Game {round_.number} changed since this page was drawn (it is "
                f"{round_.get_status_display().lower()} now). Nothing was done: here it is as it stands."
            }
        )
    return round_


@transaction.atomic
def round_start(*, round_: Round, by=None, drawn_from: str | None = None) -> Round:
    """Start a seated game. Each button takes `drawn_from`, the `seen` version its page was drawn from."""
    return start(_lock_seen(round_, drawn_from), reason=Cause.ORGANIZER, by=by)


@transaction.atomic
def round_close(
    *, round_: Round, by=None, drawn_from: str | None = None, reason: Cause = Cause.ORGANIZER
) -> Round | None:
    """Close a round once every table is in, apply the movement and seat the next game.

    Returns the next round, or None when this was the night's last game (the night is then finished). `reason`:
    the organizer's, unless a rehearsal closes as a night running by itself would (`Cause.ALL_DONE`).
    """
    return close(_lock_seen(round_, drawn_from), reason=reason, by=by)


@transaction.atomic
def round_ring_bell(*, round_: Round, by=None, drawn_from: str | None = None) -> Round:
    round_ = _lock_seen(round_, drawn_from)
    if round_.status == Status.BELL:
        raise ValidationError({"round": f"The bell has already rung for game {round_.number}."})
    if round_.status != Status.PLAYING:
        raise ValidationError({"round": f"Game {round_.number} is not being played."})
    ring(round_, reason=Cause.BUTTON, by=by)
    _advance_if_all_in(round_)
    return round_


@transaction.atomic
def round_pause(*, round_: Round, by=None, drawn_from: str | None = None) -> Round:
    round_ = _lock_seen(round_, drawn_from)
    if round_.status != Status.PLAYING or round_.ends_at is None:
        raise ValidationError({"round": "Only a running timer can be paused."})
    round_.paused_left = max(round_.ends_at - timezone.now(), dt.timedelta(0))
    _move_end(round_, None)
    _move(round_, Action.PAUSE, Cause.PAUSED, by=by, fields=("paused_left", "ends_at", "token"))
    return round_


@transaction.atomic
def round_resume(*, round_: Round, by=None, drawn_from: str | None = None) -> Round:
    round_ = _lock_seen(round_, drawn_from)
    if round_.status != Status.PLAYING or round_.paused_left is None:
        raise ValidationError({"round": "The timer is not paused."})
    _move_end(round_, timezone.now() + round_.paused_left)
    round_.paused_left = None
    _move(round_, Action.RESUME, Cause.RESUMED, by=by, fields=("paused_left", "ends_at", "token"))
    return round_


@transaction.atomic
def round_extend(*, round_: Round, minutes: int, by=None, drawn_from: str | None = None) -> Round:
    """Add minutes to the game (or start a timer on an untimed game)."""
    round_ = _lock_seen(round_, drawn_from)
    if round_.status != Status.PLAYING:
        raise ValidationError({"round": f"Game {round_.number} is not being played."})
    if not 1 <= minutes <= 120:
        raise ValidationError({"minutes": "Add between 1 and 120 minutes."})
    extra = dt.timedelta(minutes=minutes)
    if round_.paused_left is not None:
        round_.paused_left += extra
        fields: tuple[str, ...] = ("paused_left",)
    else:
        _move_end(round_, (round_.ends_at or timezone.now()) + extra)
        fields = ("ends_at", "token")
    _move(round_, Action.EXTEND, Cause.EXTENDED, by=by, fields=fields, minutes=minutes)
    return round_


# ---- the night's length, decided at the night ---------------------------------------------------------------------


def _lock_night(night: Night) -> tuple[Night, Round | None]:
    """The night, locked, with its latest game (locked too): every change of the night's length holds both."""
    night = Night.objects.select_for_update().get(pk=night.pk)
    latest = Round.objects.select_for_update().filter(night=night).order_by("-number").first()
    return night, latest


def _require_playing(night: Night, field: str) -> None:
    if night.status == Night.Status.FINISHED:
        raise ValidationError({field: "The night is over: its games no longer change."})


def games_floor(night: Night, latest: Round | None) -> int:
    """The fewest games the night may still be set to: every game already seated or played stays."""
    return latest.number if latest is not None else 1


def _check_games(night: Night, latest: Round | None, games: int) -> None:
    floor = games_floor(night, latest)
    if games < floor:
        state = "played" if latest is not None and latest.status == Status.CLOSED else "seated"
        raise ValidationError(
            {
                "games": f"Game {floor} is already {state}: the night has at least {floor} games. "
                "To stop sooner, use “End the night now” on the night's page."
            }
        )
    chart = night.chart if isinstance(night.chart, dict) else None
    if chart is not None and games > chart.get("games", games):
        raise ValidationError(
            {"games": f"The rotation chart was built for {chart['games']} games: the night has at most that many."}
        )


@transaction.atomic
def night_games_set(*, night: Night, games: int, by=None) -> Night:
    """Change the number of games during the night: never below a game already seated or played. Set to the game
    under way, it makes that the last game; set to the game just closed on a held night, the night ends."""
    night, latest = _lock_night(night)
    _require_playing(night, "games")
    if not 1 <= games <= 64:
        raise ValidationError({"games": "A night has 1 to 64 games."})
    _check_games(night, latest, games)
    if latest is not None and latest.status == Status.CLOSED and games == latest.number:
        return _finish(night, latest)
    night.games = games
    night.save(update_fields=["games"])
    Night.touch(night.pk, moved=True)
    return night


def _check_seen(latest: Round | None, game: int | None, words: str) -> None:
    """Refuse a button drawn for another game than the night's latest (a page left open while the night moved on):
    `game` is the game the button named; None, the caller does not say."""
    if game is not None and (latest is None or latest.number != game):
        now = f"game {latest.number} is {latest.get_status_display().lower()}" if latest else "no game is seated"
        raise ValidationError({"games": f"{words} was drawn for game {game}; {now} now. Nothing was done."})


@transaction.atomic
def night_last_game(*, night: Night, by=None, game: int | None = None) -> Night:
    """“This is the last game”: the game seated or under way is the night's last; the night ends when it closes.
    `game`: the game the button named (refused if the night has moved on since)."""
    night, latest = _lock_night(night)
    _require_playing(night, "games")
    _check_seen(latest, game, "“This is the last game”")
    if latest is None:
        raise ValidationError({"games": "No game is seated yet: set the number of games in the settings."})
    if latest.status == Status.CLOSED:
        raise ValidationError(
            {"games": f"Game {latest.number} is over and the next is not seated: end the night now instead."}
        )
    night.games = latest.number
    night.save(update_fields=["games"])
    Night.touch(night.pk, moved=True)
    return night


@transaction.atomic
def night_hold(*, night: Night, hold: bool, by=None, game: int | None = None) -> Night:
    """Hold the night before its next game (the next game is not seated until the organizer seats it), or let it go.

    Held between games (the last game closed, the next not seated), letting go seats the next game at once.
    `game`: the game the button named as held before (refused if the night has moved on since)."""
    night, latest = _lock_night(night)
    _require_playing(night, "hold")
    _check_seen(latest, None if game is None else game - 1, f"“Hold before game {game}”")
    night.hold_next = hold
    night.save(update_fields=["hold_next"])
    Night.touch(night.pk, moved=True)
    if not hold and latest is not None and latest.status == Status.CLOSED:
        _seat_after(night, latest, by=by)
    return night


@transaction.atomic
def night_seat_next(*, night: Night, by=None, start_now: bool = False) -> Round:
    """Seat the next game of a held night (everyone then registered and present takes part), and start it when
    asked. The hold is let go: the game after it follows the night's usual way again."""
    night, latest = _lock_night(night)
    _require_playing(night, "hold")
    if latest is None or latest.status != Status.CLOSED:
        raise ValidationError({"hold": "The next game is already seated."})
    night.hold_next = False
    night.save(update_fields=["hold_next"])
    next_round = _seat_after(night, latest, by=by)
    if start_now:
        start(next_round, reason=Cause.ORGANIZER, by=by)
    return next_round


def _seat_after(night: Night, closed: Round, *, by=None) -> Round:
    """Seat the game after `closed` (locked) from its results, as closing it would have."""
    closed.night = night
    tables = services.round_tables(closed)
    next_round = services.round_seat_next(closed, tables=tables, winners=_winners(closed, tables))
    RoundEvent.record(next_round, Action.SEATED, Cause.MOVEMENT, by, game=closed.number)
    Night.touch(night.pk, moved=True)
    return next_round


@transaction.atomic
def night_settings_change(*, night: Night, by=None, **settings) -> Night:
    """The settings page's changes: the number of games through `night_games_set` once the seating is drawn, the
    rest through `services.night_update`; one transaction."""
    if night.status != Night.Status.SETUP and "games" in settings:
        night = night_games_set(night=night, games=settings.pop("games"), by=by)
    if settings:
        night = services.night_update(night=night, **settings)
    return night


def _games(count: int) -> str:
    return f"{count} game{'s' if count != 1 else ''}"


@dataclass(frozen=True)
class Ending:
    """What “End the night now” does, said before the organizer confirms it."""

    games: int  # the games the night will count
    drops: int | None  # the game under way that is dropped (None: nothing is dropped)
    tables_in: int  # that game's tables already in (their scores are not counted)
    words: str
    unplayed: tuple[str, ...] = ()  # players who will have sat at no table in the games counted (a latecomer)


def night_ending(night: Night) -> Ending:
    """What ending the night now would do, in words for the confirmation (read, nothing written)."""
    latest = night.rounds.order_by("-number").first()
    if night.status == Night.Status.FINISHED:
        return Ending(night.games, None, 0, f"The night is already over: its {_games(night.games)} are played.")
    if latest is None:
        return Ending(0, None, 0, "No game has been played: there is nothing to end. Delete the night instead.")
    if latest.status == Status.CLOSED:
        return Ending(
            latest.number,
            None,
            0,
            f"The night ends with the {_games(latest.number)} played; the standings are final.",
        )
    played = latest.number - 1
    tables_in = _finals(latest).count()
    if latest.status == Status.SEATED:
        what = f"Game {latest.number} is seated but not started: its seating is taken down."
    else:
        scores = (
            f"{tables_in} table{'s' if tables_in != 1 else ''}{'’' if tables_in != 1 else '’s'} scores"
            if tables_in
            else "no scores yet"
        )
        what = f"Game {latest.number} is under way ({scores} in): it is dropped and its scores are not counted."
    if played == 0:
        return Ending(0, latest.number, tables_in, f"{what} No game would be left: delete the night instead.")
    return Ending(
        played,
        latest.number,
        tables_in,
        f"{what} The night ends with the {_games(played)} played before it; "
        f"the standings after game {played} are final. To let game {latest.number} finish instead, use "
        "“This is the last game”.",
        _unplayed(night, played),
    )


def _unplayed(night: Night, games: int) -> tuple[str, ...]:
    """The night's players who neither sat at a table nor sat one out (a bye counts) in its first `games` games: a
    latecomer who came for the game that is dropped has paid for nothing (a volunteer's trial), and the treasurer
    is told before the night ends."""
    counted = {"round__night": night, "round__number__lte": games}
    seated = Seating.objects.filter(**counted).values("player_id")
    sat_out = Bye.objects.filter(**counted).values("player_id")
    entries = night.entries.filter(player__house=False).exclude(player_id__in=seated).exclude(player_id__in=sat_out)
    return tuple(entries.order_by("card").values_list("name", flat=True))


@transaction.atomic
def night_end(*, night: Night, by=None, drops: int | None = None) -> Night:
    """End the night now, after its last closed game. A game seated or under way is dropped with everything entered
    for it; `drops` is the game the organizer confirmed dropping (refused when the night has moved on since)."""
    night, latest = _lock_night(night)
    _require_playing(night, "end")
    if night.status == Night.Status.SETUP or latest is None:
        raise ValidationError({"end": "No game has been played yet: delete the night instead."})
    if latest.status != Status.CLOSED:
        if drops != latest.number:
            raise ValidationError(
                {"end": f"Game {latest.number} is now seated or under way: read what ending now does, then confirm."}
            )
        if latest.number == 1:
            raise ValidationError({"end": "Game 1 is the only game: no game would be left. Delete the night instead."})
        dropped = latest.number
        latest.delete()
        latest = Round.objects.select_for_update().get(night=night, number=dropped - 1)
    elif drops is not None:
        raise ValidationError({"end": f"Game {drops} is no longer under way: nothing was done. Read it again."})
    return _finish(night, latest)


def _finish(night: Night, last: Round) -> Night:
    night.games = last.number
    night.hold_next = False
    night.status = Night.Status.FINISHED
    night.save(update_fields=["games", "hold_next", "status"])
    Night.touch(night.pk, moved=True)
    services.publish_after_game(night.pk)  # ended early: the finished night goes to the site too
    return night


# ---- what the tasks call ------------------------------------------------------------------------------------------


@transaction.atomic
def bell_due(*, round_id: int, token: int) -> bool:
    """The timer's task: ring if this is still the round's end and it has come. Harmless late or twice."""
    round_ = _lock_if_kept(round_id)
    if round_ is None:  # a game dropped when the night ended early
        return False
    if round_.token != token or round_.status != Status.PLAYING:
        return False
    if round_.ends_at is None or round_.ends_at > timezone.now():
        return False
    rang = ring(round_, reason=Cause.TIMER, at=round_.ends_at)
    _advance_if_all_in(round_)
    return rang


@transaction.atomic
def start_due(*, round_id: int, token: int) -> bool:
    """The break's task: start the next game when the break is over."""
    round_ = _lock_if_kept(round_id)
    if round_ is None:  # a game dropped when the night ended early
        return False
    if round_.token != token or round_.status != Status.SEATED:
        return False
    if round_.starts_at is None or round_.starts_at > timezone.now():
        return False
    start(round_, reason=Cause.BREAK_OVER)
    return True


def rounds_tick() -> dict[str, int]:
    """Ring every bell and start every game that is due, from what the database says (beat, worker start)."""
    now = timezone.now()
    rung = started = 0
    for round_id, token in Round.objects.filter(status=Status.PLAYING, ends_at__lte=now).values_list("pk", "token"):
        rung += bell_due(round_id=round_id, token=token)
    for round_id, token in Round.objects.filter(status=Status.SEATED, starts_at__lte=now).values_list("pk", "token"):
        started += start_due(round_id=round_id, token=token)
    return {"rung": rung, "started": started}


# ---- scores: the record writes, the game's life decides what follows ----------------------------------------------


def _check_drawn_for(round_: Round, drawn_for: int | None) -> None:
    """Refuse an action from a page drawn for another game than `round_` (None: the caller named the game itself).

    Checked under the round's lock, so an action that crosses the turnaround is refused, never applied to the next
    game.
    """
    if drawn_for is None or drawn_for == round_.number:
        return
    raise ValidationError({"__all__": drawn_for_words(round_.number, drawn_for)})


def drawn_for_words(number: int, drawn_for: int) -> str:
    """Why an action from a page drawn for game `drawn_for` was refused when the table is on game `number`."""
    now = f"game {number}"
    if 0 < drawn_for < number:
        return f"Game {drawn_for} is over: this table is on {now} now. Nothing was saved; here is {now}."
    if drawn_for > number:
        return f"Game {drawn_for} has not started yet. Nothing was saved; here is {now}."
    return f"This page was drawn before the app was updated. Nothing was saved; here is {now}."


def _require_scores_open(round_: Round) -> None:
    """The one rule for every score and hand of a night that is over (a total, a correction, a table's draft or its
    confirmation, a hand added or undone, a "Game over"): refused, whichever page sent it (#34)."""
    require_unfinished(round_.night, "__all__", "its scores no longer change")


def _lock_for_scores(round_: Round, *, correction: bool = False, drawn_for: int | None = None) -> Round:
    """Lock the round and check that it takes scores: being played or after its bell (closed: a correction, until
    the night is over)."""
    round_ = _lock(round_)
    _require_scores_open(round_)
    _check_drawn_for(round_, drawn_for)
    if round_.status == Status.SEATED:
        raise ValidationError({"__all__": f"Game {round_.number} has not started yet."})
    if round_.status == Status.CLOSED and not correction:
        raise ValidationError(
            {"__all__": f"Game {round_.number} is closed: a change now is a correction and needs a reason."}
        )
    return round_


def _lock_for_hands(round_: Round, *, drawn_for: int | None = None) -> Round:
    return _open_for_hands(_lock(round_), drawn_for=drawn_for)


def _open_for_hands(round_: Round, *, drawn_for: int | None = None) -> Round:
    """A round already locked by the caller, refused unless its tables' hands can be entered now."""
    _require_scores_open(round_)
    _check_drawn_for(round_, drawn_for)
    if round_.status == Status.SEATED:
        raise ValidationError({"__all__": f"Game {round_.number} has not started yet."})
    if round_.status == Status.CLOSED:
        raise ValidationError({"__all__": f"Game {round_.number} is closed: its scores can no longer be changed."})
    return round_


def _table(round_: Round, table: int) -> record.Game:
    if not Seating.objects.filter(round=round_, table=table).exists():
        raise ValidationError({"__all__": f"There is no table {table} in game {round_.number}."})
    return services.scoring_game(round_, table)


def _earlier_post(round_: Round, table: int, key: str | None) -> Submission | None:
    """The entry a form's one-time key already made (the same form posted twice), or None.

    A key already used for another table or game is a form that was never drawn for this one: refused.
    """
    earlier = record.key_used(key)
    if earlier is not None and (earlier.round_id, earlier.table) != (round_.pk, table):
        raise ValidationError({"__all__": "This form was already sent for another table or game: reload the page."})
    return earlier


# ---- confirmation codes: each side proves it is there with a code from its own tally cards --------------------------


class _WrongCode(Exception):
    """A code that is no player's at the table (or the wrong side's): refused, and counted against the table."""

    def __init__(self, round_id: int, table: int, errors: dict[str, str]):
        super().__init__(errors)
        self.round_id, self.table, self.errors = round_id, table, errors


def _counting_misses(entry_point):
    """Run an entry point in its own transaction; a wrong code is refused and, once that has rolled back, counted."""

    @functools.wraps(entry_point)
    def wrapped(**kwargs):
        try:
            with transaction.atomic():
                return entry_point(**kwargs)
        except _WrongCode as miss:
            CodeMiss.objects.create(round_id=miss.round_id, table=miss.table)
            raise ValidationError(miss.errors) from None

    return wrapped


def _card_taken_over(night_id: int, code: str, seated: dict[int, str]) -> tuple[int, str] | None:
    """The player seated here who plays on the tally card whose code is `code` although it is not their own: a
    substitute took over the card of the player who left (and a substitute's substitute, theirs), as the door's
    "their games go on the card of the player they replace" tells them. None when nobody seated here holds it."""
    card = Entry.objects.filter(night_id=night_id, code=code).values_list("pk", flat=True).first()
    took_over = {
        replaced: (pk, player, name)
        for replaced, pk, player, name in Entry.objects.filter(night_id=night_id, substitute_for__isnull=False)
        .order_by()
        .values_list("substitute_for_id", "pk", "player_id", "name")
    }
    seen = set()
    while card in took_over and card not in seen:  # down the line of who took the card over
        seen.add(card)
        card, player, name = took_over[card]
        if player in seated:
            return player, name
    return None


def _code_side(
    round_: Round, table: int, code: str, *, field: str, side: str = "", seat: bool = False
) -> tuple[str, str]:
    """The side (and the name) of the player at `table` whose confirmation code is `code`; `side`: it must be that
    side's; `seat` (a table of three): the player's seat instead of a side. A table that has typed too many wrong
    codes this game is sent to the keeper."""
    if CodeMiss.locked(round_.pk, table):
        raise ValidationError({field: CodeMiss.LOCKED})
    code = code.strip()
    seated = dict(Seating.objects.filter(round=round_, table=table).values_list("player_id", "seat"))
    holder = (
        Entry.objects.filter(night_id=round_.night_id, player_id__in=seated, code=code)
        .values_list("player_id", "name")
        .first()
        if code.isdecimal()
        else None
    )
    if holder is None and code.isdecimal():
        holder = _card_taken_over(round_.night_id, code, seated)
    wanted = f"a player sitting {SIDE_NAMES[side]}" if side else "a player"
    if holder is None:
        raise _WrongCode(
            round_.pk, table, {field: f"That is not the code of {wanted} at this table: check the tally card."}
        )
    if seat:
        return seated[holder[0]], holder[1]
    found = side_of(seated[holder[0]])
    if side and found != side:
        raise _WrongCode(
            round_.pk, table, {field: f"That code is from {SIDE_NAMES[found]}: it needs {wanted} at this table."}
        )
    return found, holder[1]


def _after_score(round_: Round, game: record.Game) -> None:
    """Tell the room; ring the bell when the head table's game is in; move on when this was the last table in after
    the bell."""
    Night.touch(round_.night_id)
    _ring_if_head_table_in(round_, game)
    _advance_if_all_in(round_)


def _ring_if_head_table_in(round_: Round, game: record.Game) -> None:
    """The head table's game in before the bell, from its totals (the keeper's desk, the slip, its phone's score
    once confirmed) or its Game over: on a night whose head table's last hand rings the bell, it has played that
    hand, so the bell rings as the hand would have rung it from its phone. Only the head table's own scores ask."""
    if not game.head or round_.status != Status.PLAYING:
        return
    if _finals(round_).filter(table=HEAD_TABLE).exists():
        ring(round_, reason=Cause.HEAD_TABLE, words="the head table's game is in")


def _typed(totals: Totals | None, typed: dict[str, Any]) -> Totals:
    """The entry as typed: a form's `totals()`, or `Totals`'s fields given as keywords (a script, a test)."""
    if totals is None:
        return Totals(**typed)
    if typed:
        raise TypeError(f"Give the totals once: as `totals` or as {', '.join(typed)}, not both.")
    return totals


@transaction.atomic
def table_result_submit(
    *,
    round_: Round,
    table: int,
    totals: Totals | None = None,
    user=None,
    role: str = Submission.Role.ORGANIZER,
    drawn_for: int | None = None,
    **typed: Any,
) -> TableResult:
    """Record one table's game from its two totals (the keeper's desk, the organizer's form, a paper sheet), or
    at a table of three from its three players' points (`seat_points`, N, E and S): `totals`, or its fields.

    See `scoring.services.total_store`. After the game is closed a change is a correction: it needs a `reason`,
    and the seating already played stays. `take_over`: the keeper replaces a table's hand-by-hand entry.
    """
    totals = _typed(totals, typed)
    totals = replace(totals, reason=" ".join(totals.reason.split()))
    round_ = _lock_for_scores(round_, correction=bool(totals.reason), drawn_for=drawn_for)
    if _earlier_post(round_, table, totals.key):  # checked under the lock: a double post waits here
        return TableResult.objects.get(round=round_, table=table)  # the same form, posted again
    game = _table(round_, table)
    result = record.total_store(game, totals, user=user, role=role)
    if round_.status == Status.CLOSED:
        Night.touch(round_.night_id)
    else:
        _after_score(round_, game)
    return result


@_counting_misses
def table_draft_submit(
    *,
    round_: Round,
    table: int,
    totals: Totals | None = None,
    code: str = "",
    drawn_for: int | None = None,
    **typed: Any,
) -> Submission:
    """A score typed on the table's phone by one side (see `scoring.services.draft_store`): `totals`, or its
    fields.

    Where the night asks for confirmation the side proves itself with a `code` from its own tally cards (its side
    is the code's); otherwise it says its `side`. `drawn_for` is the game the phone's page was drawn for: an action
    for another game is refused (likewise below).
    """
    totals = _typed(totals, typed)
    round_ = _lock_for_scores(round_, drawn_for=drawn_for)
    if earlier := _earlier_post(round_, table, totals.key):
        return earlier
    game = _table(round_, table)
    if round_.night.confirm_results:  # at a table of three each player is a side of their own
        side, _ = _code_side(round_, table, code, field="code", seat=game.three)
        totals = replace(totals, side=side)
    draft = record.draft_store(game, totals)
    _after_score(round_, game)
    return draft


@_counting_misses
def table_draft_confirm(
    *, round_: Round, table: int, draft_number: int, code: str, drawn_for: int | None = None
) -> TableResult:
    """The other side confirms a draft with a code from their tally cards; the side that entered it cannot."""
    round_ = _lock_for_scores(round_, drawn_for=drawn_for)
    game = _table(round_, table)
    draft = record.draft_waiting(game, draft_number)
    if game.three:  # any other player at the table
        side, name = _code_side(round_, table, code, field="code", seat=True)
    else:
        side, name = _code_side(round_, table, code, field="code", side=other_side(draft.side))
    result = record.draft_confirm(game, draft, side=side, name=name)
    _after_score(round_, game)
    return result


def _taken_over(result: TableResult | None, table: int, drawn_for: int, now: int) -> None:
    """A hand for a table whose game went in as totals since the page was drawn (the desk took it over, or the
    table's own totals were confirmed) is refused, with the score stored, the game the table is on now if the night
    has moved on, and who to ask."""
    if result is None or result.entry != TableResult.Entry.TOTALS:
        return
    score = f"N–S {result.ns_points}, E–W {result.ew_points}"
    said = (
        f"The desk entered {score} for table {table}"
        if result.entered_by_id
        else f"Table {table}'s score went in as totals, {score}"
    )
    moved = (
        f" in game {drawn_for}, and game {drawn_for} is over: this table is on game {now} now"
        if now != drawn_for
        else ""
    )
    raise ValidationError(
        {"__all__": f"{said}{moved}. This hand was not saved. Ask the score keeper if that is not the score."}
    )


@transaction.atomic
def hand_record(
    *,
    round_: Round,
    table: int,
    hand: rules.Hand,
    user=None,
    drawn_for: int | None = None,
    number: int | None = None,
    key: str = "",
) -> record.Hand:
    """Add the next hand to a table's game. The head table's last hand rings the bell.

    `number` is the hand the page was drawn to enter: when another phone at the table has entered it since, this
    one is refused rather than stored twice. `key` is the tap's one-time key: the same hand sent again (a phone
    that never heard the answer, or one sending what it kept while offline) is the hand already stored, whatever
    has happened at the table since; a key used at another table or game is refused.
    """
    round_ = _lock(round_)
    if (earlier := record.hand_key_used(key)) is not None:
        if (earlier.result.round_id, earlier.result.table) != (round_.pk, table):
            raise ValidationError({"__all__": "This hand was already sent for another table or game: nothing saved."})
        return earlier
    if drawn_for and 0 < drawn_for < round_.number:  # a page drawn for a game now over: was it taken over?
        drawn = TableResult.objects.filter(round__night_id=round_.night_id, round__number=drawn_for, table=table)
        _taken_over(drawn.first(), table, drawn_for, round_.number)
    round_ = _open_for_hands(round_, drawn_for=drawn_for)
    game = _table(round_, table)
    locked = record.table_hands_locked(game)
    _taken_over(locked.result, table, round_.number, round_.number)
    last = locked.last
    if number is not None and number != (last.number if last else 0) + 1:
        raise ValidationError(
            {
                "__all__": f"Hand {number} was already entered, from another phone or tab: check the hands below. "
                "Nothing was saved."
                if last and last.number >= number
                else "This page was drawn for another hand: check the hands below. Nothing was saved."
            }
        )
    added = record.hand_add(game, hand=hand, user=user, key=key, locked=locked)
    if added.head_table_done:
        ring(round_, reason=Cause.HEAD_TABLE, at=added.hand.recorded_at, hand=added.hand.number)
    _after_score(round_, game)
    return added.hand


@transaction.atomic
def hand_undo(
    *,
    round_: Round,
    table: int,
    drawn_for: int | None = None,
    last_hand: int | None = None,
    from_table: bool = False,
    key: str = "",
) -> TableResult | None:
    """Take back a table's last hand; its game is open again. None when no hand is left.

    `last_hand` is the number of the hand the page offered to undo: if another hand was entered or undone since,
    nothing is undone. Undoing the head table's hand that rang the bell takes the bell back, unless another table
    has finished since. A game that is in (both sides said "Game over") is reopened only by the keeper, never from
    the table's phone (`from_table`). `key` is the tap's one-time key: the same Undo sent again is the one already
    done, whatever has happened at the table since.
    """
    round_ = _lock(round_)
    if (done_at := _action_done(round_, table, key, "undo", drawn_for)) is not None:
        return TableResult.objects.filter(round_id=done_at, table=table).first()
    round_ = _open_for_hands(round_, drawn_for=drawn_for)
    game = _table(round_, table)
    locked = record.table_hands_locked(game)
    result, last = locked.result, locked.last
    if from_table and result is not None and result.status == TableResult.Status.FINAL:
        raise ValidationError({"__all__": f"Table {table}'s game is in: ask the score keeper to change it."})
    if last_hand is not None and (last.number if last else 0) != last_hand:
        now = f"hand {last.number}" if last else "no hand"
        raise ValidationError(
            {"__all__": f"Hand {last_hand} is no longer this table's last ({now} now): nothing was undone."}
        )
    rang_it = (
        table == HEAD_TABLE
        and round_.bell_reason == Cause.HEAD_TABLE
        and last is not None
        and round_.bell_at is not None
        and last.recorded_at >= round_.bell_at
    )
    if rang_it and round_.bell_at is not None:
        if record.hands_since(round_.pk, round_.bell_at, except_table=HEAD_TABLE):
            raise ValidationError(
                {"__all__": "Other tables have finished since the bell: correct this hand instead of undoing it."}
            )
        unring(round_, reason=Cause.HEAD_TABLE_UNDO)
        game = services.scoring_game(round_, table)
    result = record.hand_take_back(game, locked=locked)
    record.action_key_keep(game, kind="undo", key=key)
    Night.touch(round_.night_id)
    return result


def _action_done(round_: Round, table: int, key: str, kind: str, drawn_for: int | None = None) -> int | None:
    """The game (its round's id) at which an Undo or a Game over (`kind`) with this one-time key was already done at
    this table, or None. A tap sent again after its game moved on (`drawn_for`: the game its page was drawn for, a
    lost answer retried) is that game's, done. A key used at another table or game is refused; so is a key of the
    page's other button (an Undo from a page whose Game over was sent), in words, rather than answered as if done."""
    earlier = record.action_key_used(key)
    if earlier is None:
        return None
    here = (earlier.round_id, earlier.table) == (round_.pk, table)
    sent_again = (
        not here
        and earlier.table == table
        and drawn_for is not None
        and Round.objects.filter(pk=earlier.round_id, night_id=round_.night_id, number=drawn_for).exists()
    )
    if not (here or sent_again):
        raise ValidationError({"__all__": "This was already sent for another table or game: nothing was done."})
    if earlier is not None and earlier.kind != kind:
        done = "“Game over”" if earlier.kind == "finish" else "an Undo"
        raise ValidationError(
            {"__all__": f"This page sent {done} already: reload it to see the table as it is now. Nothing was done."}
        )
    return earlier.round_id


@_counting_misses
def table_finish(
    *,
    round_: Round,
    table: int,
    codes: dict[str, str] | None = None,
    drawn_for: int | None = None,
    key: str = "",
    seen_hands: int | None = None,
    seen_score: str = "",
) -> TableResult:
    """A table entering hand by hand says its game is over (after the bell, or when it stops early).

    From the table's phone on a night that asks for confirmation, `codes` gives a code from each side, by side
    ("NS", "EW"): the game is in only when both sides are there to say so. The keeper's own "Game over" needs none
    (None). `key` is the tap's one-time key: the same Game over sent again is the one already done. `seen_hands` and
    `seen_score`: the hands and score the form was confirmed at (refused when the table's hands changed since).
    """
    round_ = _lock(round_)
    done_at = _action_done(round_, table, key, "finish", drawn_for)
    if done_at is not None and (done := TableResult.objects.filter(round_id=done_at, table=table)):
        return done.get()
    round_ = _open_for_hands(round_, drawn_for=drawn_for)
    if codes is not None and round_.night.confirm_results:
        for side in ("NS", "EW"):
            _code_side(round_, table, codes.get(side, ""), field=f"{side.lower()}_code", side=side)
    game = _table(round_, table)
    result = record.table_finish(game, seen_hands=seen_hands, seen_score=seen_score)
    record.action_key_keep(game, kind="finish", key=key)
    _after_score(round_, game)
    return result
