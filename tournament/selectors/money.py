"""The door list's money as the page shows it: each player's price, payments and what is owed; the night's cash."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.prizes import label, parse_eligibility
from tournament.engine import money
from tournament.models import Entry, Night, Payment, PotLine

from .night import current_round, night_entries
from .standings import AwardRow, NightStandings, night_standings

KIND_LABELS = (("pre", "pre-registered"), ("door", "at the door"), ("member", "member"))


@dataclass(frozen=True)
class MoneyLine:
    at: dt.datetime
    name: str
    cents: int
    method: str
    reason: str
    by: str
    shown: str


@dataclass
class DoorRow:
    entry: Entry
    standing: money.Standing
    price: str
    paid: str
    owed: str
    over: str
    lines: list[MoneyLine]
    refund_form: Any = None  # the page's own form, set by the view
    holder: str = ""  # a substitute: whose entry they play on (its figures are the row's); "" for their own
    replaced_by: str = ""  # a player who left: the substitute who took their seat
    no_show: bool = False  # never checked in by the draw: asked nothing (`money.asked`)
    comped: str = ""  # what of `paid` a comp let in free, no money in ("" for none)


@dataclass(frozen=True)
class DoorMoney:
    rows: list[DoorRow]
    cash: money.Cash
    lines: list[MoneyLine]  # the whole record, in order
    shown: dict[str, str]  # the cash's figures as shown
    prices: dict[str, str]
    totals_by_method: list[tuple[str, str]] = field(default_factory=list)
    kinds: tuple[tuple[str, str], ...] = KIND_LABELS
    # Players taken off the night before the draw, their money given back: each name with its lines, still in the
    # cash (money in and out, netting to nothing).
    removed: list[tuple[str, list[MoneyLine]]] = field(default_factory=list)


def door_money(night: Night) -> DoorMoney:
    """Every player of the night with their money, and the night's cash (three queries).

    A substitute plays on the entry of the player they replaced, paid for once: their row shows that entry's
    figures, and the cash counts it once (`money.entries`)."""
    currency = night.currency
    prices = night.prices()
    drawn = night.status != Night.Status.SETUP
    entries = [entry for entry in night_entries(night) if not entry.player.house]
    by_pk = {entry.pk: entry for entry in entries}
    subs: dict[int, int] = {}  # a substitute -> the player they replaced
    replaced_by: dict[int, str] = {}  # the entry of a player who left -> their substitute's name
    for entry in entries:
        leaver = by_pk.get(entry.substitute_for_id) if entry.substitute_for_id is not None else None
        if leaver is not None:
            subs[entry.player_id] = leaver.player_id
            replaced_by[leaver.pk] = entry.name
    names = {entry.player_id: entry.name for entry in entries}
    payments = list(Payment.objects.filter(night=night).select_related("entry", "by").order_by("at", "id"))
    lines = [
        MoneyLine(
            p.at,
            p.who,
            p.cents,
            p.method,
            p.reason,
            p.by.username if p.by else "",
            money.shown(p.cents, currency),
        )
        for p in payments
    ]
    mine: dict[int, list[MoneyLine]] = {}
    removed: dict[str, list[MoneyLine]] = {}
    for payment, line in zip(payments, lines, strict=True):
        if payment.entry_id is None:
            removed.setdefault(payment.name, []).append(line)
        else:
            mine.setdefault(payment.entry_id, []).append(line)
    # A no-show (never checked in by the draw) is asked nothing and is not one of the night's entries.
    priced = {
        entry.player_id: money.asked(prices.of(entry.price_kind), came=entry.checked_in, drawn=drawn)
        for entry in entries
        if entry.checked_in or not drawn
    }
    # The lines of a player taken off the night count in the cash on an entry of their own, of no price.
    gone = {name: -number for number, name in enumerate(removed, start=1)}
    recorded = [
        money.Line(p.entry.player_id if p.entry is not None else gone[p.name], p.cents, p.method) for p in payments
    ]
    seats = money.entries(priced, recorded, subs)
    comps: dict[int, int] = {}  # each seat's comps, net (a comp taken back is a negative comp line)
    for each in recorded:
        if each.method == "comp":
            holder = money.entry_of(each.player, subs)
            comps[holder] = comps.get(holder, 0) + each.cents
    rows = []
    for entry in entries:
        holder = money.entry_of(entry.player_id, subs)
        standing = seats.get(holder) or money.standing(0, ())
        rows.append(
            DoorRow(
                entry=entry,
                standing=standing,
                price=money.shown(standing.price, currency),
                paid=money.shown(standing.paid, currency),
                owed=money.shown(standing.owed, currency),
                over=money.shown(standing.over, currency),
                lines=mine.get(entry.pk, []),
                holder=names[holder] if holder != entry.player_id else "",
                replaced_by=replaced_by.get(entry.pk, ""),
                no_show=drawn and not entry.checked_in,
                comped=money.shown(comps[holder], currency) if comps.get(holder, 0) > 0 else "",
            )
        )
    cash = money.cash(priced, recorded, subs)
    figures = {
        "taken": cash.taken,
        "refunded": cash.refunded,
        "net": cash.net,
        "comped": cash.comped,
        "owed": cash.owed,
        "over": cash.over,
    }
    return DoorMoney(
        rows=rows,
        cash=cash,
        lines=lines,
        shown={name: money.shown(cents, currency) for name, cents in figures.items()},
        prices={kind: money.shown(prices.of(kind), currency) for kind in money.KINDS},
        totals_by_method=[(method, money.shown(cents, currency)) for method, cents in cash.by_method.items()],
        removed=sorted(removed.items()),
    )


@dataclass(frozen=True)
class MoneyLeft:
    """What the door has not squared while the night's last game is played: the money locks when it closes."""

    game: int  # the last game's number
    words: str  # "Still owed: Walter Lee $25.00. Over the price: Victor Ng $20.00 (paid ahead, did not come)."


