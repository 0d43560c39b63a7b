"""Hand-by-hand entry for one table, phone first: who called, any options, then the tricks (which saves).

The choices made so far travel in the query string, so every tap is a plain link or button and nothing is
saved until the tricks are tapped. Each tricks button shows the points it will give, from the rules engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring import rules
from scoring.models import Submission
from scoring.seats import SEAT_NAMES
from tournament.models import CodeMiss, Round
from tournament.permissions import keeper_required

from .. import game
from ..score_forms import FinishForm
from ..selectors import TableGame, table_game, table_stamp

TEMPLATE = "scoring/table_hands.html"


@dataclass(frozen=True)
class Draft:
    """The hand being entered, before its tricks are tapped. `game`: the game the choices were made in (a choice
    carried into another game, as by a phone's poll left open over the change of game, is dropped)."""

    dealer: str = "N"
    maker: str = ""
    alone: bool = False
    blind: bool = False
    defender_alone: str = ""
    bid: int | None = None
    pepper: str = ""
    game: int = 0
    for_hand: int = 0  # the hand the choices were made for (0: not said)

    @classmethod
    def from_query(cls, data) -> Draft:
        def seat(name: str, default: str = "") -> str:
            return data.get(name) if data.get(name) in rules.SEATS else default

        def number(name: str) -> int:
            value = str(data.get(name, ""))
            return int(value) if value.isdecimal() and len(value) < 6 else 0

        try:
            bid = int(data["bid"]) if data.get("bid") else None
        except ValueError:
            bid = None
        return cls(
            dealer=seat("dealer", "N"),
            maker=seat("maker"),
            alone=data.get("alone") == "1",
            blind=data.get("blind") == "1",
            defender_alone=seat("defender_alone"),
            bid=bid,
            pepper=data.get("pepper") if data.get("pepper") in ("little", "big") else "",
            game=number("game"),
            for_hand=number("hand"),
        )

    def in_game(self, number: int) -> Draft:
        """This draft, made in game `number` when it does not say (the keeper's pages name their game in the
        address)."""
        return self if self.game else replace(self, game=number)

    def of_hand(self, number: int) -> Draft:
        """This draft for hand `number`: its choices are dropped if they were made for another hand (another phone
        entered one since), so that one tap never stores a hand with a caller nobody chose for it."""
        if self.for_hand and self.for_hand != number:
            return Draft(dealer=self.dealer, game=self.game, for_hand=number)
        return replace(self, for_hand=number)

    def of_game(self, number: int) -> Draft:
        """This draft in game `number`: as it is if it was made there, else a fresh one (the first dealer and the
        caller are the new game's own, not what a page left open chose in the game before)."""
        return self if self.game == number else Draft(game=number)

    def query(self, **changes) -> str:
        draft = replace(self, **changes)
        params = {
            "game": draft.game or "",
            "hand": draft.for_hand or "",
            "dealer": draft.dealer,
            "maker": draft.maker,
            "alone": "1" if draft.alone else "",
            "blind": "1" if draft.blind else "",
            "defender_alone": draft.defender_alone,
            "bid": draft.bid or "",
            "pepper": draft.pepper,
        }
        return "?" + urlencode({key: value for key, value in params.items() if value})

    def hand(self, tricks: int, renege: str | None = None, passed: bool = False) -> rules.Hand:
        """The hand this draft becomes when the makers took `tricks` (or when a side reneged, or the opponents
        passed)."""
        return rules.Hand(
            makers=rules.side_of(self.maker),
            tricks=tricks,
            alone=self.alone or bool(self.pepper),
            maker=self.maker or None,  # type: ignore[arg-type]
            blind=self.blind,
            defender_alone=self.defender_alone or None,  # type: ignore[arg-type]
            bid=self.bid,
            pepper=self.pepper or None,  # type: ignore[arg-type]
            dealer=self.dealer or None,  # type: ignore[arg-type]
            renege=renege,  # type: ignore[arg-type]
            passed=passed,
        )


def _points_label(score: rules.HandScore) -> str:
    parts = [f"{side[0]}–{side[1]} {points:+d}" for side, points in (("NS", score.ns), ("EW", score.ew)) if points]
    return ", ".join(parts) or "no points"


def keeper_urls(round_: Round, table: int) -> dict[str, str]:
    args = [round_.night_id, round_.number, table]
    return {
        "base": reverse("scoring:table_hands", args=args),
        "add": reverse("scoring:hand_add", args=args),
        "undo": reverse("scoring:hand_undo", args=args),
        "finish": reverse("scoring:table_finish", args=args),
        "back": round_.night.get_absolute_url(),
    }


def _choices(shown: TableGame, draft: Draft) -> dict:
    """What the hand panel offers once `draft` is tapped: its toggles, bids, tricks (with their points), reneges and
    the opponents' pass."""
    ruleset = shown.rules
    options = []  # toggles shown once the caller is known: (label, url, on)
    tricks = []  # (tricks, points label) — only when the hand can be scored
    points: list[tuple[int, int]] = []  # each tricks button's (N–S, E–W) points
    bids: list[tuple[str, str, bool]] = []
    reneges: list[tuple[str, str, str]] = []  # (side, label, points label)
    renege_points: list[tuple[int, int]] = []
    passing = ""  # Midwest Pepper: the points if the opponents pass the hand ("" where they may not)
    passing_points: tuple[int, int] | None = None
    if draft.maker:
        defenders = rules.SEATS_OF[rules.other(rules.side_of(draft.maker))]
        if not ruleset.bidding:
            options.append(("Alone", draft.query(alone=not draft.alone, blind=False), draft.alone))
            if ruleset.blind_loner_march and draft.alone:
                options.append(("Blind double loner", draft.query(blind=not draft.blind), draft.blind))
            if rules.may_defend_alone(ruleset, against_loner=draft.alone):
                for seat in defenders:
                    on = draft.defender_alone == seat
                    label = f"{shown.seats.get(seat, seat)} defends alone"
                    options.append((label, draft.query(defender_alone="" if on else seat), on))
        else:
            for bid in range(ruleset.min_bid, ruleset.tricks_per_hand + 1):
                bids.append((str(bid), draft.query(bid=bid, pepper=""), draft.bid == bid and not draft.pepper))
            for pepper in rules.peppers_played(ruleset):
                label = rules.pepper_name(pepper, ruleset)
                bids.append((label, draft.query(pepper=pepper, bid=None), draft.pepper == pepper))
        for count in range(ruleset.tricks_per_hand + 1):
            try:
                score = rules.score_hand(draft.hand(count), ruleset)
            except rules.ScoringError:
                tricks, points = [], []
                break
            tricks.append((count, _points_label(score)))
            points.append((score.ns, score.ew))
        if tricks:  # a renege forfeits the hand to the other side, as its rule says (scoring.rules.forfeited)
            for side in rules.SIDES:
                score = rules.score_hand(draft.hand(0, renege=side), ruleset)
                reneges.append((side, f"{side[0]}–{side[1]} reneged", _points_label(score)))
                renege_points.append((score.ns, score.ew))
            if ruleset.defenders_may_pass:
                score = rules.score_hand(draft.hand(0, passed=True), ruleset)
                passing, passing_points = _points_label(score), (score.ns, score.ew)
    return {
        "options": options,
        "bids": bids,
        "tricks": tricks,
        "points": points,
        "reneges": reneges,
        "renege_points": renege_points,
        "passing": passing,
        "passing_points": passing_points,
    }


def _kit_key(draft: Draft) -> str:
    """A draft as the offline kit names it: its query without the dealer (the phone keeps the dealer itself)."""
    return replace(draft, dealer="", game=0, for_hand=0).query()


def offline_kit(shown: TableGame) -> dict:
    """What a table's phone needs to go on entering hands with no connection (static/js/offline.js): the game as
    stored, and for every choice the hand panel can offer, what it offers next and each button's points, from the
    rules engine. Nothing here is trusted on return: each hand is sent as tapped and the server scores it again."""
    drafts: dict[str, dict] = {}
    waiting = [Draft(dealer="", maker=seat) for seat in rules.SEATS]
    while waiting:
        draft = waiting.pop()
        if _kit_key(draft) in drafts or len(drafts) > 500:
            continue
        offered = _choices(shown, draft)

        def step(url: str) -> str:
            nxt = Draft.from_query(QueryDict(url.lstrip("?")))
            waiting.append(replace(nxt, dealer=""))
            return _kit_key(nxt)

        drafts[_kit_key(draft)] = {
            "options": [(label, step(url), on) for label, url, on in offered["options"]],
            "bids": [(label, step(url), on) for label, url, on in offered["bids"]],
            "tricks": [
                (count, label, *pts) for (count, label), pts in zip(offered["tricks"], offered["points"], strict=True)
            ],
            "reneges": [
                (side, label, words, *pts)
                for (side, label, words), pts in zip(offered["reneges"], offered["renege_points"], strict=True)
            ],
            "passing": (offered["passing"], *offered["passing_points"]) if offered["passing_points"] else None,
        }
    night = shown.round.night
    return {
        "game": shown.round.number,
        "table": shown.table,
        "open": shown.round.open and not shown.over and not shown.by_totals,
        "seats": shown.seats,
        "hands": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "called": _called(hand, shown.rules),
                "tricks": "passed" if hand.passed else hand.tricks,
                "ns": hand.ns_points,
                "ew": hand.ew_points,
            }
            for hand in shown.hands
        ],
        "head": shown.head,
        "hands_per_game": night.hands_per_game,
        "target": night.points_target or None,
        "bell": shown.round.bell_at is not None,
        "bidding": shown.rules.bidding,
        "drafts": drafts,
    }


