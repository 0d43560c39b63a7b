"""A whole night rehearsed with random legal hands, through the same services and game's life the pages use.

For `manage.py simulate_night`, the tests and the benchmarks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction

from scoring import rules, three
from scoring.ending import GameEnd
from scoring.models import TableResult

from . import game, services
from .game import hand_record, table_result_submit
from .imports import ImportLine
from .models import Cause, Night, Round
from .simulation import PlayedHand, player_names, random_game


@transaction.atomic
def simulate(
    *,
    players: int,
    rounds: int,
    seed: int,
    movement: str = "progressive",
    hands: int = 8,
    scoring: str = "standard",
    entry: str = "hands",
    name: str = "",
    arrive: Mapping[int, int] | None = None,
    leave: Mapping[int, int] | None = None,
    target: int | None = None,
    head_table: bool | None = None,
    bell_after: int | None = None,
    money: Mapping[str, Any] | None = None,
    never_share: float = 0.0,
    two_groups: bool = False,
    fill: str = "byes",
    prizes: str | None = None,
    prize_rules: str = "",
    club=None,
    after_game: Callable[[Night, int], None] | None = None,
) -> Night:
    """Play a night with random legal hands; a failure leaves nothing behind.

    `arrive` and `leave` map a game number to how many players join or go just before it is played. How a game
    ends is the night's (`scoring.ending`): `target` sets the points target (0 for none; not given, the movement's
    default: 10 on winners-stay), `head_table` whether the head table's last hand rings the bell, and `bell_after`
    stands in for the timer: the organizer rings the bell once every table has played that many hands. With none
    of them, the organizer rings it after `hands` hands.

    `money` makes it a fundraiser: the night's prices and prize money (`services.money_settings`'s arguments, and
    `methods`, the ways players pay); every player pays at the door, by a method drawn from them, before the draw.

    Partner wishes: `never_share` of the players (at least one pair when above 0) are drawn into never-partner
    pairs, and `two_groups` gives the players two groups of equal size ("red" and "black", by category) and the
    rule that every partnership is one of each.

    `fill` is the night's answer to a head count that is not a multiple of four: byes, a house player, or tables
    of three ("threes"), whose random three-handed hands go in as each player's points at the desk.

    `prizes` (with their money, as the night's form names them) and `prize_rules` are the night's from the start: a
    night that is over changes neither (`services.nights.require_unfinished`).

    `after_game(night, number)` is called after each game closes (a test publishing the night mid-way).
    """
    rng = random.Random(seed)
    settings: dict = {}
    if target is not None:
        settings["points_target"] = target or None
    if head_table is not None:
        settings["head_table_ends"] = head_table
    if prizes is not None:
        settings["prizes"] = prizes
    if prize_rules:
        settings["prize_rules"] = prize_rules
    night = services.night_create(
        club=club,
        name=name or f"Rehearsal: {players} players, seed {seed}",
        movement=movement,
        games=rounds,
        hands_per_game=hands,
        scoring=scoring,
        auto_advance=False,  # the rehearsal closes each game itself, so arrivals can join the very next one
        fill=fill,
        **settings,
    )
    ruleset = rules.Ruleset.from_dict(night.rules)
    end = night.game_end()
    if bell_after is None and not end.head_table and end.target is None:
        bell_after = hands  # nothing else ends the game: the organizer rings
    names = player_names(players + sum((arrive or {}).values()), rng)
    if two_groups:
        lines = [ImportLine(k, name, "", ("red", "black")[k % 2]) for k, name in enumerate(names[:players], start=1)]
        services.players_import(night=night, lines=lines)
    else:
        services.players_register(night=night, names=names[:players])
    if never_share or two_groups:
        _wish(night, names[:players], never_share, two_groups, rng)
    if money:
        _take_money(night, money, rng)
    late = names[players:]
    round_ = services.night_draw(night=night, seed=seed)
    while round_ is not None:
        coming = (arrive or {}).get(round_.number, 0)
        if coming:
            services.players_register(night=night, names=late[:coming])
            late = late[coming:]
        going = (leave or {}).get(round_.number, 0)
        if going:
            here = list(night.entries.filter(active=True, player__house=False).order_by("pk"))
            for entry in random.Random(seed + round_.number).sample(here, min(going, max(0, len(here) - 4))):
                services.entry_set_active(entry=entry, active=False)
        round_.refresh_from_db()
        game.round_start(round_=round_)
        sizes: dict[int, int] = {}
        for table in round_.seatings.values_list("table", flat=True):
            sizes[table] = sizes.get(table, 0) + 1
        threes = {table: _play_three(rng, end, hands, bell_after) for table, size in sizes.items() if size == 3}
        played = {table: _play(rng, end, ruleset, hands, bell_after) for table in sorted(sizes) if table not in threes}
        if entry == "hands":
            _enter_hands(round_, played, end, bell_after)
        else:
            for table, hands_played in played.items():
                scores = [rules.score_hand(rules.Hand.of(hand), ruleset) for hand in hands_played]
                table_result_submit(
                    round_=round_,
                    table=table,
                    ns_points=sum(score.ns for score in scores),
                    ew_points=sum(score.ew for score in scores),
                    last_hand_winner=scores[-1].winner,
                )
            round_.refresh_from_db()
        for table, three_hands in threes.items():
            _enter_three(round_, table, three_hands)
        number = round_.number
        round_ = _close(round_, end)
        if after_game is not None:
            after_game(Night.objects.get(pk=night.pk), number)
    night.refresh_from_db()
    return night


def _play(
    rng: random.Random, end: GameEnd, ruleset: rules.Ruleset, hands: int, bell_after: int | None
) -> list[PlayedHand]:
    """The hands one table plays: until its target, or the bell (the head table's last hand, the stand-in timer),
    or the cap."""
    most = hands if end.head_table else end.cap  # the head table's last hand rings the bell for every table
    if bell_after is not None:
        most = min(most, bell_after)
    played: list[PlayedHand] = []
    ns = ew = 0
    for hand in random_game(rng, most, ruleset):
        played.append(hand)
        score = rules.score_hand(rules.Hand.of(hand), ruleset)
        ns, ew = ns + score.ns, ew + score.ew
        if end.reached(ns, ew, score.winner):
            break
    return played


def _play_three(rng: random.Random, end: GameEnd, hands: int, bell_after: int | None) -> list[three.ThreeHand]:
    """The hands a table of three plays: random callers, tricks and loners, until a player reaches the target or
    the bell."""
    most = hands if end.head_table else end.cap
    if bell_after is not None:
        most = min(most, bell_after)
    played: list[three.ThreeHand] = []
    totals = dict.fromkeys(three.THREE_SEATS, 0)
    for _ in range(most):
        hand = three.ThreeHand(
            rng.choice(three.THREE_SEATS), rng.choice((0, 1, 2, 3, 3, 3, 4, 4, 5)), rng.random() < 0.1
        )
        played.append(hand)
        for seat, points in three.score_hand(hand).items():
            totals[seat] += points
        if end.target is not None and max(totals.values()) >= end.target:
            break
    return played


def _enter_three(round_: Round, table: int, hands: list[three.ThreeHand]) -> None:
    """A table of three's game at the desk: each player's points, the hands it played, the last hand's winner."""
    totals = dict.fromkeys(three.THREE_SEATS, 0)
    for hand in hands:
        for seat, points in three.score_hand(hand).items():
            totals[seat] += points
    last = three.hand_winners(hands[-1]) if hands else ()
    top = max(totals.values())
    level = [seat for seat in last if totals[seat] == top]
    table_result_submit(
        round_=round_,
        table=table,
        seat_points=totals,
        hands_played=len(hands) or None,
        # A tie at the top the last hand does not settle (it went to both tied players, or to neither) is drawn.
        last_hand_winner=level[0] if len(level) == 1 else three.DRAWN,
    )


def _enter_hands(round_: Round, played: Mapping[int, list[PlayedHand]], end: GameEnd, bell_after: int | None) -> None:
    """Hand by hand across the room, the head table first: when the bell rings (the head table's last hand or
    target, or the stand-in timer), every other table records the hand it was playing and stops; a table at its
    target stops at once. Then each says "Game over" (as the keeper would)."""
    stop = max(len(hands) for hands in played.values())
    for number in range(stop):
        for table, hands in played.items():
            if number < len(hands):
                hand_record(round_=round_, table=table, hand=rules.Hand.of(hands[number]))
        round_.refresh_from_db()
        if round_.bell_at is None and bell_after is not None and number + 1 >= bell_after:
            game.round_ring_bell(round_=round_)  # the organizer's bell, standing in for the timer
            round_.refresh_from_db()
        if round_.bell_at is not None:
            break
    for table in played:
        game.table_finish(round_=round_, table=table)


def _close(round_: Round, end: GameEnd):
    """Close the game as a night that runs by itself would: after the bell, or, every table at its target, at
    once (the rehearsal runs with auto-advance off, so arrivals can join the next game)."""
    round_.refresh_from_db()
    scores = TableResult.objects.filter(round=round_).values_list("ns_points", "ew_points", "seat_points")
    if round_.bell_at is None and all(
        end.reached(ns, ew) if three is None else end.target is not None and max(three.values()) >= end.target
        for ns, ew, three in scores
    ):
        return game.round_close(round_=round_, reason=Cause.ALL_DONE)
    return game.round_close(round_=round_)


def _wish(night: Night, names: list[str], never_share: float, two_groups: bool, rng: random.Random) -> None:
    """The night's partner wishes: random never-partner pairs and, if asked, the two-group rule."""
    pairs: set[frozenset[str]] = set()
    while never_share and len(pairs) < max(1, round(never_share * len(names))):
        pairs.add(frozenset(rng.sample(names, 2)))
    never = "\n".join(" & ".join(sorted(pair)) for pair in sorted(pairs, key=sorted))
    services.night_wishes_set(night=night, never=never, always="", groups="red, black" if two_groups else "")


def _take_money(night: Night, settings: Mapping[str, Any], rng: random.Random) -> None:
    """The door of a fundraiser: its prices and prize money, and every player paying by one of `methods`."""
    chosen = dict(settings)
    methods = chosen.pop("methods", ("cash",))
    services.money_settings(night=night, **chosen)
    for entry in night.entries.filter(player__house=False).order_by("card"):
        services.payment_take(night=night, entry=entry, method=rng.choice(methods))