def money_left(night: Night) -> MoneyLeft | None:
    """While the night's last game is played (seated, playing, bell): what is still owed and what was paid beyond
    the price, each player named, as the last moment to square them before the night ends and its money no longer
    changes (`services.nights.require_unfinished`). None before the last game, once it is over, or when all is
    square."""
    if night.status != Night.Status.PLAYING or (now := current_round(night)) is None or not now.is_last(night):
        return None
    door = door_money(night)
    own = [row for row in door.rows if not row.holder]  # a seat once: a substitute's row shows their holder's

    def named(rows: list[DoorRow], amount: str) -> str:
        said = [f"{row.entry.name} {getattr(row, amount)}{' (did not come)' if row.no_show else ''}" for row in rows]
        return ", ".join(said[:6]) + (f" and {len(said) - 6} more" if len(said) > 6 else "")

    owed = [row for row in own if row.standing.owed]
    over = [row for row in own if row.standing.over]
    parts = [
        f"Still owed: {named(owed, 'owed')}." if owed else "",
        f"Over the price: {named(over, 'over')}." if over else "",
    ]
    words = " ".join(part for part in parts if part)
    return MoneyLeft(now.number, words) if words else None


@dataclass(frozen=True)
class PrizeMoneyRow:
    prize: str
    names: list[str]
    money: money.PrizeMoney
    shown: str  # "$45.00", "$22.50 each (1 cent left over, kept by the house)"


@dataclass(frozen=True)
class PrizePayouts:
    rows: list[PrizeMoneyRow]
    pot: str
    house: str
    paid: str  # the prizes' money in all
    left: str  # the pot less what its prizes take from it (shares and fixed amounts), never below nothing
    short: str = ""  # the prizes' money beyond the pot, in words ("" when the pot covers it): the house pays it
    # The prizes with money that nobody has won, in words ("" when every one is won): at the end, nobody made a
    # loner, or the one player who did already has a prize on a night of one prize each; the house keeps it.
    unwon: str = ""


