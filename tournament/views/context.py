"""What the organizer's night page shows, gathered once for the full page and for each partial."""

from __future__ import annotations

from typing import Any

from scoring.models import Submission, TableResult
from tournament.score_forms import ScoreForm
from tournament.selectors import night_standings

from .. import selectors
from ..forms import KeeperForm, PlayerAddForm, PlayerPasteForm, RosterPickForm, SignUpSettingsForm, SubstituteForm
from ..models import Night


def score_form(table, *, data=None) -> ScoreForm:
    """The night page's score form for one table (`selectors.TableView`): two sides, or a table of three's
    three players."""
    result = table.result
    initial = {**result_points(result), "version": result.version} if result else {}
    three = dict(table.seats) if table.three else None
    return ScoreForm(data=data, initial=initial, prefix=f"t{table.number}", three=three)


def result_points(result: TableResult | Submission) -> dict[str, Any]:
    """A stored result's (or a table's entry's) totals as a score form's initial values, with who won a tied
    game's last hand (the result's winner when the last hand broke its tie; the entry's own choice)."""
    if isinstance(result, Submission):
        last = result.last_hand_winner
    else:
        last = result.winner if result.tie_break == TableResult.TieBreak.LAST_HAND else ""
    if result.seat_points is not None:
        points = {f"{seat.lower()}_points": value for seat, value in result.seat_points.items()}
    else:
        points = {"ns_points": result.ns_points, "ew_points": result.ew_points}
    return {**points, "last_hand_winner": last}


def players_context(night: Night, **forms: Any) -> dict[str, Any]:
    entries = selectors.night_entries(night)
    playing = [e for e in entries if e.active and e.checked_in and not e.player.house]
    return {
        "night": night,
        "entries": entries,
        "checked_in": sum(1 for e in entries if e.checked_in and e.active),
        "add_form": forms.get("add_form") or PlayerAddForm(),
        "paste_form": forms.get("paste_form") or PlayerPasteForm(),
        "roster_form": forms.get("roster_form") or RosterPickForm(queryset=selectors.roster_not_in(night)),
        "draw_errors": forms.get("draw_errors", []),
        "entry_error": forms.get("entry_error"),  # (entry id, message): a refusal said on that player's line
        "in_play": selectors.players_in_play(night, selectors.current_round(night)) if night.status != "setup" else [],
        "joins_game": selectors.joins_game(night),
        "swap_errors": forms.get("swap_errors", []),
        "substitute_form": forms.get("substitute_form") or SubstituteForm(entries=playing),
        # The players list's live poll (before the draw): check-ins by phone, sign-ups, another laptop's changes.
        "players_stamp": selectors.night_stamp(night.pk, moved=False),
    }


def round_context(
    night: Night, *, round_errors: list[str] | None = None, changed_since: str | None = None
) -> dict[str, Any]:
    """The game part of the night page. `changed_since` (the live poll after a score): draw only the tables changed
    since that stamp (all of them when that cannot be told); the standings are then read only for the prizes."""
    current = selectors.current_round(night)
    view = selectors.round_view(current) if current else None
    tables = selectors.tables_changed_since(current, changed_since) if changed_since and current is not None else None
    shown = [table for table in view.tables if tables is None or table.number in tables] if view else []
    finished = night.status == Night.Status.FINISHED
    return {
        "night": night,
        "round_view": view,
        "byes": selectors.round_byes(current) if current else [],
        **selectors.clock(current),
        "table_forms": [(table, score_form(table)) for table in shown],
        "partial": tables is not None,
        "round_errors": round_errors or [],
        "standings": selectors.standings_with_money(night, night_standings(night))
        if tables is None or finished
        else None,
        # The page's live poll starts from what it was drawn from: any score, and the game's moves.
        "live_stamp": f"{night.changed_at.timestamp():.6f}",
        "live_moved": f"{night.moved_at.timestamp():.6f}",
        # Once the night is over: how many players gave an e-mail address, and how many were mailed their results.
        "results_mail": selectors.mail_state(night.pk) if finished else None,
    }


def signups_context(night: Night, signup_form=None, signup_error: str = "") -> dict[str, Any]:
    initial = {"open": night.signup_open, "cap": night.signup_cap, "checkin": night.checkin_open}
    return {
        "signups": selectors.night_signups(night),
        "signup_form": signup_form or SignUpSettingsForm(initial=initial),
        "signup_error": signup_error,
    }


def night_context(night: Night, keeper_form=None, signup_form=None, signup_error: str = "") -> dict[str, Any]:
    return {
        **players_context(night),
        **round_context(night),
        **signups_context(night, signup_form, signup_error),
        "keepers": list(night.keepers.order_by("username")),
        "keeper_form": keeper_form or KeeperForm(),
    }