def _called(hand, ruleset: rules.Ruleset) -> str:
    """Who called and how, as the hands table says it (the template's words, for hands the phone keeps)."""
    words = hand.maker or hand.makers
    words += " alone" if hand.alone else ""
    words += " blind" if hand.blind else ""
    words += f" bid {hand.bid}" if hand.bid else ""
    words += f" {rules.pepper_name(hand.pepper, ruleset)}" if hand.pepper else ""
    words += f", {hand.get_renege_display()} reneged" if hand.renege else ""
    words += f", {hand.defender_alone} def. alone" if hand.defender_alone else ""
    return words


def _context(shown: TableGame, draft: Draft, error: str = "", urls: dict[str, str] | None = None) -> dict:
    urls = urls or keeper_urls(shown.round, shown.table)
    base = urls["base"]
    dealer = shown.next_dealer or draft.dealer
    offered = _choices(shown, draft)
    seat_buttons = [(seat, shown.seats.get(seat, "?"), SEAT_NAMES[seat]) for seat in rules.SEATS]
    return {
        "game": shown,
        "night": shown.round.night,
        "draft": draft,
        "base": base,
        "dealer": dealer,
        "dealer_name": shown.seats.get(dealer, dealer),
        "seat_buttons": seat_buttons,
        "maker_links": [(seat, name, draft.query(maker=seat)) for seat, name, _ in seat_buttons],
        "dealer_links": [
            (seat, name, draft.query(dealer=seat), seat == draft.dealer) for seat, name, _ in seat_buttons
        ],
        "maker_name": shown.seats.get(draft.maker, ""),
        "change_url": Draft(dealer=draft.dealer, game=draft.game, for_hand=draft.for_hand).query(),
        "options": offered["options"],
        "bids": offered["bids"],
        "pepper_names": {pepper: rules.pepper_name(pepper, shown.rules) for pepper in ("little", "big")},
        "tricks": offered["tricks"],
        "reneges": offered["reneges"],
        "passing": offered["passing"],
        "error": error,
        "urls": urls,
    }


