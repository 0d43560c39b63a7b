"""A tie's draw checked against the standings of its moment: were the players it drew between the ones level for
its prize when it was drawn? Read by the restore (tournament.backup), which refuses a file whose draw was not."""

from __future__ import annotations

from dataclasses import replace

from scoring import prizes
from tournament.models import Draw, Entry, Night, Round

from .standings import NightRows, read_nights, standings_of


def _as_of(rows: NightRows, games: int, settled: dict[str, tuple[frozenset[int], int]]) -> NightRows:
    """The night's rows as they stood with its first `games` games closed and the ties `settled` by then."""

    def within(table: dict) -> dict:
        return {key: value for key, value in table.items() if key[0] <= games}

    return replace(
        rows,
        seats=within(rows.seats),
        results=within(rows.results),
        threes=within(rows.threes),
        extras=within(rows.extras),
        byes=[(player, number) for player, number in rows.byes if number <= games],
        settled=dict(settled),
    )


def _level(rows: NightRows, prize: str, card_of: dict[int, int]) -> list[int]:
    """The card numbers of the players the standings of `rows` have level for `prize` (none where it is not tied)."""
    award = next((award for award in standings_of(rows).awards if award.key == prize), None)
    if award is None or not award.tie:
        return []
    return sorted(card_of.get(player, 0) for player in award.player_ids)


def tie_draw_fault(night: Night) -> tuple[int, str] | None:
    """The first tie's draw whose pool is not the players level for its prize when it was drawn (the games closed
    by then, the ties drawn before it settled): its number and why, or None.

    Who is still playing is known only as it is now: a player who left after the draw was level when it was made,
    so a pool is also right when it is the players level with everyone counted as still playing."""
    ties = list(night.draws.filter(pool_kind=Draw.Pool.TIE).order_by("number"))
    if not ties:
        return None
    rows = read_nights([night])[night.pk]
    closed = list(night.rounds.filter(status=Round.Status.CLOSED).values_list("number", "closed_at"))
    card_of = dict(Entry.objects.filter(night=night).values_list("player_id", "card"))
    everyone_here = {player: replace(standing, present=True) for player, standing in rows.standing.items()}
    settled: dict[str, tuple[frozenset[int], int]] = {}
    for draw in ties:
        games = max((number for number, at in closed if at is None or at <= draw.at), default=0)
        then = _as_of(rows, games, settled)
        level = _level(then, draw.prize, card_of)
        if level != draw.pool and _level(replace(then, standing=everyone_here), draw.prize, card_of) != draw.pool:
            cards = ", ".join(map(str, draw.pool))
            prize = prizes.label(draw.prize) if prizes.valid_prize(draw.prize) else draw.prize
            was = f"cards {', '.join(map(str, level))} were" if level else "nobody was"
            when = f"after game {games}" if games else "before any game was closed"
            return draw.number, f"it draws between cards {cards}, yet {was} level for {prize} {when}."
        settled[draw.prize] = (
            frozenset(rows.cards.get(card, 0) for card in draw.pool),
            rows.cards.get(draw.winners[0], 0),
        )
    return None