def prize_payouts(night: Night, net: int, awards: list[AwardRow] | None = None) -> PrizePayouts | None:
    """The prizes' money from the night's payouts and its standings: the pot is the net entry money less the
    house's share; a tie splits a prize to the cent, what cannot be split stays with the house and is said.
    None when the night pays no prize money. `awards`: the night's prizes when the caller has its standings."""
    if not night.payouts:
        return None
    payouts = money.parse_payouts(night.payouts)
    pot_cents, house = money.pot(net, night.house_share)
    currency = night.currency
    rows = []
    awarded = night_standings(night).awards if awards is None else awards
    for award in awarded:
        payout = payouts.get(award.key)
        if payout is None:
            continue
        share = money.prize_money(payout, pot_cents, len(award.player_ids))
        shown = money.shown(share.each, currency)
        if share.winners > 1:
            shown += " each"
            if share.left_over:
                cents = f"{share.left_over} cent{'s' if share.left_over != 1 else ''}"
                shown += f" ({cents} left over, kept by the house)"
        rows.append(PrizeMoneyRow(award.prize, award.names, share, shown))
    paid = sum(row.money.each * row.money.winners for row in rows)
    # What the prizes take from the pot, each once: its shares and its fixed amounts alike (a fixed $10 is $10 the
    # pot no longer has); where they take more than it holds, `short` says so and nothing is left.
    taken = money.pot_cover(payouts.values(), pot_cents).claimed
    # What the prizes ask of the pot: each prize won so far once (before any is won, each prize the night offers).
    won = [award.key for award in awarded if award.player_ids and award.key in payouts]
    owed = [payouts[key] for key in won] if awarded else list(payouts.values())
    return PrizePayouts(
        rows=rows,
        pot=money.shown(pot_cents, currency),
        house=money.shown(house, currency),
        paid=money.shown(paid, currency),
        left=money.shown(max(0, pot_cents - taken), currency),
        short=money.pot_cover(owed, pot_cents).words(currency),
        unwon=_unwon(night, payouts, pot_cents, won) if awarded else "",
    )


def _unwon(night: Night, payouts: dict[str, money.Payout], pot_cents: int, won: list[str]) -> str:
    """The prizes with money nobody has won, with that money: "Not won: Most loners ($30.00). The house keeps
    it." (so far, while the night goes on)."""
    missed = [
        f"{label(key)} ({money.shown(money.prize_money(payout, pot_cents, 1).total, night.currency)})"
        for key, payout in payouts.items()
        if key not in won
    ]
    if not missed:
        return ""
    if night.status != Night.Status.FINISHED:
        return f"Not won so far: {', '.join(missed)}."
    them = "it" if len(missed) == 1 else "them"
    return f"Not won: {', '.join(missed)}. Nobody could take {them}: the house keeps that money."


@dataclass(frozen=True)
class OfferedPrize:
    """One prize of the night as the Money page lists it, before anyone has won it."""

    key: str
    label: str  # "High score"
    money: str  # "40% of the pot: $86.40", "$20.00", "" (no money)


def night_prizes(night: Night, net: int) -> list[OfferedPrize]:
    """The night's prizes in order, each with its money: a share as a percent and what it is of the pot now (the
    net entry money `net` less the house's share), or an amount."""
    pot_cents, _ = money.pot(net, night.house_share)
    rows = []
    for prize in night.prize_list():
        words = ""
        if prize.payout is not None and prize.payout.percent is not None:
            share = money.prize_money(prize.payout, pot_cents, 1).total
            words = f"{prize.payout.percent}% of the pot: {money.shown(share, night.currency)}"
        elif prize.payout is not None:
            words = money.shown(prize.payout.cents or 0, night.currency)
        rows.append(OfferedPrize(prize.key, label(prize.key), words))
    return rows