def answer(request, round_: Round, table: int, draft: Draft, error: str = "", urls=None, extra=None, live=False):
    """The hand panel (the whole page, or the panel alone for htmx; `live`: the panel and the poller, each to
    replace its twin, for a phone's poll)."""
    if request.method == "POST":
        round_.refresh_from_db()  # the action may have moved the game (the bell, the close)
    polled = bool((extra or {}).get("table_link"))  # a phone's page polls
    # The stamp before what the page shows: a hand landing in between makes it older than the page (one redraw
    # more), never newer (a page left without that hand while its poll says "nothing new").
    stamp = table_stamp(round_.night_id, round_.pk, table) if polled else ""
    shown = table_game(round_, table)
    draft = draft.of_game(round_.number).of_hand(shown.next_number)
    context = {**_context(shown, draft, error, urls), "finish_form": FinishForm(), **(extra or {})}
    if polled:  # every answer brings the poller from where it now stands
        if request.method == "POST" and round_.status == Round.Status.CLOSED:
            # This action closed the game (the last table in), and may have started the next in the same breath: the
            # night will not move again to tell the poll, so the page's next poll draws the table's game as it is now.
            stamp += ":closed"
        context.update(stamp=stamp, poll_oob=True, oob=live)
        if context.get("needs_confirmer") and round_.open and not shown.over and CodeMiss.locked(round_.pk, table):
            # The table's codes are refused for the rest of the game: no Game over asking for them, the reason said.
            context["codes_locked"] = CodeMiss.LOCKED
        kit = {**offline_kit(shown), "confirm": bool(context.get("needs_confirmer"))}
        kit.update({name: context["urls"][name] for name in ("add", "undo", "finish")})
        context.update(kit=kit, hand_key=Submission.new_key(), action_key=Submission.new_key())
    template = f"{TEMPLATE}#{'live' if context.get('table_link') else 'panel'}" if request.htmx else TEMPLATE
    response = TemplateResponse(request, template, context)
    if request.method == "POST" and not error and "finish_form" not in (extra or {}):
        response[SAVED] = "1"
    return response