def standings_with_money(night: Night, standings: NightStandings) -> NightStandings:
    """The standings with each prize's money beside it, where the night pays prize money (else as they are)."""
    if not night.payouts or not standings.awards:
        return standings
    payouts = prize_payouts(night, door_money(night).cash.net, standings.awards)
    shown = {row.prize: row.shown for row in payouts.rows} if payouts else {}
    return replace(standings, awards=[replace(award, money=shown.get(award.prize, "")) for award in standings.awards])


# ---- the close of the night: the prize sheet and the cash reconciliation -----------------------------------------


@dataclass(frozen=True)
class PrizeLine:
    """One prize as the prize sheet prints it, with a line for each winner to sign."""

    prize: str
    value: str  # what won it ("46 points", "5 loners")
    winners: list[tuple[int, str]]  # (card number, name)
    money: str  # "$45.00", "$22.50 each (1 cent left over, kept by the house)"; "" for a prize that is an item
    tie: bool
    rule: str = ""  # who may take it, in words ("present at the end, there for every game")


@dataclass(frozen=True)
class Figure:
    section: str  # "Entries", "Prizes", "The house"
    label: str
    cents: int
    shown: str
    strong: bool = False


@dataclass(frozen=True)
class NightClose:
    prizes: list[PrizeLine]
    figures: list[Figure]
    reconciliation: money.Reconciliation
    games_closed: int
    pays_money: bool  # the night has payouts (else the prize sheet is items only)
    paid: str  # the prize money paid in all, as shown
    payouts: PrizePayouts | None  # each prize's money (None: the night pays none)
    final: bool = True  # the night is over; before, every prize and figure is as if it ended now

    @property
    def not_final(self) -> str:
        """What the sheets and the CSV say before the night is over (nothing once it is)."""
        if self.final:
            return ""
        return (
            "Not final: the night is still being played. The prizes and their money are as if it ended now; "
            "pay nothing out until it is over."
        )


def _house_keeps_words(cents: int, currency: str) -> str:
    """The reconciliation's last line, said plainly when the prizes take more than the night took in: the house
    then keeps nothing and pays the difference (the figure stays the negative number the sums give)."""
    if cents >= 0:
        return "The house keeps"
    return f"The house keeps nothing: it pays {money.shown(-cents, currency)} more than it took in"


@dataclass(frozen=True)
class PotRow:
    total: money.PotTotal
    came_in: str
    paid: str
    carried: str
    kept: str
    half: str  # half of what came in, rounded down: a 50/50's winner's money


@dataclass(frozen=True)
class NightPots:
    rows: list[PotRow]
    lines: list[tuple[PotLine, str]]  # the record, each line with its amount shown
    # Money earlier nights of the season carried over, not yet taken in: each line, its amount shown, and why it
    # cannot be taken in as it is ("": it can).
    waiting: list[tuple[PotLine, str, str]]


def pot_totals(night: Night, lines: Iterable[PotLine] | None = None) -> list[money.PotTotal]:
    """Each side pot's totals, from the night's pot lines (`lines`, when the caller has read them)."""
    lines = night.pot_lines.all() if lines is None else lines
    return money.pot_totals(money.PotLine(line.pot, line.kind, line.cents) for line in lines)


def night_pots(night: Night) -> NightPots:
    """The side pots as the Money page shows them: each pot's totals, the record, and carries waiting."""
    currency = night.currency

    def shown(cents: int) -> str:
        return money.shown(cents, currency)

    rows = [
        PotRow(
            total,
            shown(total.came_in),
            shown(total.paid),
            shown(total.carried),
            shown(total.kept),
            shown(money.half(total.came_in)),
        )
        for total in pot_totals(night)
    ]
    lines = [(line, money.shown(line.cents, currency)) for line in night.pot_lines.select_related("by")]
    # What a night may take in (a carry in another currency is listed with why it is not taken as it is).
    waiting = [
        (
            line,
            money.shown(line.cents, line.night.currency),
            money.carry_in_other_currency(line.pot, line.night.currency, currency)
            if line.night.currency != currency
            else "",
        )
        for line in PotLine.waiting_for(night)
    ]
    return NightPots(rows, lines, waiting)


def night_close(night: Night, standings: NightStandings | None = None) -> NightClose:
    """The prize sheet's prizes and the reconciliation's figures, each from `tournament.engine.money`
    (`standings`: the night's, when the caller has them)."""
    standings = standings or night_standings(night)
    door = door_money(night)
    payouts = prize_payouts(night, door.cash.net, standings.awards)
    by_prize = {row.prize: row for row in payouts.rows} if payouts else {}
    cards = {row.entry.player_id: row.entry.card for row in door.rows}
    rules = parse_eligibility(night.prize_rules)
    prizes = [
        PrizeLine(
            award.prize,
            award.value,
            [(cards.get(player, 0), name) for player, name in zip(award.player_ids, award.names, strict=False)],
            by_prize[award.prize].shown if award.prize in by_prize else "",
            award.tie,
            rules[award.key].words() if award.key in rules else "",
        )
        for award in standings.awards
    ]
    lines = list(night.pot_lines.all())
    pots = pot_totals(night, lines)
    close = money.reconcile(door.cash, night.house_share, [row.money for row in by_prize.values()], pots)
    currency = night.currency

    def figure(section: str, label: str, cents: int, strong: bool = False) -> Figure:
        return Figure(section, label, cents, money.shown(cents, currency), strong)

    cash = door.cash
    figures = [
        figure("Entries", f"{method.capitalize()} (less refunds)", cents) for method, cents in cash.by_method.items()
    ]
    figures += [
        figure("Entries", "Taken", cash.taken),
        figure("Entries", "Refunded", cash.refunded),
        figure("Entries", "Net entry money", cash.net, strong=True),
        figure("Entries", "Comped (no money in)", cash.comped),
        figure("Entries", "Still owed", cash.owed),
        *(
            [figure("Entries", "Over the price, in the net (paid ahead by a no-show, a gift)", cash.over)]
            if cash.over
            else []
        ),
    ]
    if payouts:
        figures.append(figure("Prizes", f"The pot (net less the house's {night.house_share}%)", close.pot))
        for row in by_prize.values():
            who = (
                row.names[0]
                if len(row.names) == 1
                else f"{len(row.names)} winners at {money.shown(row.money.each, currency)}"
            )
            figures.append(figure("Prizes", f"{row.prize}: {who}", row.money.each * row.money.winners))
        figures += [
            figure("Prizes", "Prize money paid", close.prizes_paid, strong=True),
            figure("Prizes", "Cents a tie could not split", close.left_over),
        ]
    for total in pots:
        figures += [
            figure("Side pots", f"{total.pot}: in", total.came_in),
            # each winner by name, as the pot's record has them: who took the cash home
            *(
                figure(
                    "Side pots",
                    f"{total.pot}: paid to {line.reason}" if line.reason else f"{total.pot}: paid out",
                    line.cents,
                )
                for line in lines
                if line.pot == total.pot and line.kind == PotLine.Kind.PAID
            ),
            *(
                [figure("Side pots", f"{total.pot}: carried over to the next night", total.carried)]
                if total.carried
                else []
            ),
            figure("Side pots", f"{total.pot}: left with the house", total.kept, strong=True),
        ]
    figures += [
        figure("The house", f"The house's share ({night.house_share}%)", close.house_share),
        figure("The house", "The pot not paid out", close.kept_of_pot),
        *([figure("The house", "What the side pots leave", close.kept_of_pots)] if pots else []),
        figure("The house", _house_keeps_words(close.house_keeps, currency), close.house_keeps, strong=True),
    ]
    return NightClose(
        prizes,
        figures,
        close,
        standings.rounds_closed,
        bool(payouts),
        money.shown(close.prizes_paid, currency),
        payouts,
        final=night.status == Night.Status.FINISHED,
    )