# The answer to a phone's action that was stored: a phone sending what it kept while offline reads this, not the page.
SAVED = "X-Saved"
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def posted_number(request, name: str) -> int | None:
    """A number a form carries (the game it was drawn for, the hand it offered to undo); 0 when it is not one, None
    when the form has no such field."""
    value = request.POST.get(name)
    if value is None:
        return None
    return int(value) if value.isdecimal() and len(value) < 6 else 0


SCORE = re.compile(r"\d{1,5}–\d{1,5}")


def posted_seen(request) -> dict:
    """The hands and score a Game over was confirmed at, as its form carries them (none when it does not say)."""
    score = request.POST.get("score", "")
    return {"seen_hands": posted_number(request, "hands"), "seen_score": score if SCORE.fullmatch(score) else ""}


def posted_key(request) -> str:
    """The one-time key a phone's form carries ("" when it has none or it is not one)."""
    key = request.POST.get("key", "")
    return key if KEY.fullmatch(key) else ""


def record_hand(request, round_: Round, table: int, *, role: str, urls=None, extra=None, drawn_for=None):
    """Save the hand whose tricks were just tapped; the panel comes back fresh or with the refusal.

    `drawn_for`: the game the page was drawn for, when the address does not say it (a table's link).
    """
    draft = Draft.from_query(request.POST)
    if drawn_for is None:  # the keeper's page: its address names the game
        draft = draft.in_game(round_.number)
    renege = request.POST.get("renege") if request.POST.get("renege") in rules.SIDES else None
    passed = request.POST.get("passed") == "1"  # the opponents passed: the hand was not played
    try:
        # A renege is scored without its tricks; a passed hand has none.
        tricks = 0 if renege or passed else int(request.POST.get("tricks", ""))
        if not draft.maker:
            raise ValidationError("Tap who called trump first.")
        game.hand_record(
            round_=round_,
            table=table,
            hand=draft.hand(tricks, renege, passed),
            user=request.user,
            drawn_for=drawn_for,
            number=posted_number(request, "hand"),
            key=posted_key(request),
        )
    except ValueError:
        return answer(request, round_, table, draft, "Tap the number of tricks the makers took.", urls, extra)
    except ValidationError as error:
        # Refused (the hand entered from another phone meanwhile, the game moved on): the choices go with it, so
        # that the next tap is made for the hand now offered.
        fresh = Draft(dealer=draft.dealer, game=draft.game)
        return answer(request, round_, table, fresh, " ".join(error.messages), urls, extra)
    after = Draft(dealer=draft.dealer, game=draft.game)
    return answer(request, round_, table, after, urls=urls, extra={**(extra or {}), "saved": True})


def undo_hand(request, round_: Round, table: int, *, urls=None, extra=None, drawn_for=None):
    draft = Draft.from_query(request.POST)
    if drawn_for is None:
        draft = draft.in_game(round_.number)
    try:
        game.hand_undo(
            round_=round_,
            table=table,
            drawn_for=drawn_for,
            last_hand=posted_number(request, "hand"),
            from_table=bool((extra or {}).get("table_link")),
            key=posted_key(request),
        )
    except ValidationError as error:
        return answer(request, round_, table, draft, " ".join(error.messages), urls, extra)
    return answer(request, round_, table, Draft(dealer=draft.dealer, game=draft.game), urls=urls, extra=extra)


def _round(night_id: int, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("night"), night_id=night_id, number=number)


@keeper_required
def table_hands(request, night_id: int, number: int, table: int):
    round_ = _round(night_id, number)
    if not round_.seatings.filter(table=table).exists():
        return redirect(round_.night)
    return answer(request, round_, table, Draft.from_query(request.GET).in_game(round_.number))


@keeper_required
@require_POST
def hand_add(request, night_id: int, number: int, table: int):
    return record_hand(request, _round(night_id, number), table, role="keeper")


@keeper_required
@require_POST
def hand_undo(request, night_id: int, number: int, table: int):
    return undo_hand(request, _round(night_id, number), table)


@keeper_required
@require_POST
def table_finish(request, night_id: int, number: int, table: int):
    round_ = _round(night_id, number)
    try:
        game.table_finish(round_=round_, table=table, **posted_seen(request))
    except ValidationError as error:
        return answer(request, round_, table, Draft(), " ".join(error.messages))
    return answer(request, round_, table, Draft())
