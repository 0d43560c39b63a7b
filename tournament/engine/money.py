"""The fundraiser's money at the door, in integer cents: what each player owes and the night's cash. Pure Python.

Every figure on the door list, the totals and the CSV comes from here. Nothing is ever edited: a refund or a
correction is a new line with a reason, so the record shows what happened and in which order.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

METHODS = ("cash", "card", "e-transfer", "comp")  # "comp": let in free, counted as paid, no money in
KINDS = ("pre", "door", "member")  # which price a player pays: pre-registered, at the door, a member's
MAX_CENTS = 10_000_00  # the most one amount at the door may be: a typing slip past it is refused
SYMBOLS = {"USD": "$", "CAD": "$", "AUD": "$", "NZD": "$", "GBP": "£", "EUR": "€", "IEP": "£"}

# The currencies the app knows (a night's currency is one of them): code -> the money's name in words, and the
# marks an amount in it may be typed with besides its code. An amount typed with another currency's mark or code is
# refused (`parse_cents`): "€12.50" on a dollar night is not twelve dollars fifty.
_DOLLAR = ("$",)
CURRENCIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "USD": ("dollars", ("$", "US$")),
    "CAD": ("Canadian dollars", ("$", "C$", "CA$")),
    "AUD": ("Australian dollars", ("$", "A$", "AU$")),
    "NZD": ("New Zealand dollars", ("$", "NZ$")),
    "HKD": ("Hong Kong dollars", ("$", "HK$")),
    "SGD": ("Singapore dollars", ("$", "S$")),
    "BSD": ("Bahamian dollars", _DOLLAR),
    "BBD": ("Barbadian dollars", _DOLLAR),
    "BMD": ("Bermudian dollars", _DOLLAR),
    "JMD": ("Jamaican dollars", _DOLLAR),
    "TTD": ("Trinidad and Tobago dollars", _DOLLAR),
    "XCD": ("East Caribbean dollars", _DOLLAR),
    "MXN": ("pesos", _DOLLAR),
    "ARS": ("pesos", _DOLLAR),
    "CLP": ("pesos", _DOLLAR),
    "COP": ("pesos", _DOLLAR),
    "PHP": ("pesos", ("₱",)),
    "GBP": ("pounds", ("£",)),
    "IEP": ("Irish pounds", ("£",)),
    "EUR": ("euros", ("€",)),
    "CHF": ("Swiss francs", ("Fr.", "Fr")),
    "SEK": ("kronor", ("kr",)),
    "NOK": ("kroner", ("kr",)),
    "DKK": ("kroner", ("kr",)),
    "ISK": ("krónur", ("kr",)),
    "PLN": ("złoty", ("zł",)),
    "CZK": ("koruny", ("Kč",)),
    "HUF": ("forints", ("Ft",)),
    "RON": ("lei", ()),
    "BGN": ("leva", ()),
    "TRY": ("lira", ("₺",)),
    "RUB": ("roubles", ("₽",)),
    "UAH": ("hryvnias", ("₴",)),
    "BRL": ("reais", ("R$",)),
    "ZAR": ("rand", ("R",)),
    "IDR": ("rupiah", ("Rp",)),
    "VND": ("dong", ("₫",)),
    "JPY": ("yen", ("¥", "￥")),
    "CNY": ("yuan", ("¥", "￥")),
    "INR": ("rupees", ("₹",)),
    "KRW": ("won", ("₩",)),
    "ILS": ("shekels", ("₪",)),
    "THB": ("baht", ("฿",)),
    "NGN": ("naira", ("₦",)),
}
# Every mark any known currency is typed with, and the sign of money in general: an amount carrying one that is not
# the night's own is in another currency.
_MARKS = frozenset(mark.casefold() for _, marks in CURRENCIES.values() for mark in marks) | {"¤", "€", "£", "¥"}


class MoneyError(ValueError):
    """An amount the door list cannot take; the message says why, for the person at the cash box."""


@dataclass(frozen=True)
class Prices:
    """The night's prices in cents; a member's price of None is the pre-registered price."""

    pre: int = 0
    door: int = 0
    member: int | None = None

    def of(self, kind: str) -> int:
        if kind == "member":
            return self.pre if self.member is None else self.member
        if kind not in KINDS:
            raise MoneyError(f"A price is for {', '.join(KINDS)}, not {kind!r}.")
        return self.pre if kind == "pre" else self.door


@dataclass(frozen=True)
class Line:
    """One line of the cash record: money in (positive) or out (a refund, negative), by method, for a player."""

    player: int
    cents: int
    method: str


@dataclass(frozen=True)
class Standing:
    """Where one player's entry money stands."""

    price: int
    paid: int  # money in less refunds, comps counted at their value
    owed: int  # what is still to pay (never below 0)
    over: int  # paid beyond the price (to refund, or a donation)


def standing(price: int, lines: Iterable[Line]) -> Standing:
    paid = sum(line.cents for line in lines)
    return Standing(price=price, paid=paid, owed=max(0, price - paid), over=max(0, paid - price))


def held(lines: Iterable[Line]) -> dict[str, int]:
    """What a player's lines leave with the house, by method: each method's net, a method that nets to nothing
    (money given back in full, a comp taken back) left out. Empty: the player can leave the record square."""
    nets: dict[str, int] = {}
    for line in lines:
        nets[line.method] = nets.get(line.method, 0) + line.cents
    return {method: cents for method, cents in nets.items() if cents}


def asked(price: int, *, came: bool, drawn: bool) -> int:
    """What a player's entry is asked to pay: its price, until the opening draw whether or not they are here yet
    (the door collects from players still expected); from the draw on, only from a player who came. A player never
    checked in by then is a no-show, who owes nothing (what they paid ahead shows as over, to refund or keep)."""
    return price if came or not drawn else 0


def entry_of(player: int, substitutes: Mapping[int, int]) -> int:
    """Whose entry `player` plays on: their own, or for a substitute (`substitutes`: substitute -> the player they
    replaced) the entry of the first player of their line: a seat is paid for once, by whoever took it first.

    A line that runs in a circle (only a hand-edited file could make one) ends at its smallest player.
    """
    line = [player]
    while line[-1] in substitutes:
        before = substitutes[line[-1]]
        if before in line:
            return min(line[line.index(before) :])
        line.append(before)
    return line[-1]


def entries(
    prices: Mapping[int, int], lines: Iterable[Line], substitutes: Mapping[int, int] | None = None
) -> dict[int, Standing]:
    """Where each entry's money stands, keyed by the player whose entry it is (`prices`: player -> cents).

    A substitute has no entry of their own: the seat they took over was paid for once, so their price is not
    asked (any given for them is ignored) and money they hand in counts on that entry. A line from a player with
    no price counts on an entry of price 0.
    """
    subs = substitutes or {}
    mine: dict[int, list[Line]] = {entry_of(player, subs): [] for player in prices}
    for line in lines:
        mine.setdefault(entry_of(line.player, subs), []).append(line)
    return {player: standing(prices.get(player, 0), own) for player, own in mine.items()}


@dataclass(frozen=True)
class Cash:
    """The night's entry money: by method (refunds taken off), what came in and went out, and what is owed."""

    by_method: dict[str, int] = field(default_factory=dict)  # net cents a method, comps apart
    taken: int = 0  # money in (comps not counted)
    refunded: int = 0  # money out, as a positive amount
    comped: int = 0  # entries let in free, at their price
    owed: int = 0  # still to collect
    players: int = 0  # entries: each seat once, however many people played in it
    substitutes: int = 0  # people playing on an entry another paid for (not counted in `players`)
    # Paid beyond the price, in the net: a no-show's money paid ahead, a gift; the treasurer refunds or keeps it.
    over: int = 0

    @property
    def net(self) -> int:
        """The entry money in the box and the accounts: taken less refunded."""
        return self.taken - self.refunded


def cash(prices: Mapping[int, int], lines: Iterable[Line], substitutes: Mapping[int, int] | None = None) -> Cash:
    """The night's entry money from each player's price (`prices`: player -> cents) and the cash record; a
    substitute (`substitutes`: substitute -> the player they replaced) plays on the entry they took over (see
    `entries`)."""
    subs = substitutes or {}
    recorded = list(lines)
    by_method = dict.fromkeys(METHODS[:-1], 0)
    taken = refunded = comped = 0
    for line in recorded:
        if line.method == "comp":
            comped += line.cents
            continue
        by_method[line.method] = by_method.get(line.method, 0) + line.cents
        if line.cents >= 0:
            taken += line.cents
        else:
            refunded -= line.cents
    standings = entries(prices, recorded, subs).values()
    owed = sum(entry.owed for entry in standings)
    held = len({entry_of(player, subs) for player in prices})
    return Cash(
        by_method, taken, refunded, comped, owed, held, len(prices) - held, sum(entry.over for entry in standings)
    )


# Currencies whose amounts are written with a decimal comma where they are used ("12,50 €", "1.250,00 kr"). Every
# other currency is written with a decimal point ("$12.50", "£1,250.00").
COMMA_DECIMAL = frozenset("EUR SEK NOK DKK ISK PLN CZK HUF RON BGN TRY RUB UAH BRL ARS CLP COP IDR VND ZAR".split())
# Spaces and apostrophes that group thousands ("1 250", "1'250", narrow and no-break spaces), and what a price
# may carry around it (a symbol, the currency's code).
_GROUPING = " \u00a0\u202f\u2009'’"


def decimal_mark(currency: str) -> str:
    """The decimal mark amounts in `currency` are typed with: "," or "."."""
    return "," if currency.strip().upper() in COMMA_DECIMAL else "."


def _example(mark: str) -> str:
    return f"20 or 20{mark}50"


def _grouped(digits: str, groups: list[str]) -> bool:
    """`digits` then `groups`, read as thousands: the first 1 to 3 figures (not led by a 0: "0,001" is no
    thousand), each group after exactly 3."""
    return 1 <= len(digits) <= 3 and not digits.startswith("0") and all(len(group) == 3 for group in groups)


def parse_cents(text: str, currency: str = "USD") -> int:
    """An amount typed at the cash box as cents, read as the person typed it: "20", "20.50", "$20.50",
    "1,250.00", and where `currency` is written with a decimal comma, "20,50" and "1.250,00".

    A mark followed by one or two figures is the decimal mark whatever the currency ("12,50" can only be twelve
    and a half); with both marks the last is the decimal mark; a mark followed by three figures groups thousands,
    except the currency's own decimal mark there, which could be read two ways ("1.250" on a dollar night: a
    thousand two hundred and fifty, or one and a quarter?) and is refused with the question put back."""
    mark = decimal_mark(currency)
    code = currency.strip().upper()
    cleaned = _ascii_figures(text).strip()
    cleaned = _without_currency(_without_currency(cleaned, code, at_start=True), code, at_start=False).strip()
    cleaned = "".join(char for char in cleaned if char not in _GROUPING)
    if cleaned[:1] in _MINUS:
        raise MoneyError("An amount cannot be negative: type it without the minus sign.")
    if cleaned.casefold() in _NOT_NUMBERS:
        raise MoneyError(f"“{text.strip()}” is not a number: type an amount like {_example(mark)}.")
    if not cleaned or any(not (char.isdecimal() and char.isascii()) and char not in ",." for char in cleaned):
        raise MoneyError(f"Type an amount like {_example(mark)}.")
    marks = [char for char in cleaned if char in ",."]
    whole, part = cleaned, ""
    if marks:
        last = marks[-1]
        head, _, tail = cleaned.rpartition(last)
        if len(set(marks)) == 2:  # "1,250.00", "1.250,00": the last is the decimal mark, the other groups
            other = "," if last == "." else "."
            pieces = head.split(other)
            if marks.count(last) != 1 or not _grouped(pieces[0], pieces[1:]) or not all(p.isdecimal() for p in pieces):
                raise MoneyError(
                    f"Type an amount like {_example(mark)} (or 1{'.' if mark == ',' else ','}250{mark}00)."
                )
            whole, part = "".join(pieces), tail
        elif len(marks) > 1:  # "1,250,000": one mark, grouping only
            pieces = cleaned.split(last)
            if not _grouped(pieces[0], pieces[1:]) or not all(p.isdecimal() for p in pieces):
                raise MoneyError(f"Type an amount like {_example(mark)}.")
            whole = "".join(pieces)
        elif len(tail) in (1, 2) and tail.isdecimal() and (head == "" or head.isdecimal()):
            whole, part = head, tail  # "12,50", "12.5", ",50": the decimal mark
        elif len(tail) == 3 and tail.isdecimal() and _grouped(head, []):
            if last == mark:
                as_thousands = f"{int(head + tail):,}".replace(",", "." if mark == "," else ",") + f"{mark}00"
                if tail.endswith("0"):
                    as_units = f"{head}{mark}{tail[:2]}"
                    question = f"could be {as_thousands} or {as_units}: type {head}{tail} for the first, {as_units}"
                    raise MoneyError(f"“{text.strip()}” {question} for the second.")
                raise MoneyError(
                    f"Type at most two figures after the {'comma' if mark == ',' else 'point'} (cents). For "
                    f"{as_thousands}, type {head}{tail}."
                )
            whole = head + tail  # "1,250" on a dollar night, "1.250" on a euro night
        elif tail and tail.isdecimal() and len(tail) > 3:
            raise MoneyError(f"Type at most two figures after the {'comma' if last == ',' else 'point'} (cents).")
        else:
            raise MoneyError(f"Type an amount like {_example(mark)}.")
    if not whole and not part:
        raise MoneyError(f"Type an amount like {_example(mark)}.")
    cents = int(whole or "0") * 100 + int(part.ljust(2, "0") or "0")
    if cents > MAX_CENTS:
        raise MoneyError(f"That is more than {limit_words(currency)}: check the amount.")
    return cents


def limit_words(currency: str = "USD") -> str:
    """The most one amount may be, as the night writes amounts: "$10,000", "€10.000", "10'000 CHF"."""
    whole = f"{MAX_CENTS // 100:,}".replace(",", "." if decimal_mark(currency) == "," else ",")
    code = currency.strip().upper()
    return f"{SYMBOLS[code]}{whole}" if code in SYMBOLS else f"{whole} {code}".strip()


def currency_words(currency: str) -> str:
    """A currency's money in words ("dollars", "euros"); a currency the app does not know by its code."""
    code = currency.strip().upper()
    return CURRENCIES[code][0] if code in CURRENCIES else code


_MINUS = ("-", "−", "‐", "‑", "–", "—", "﹣", "－")
_NOT_NUMBERS = frozenset(("nan", "inf", "infinity", "+inf", "+nan", "snan"))


def _ascii_figures(text: str) -> str:
    """`text` with its figures as ASCII figures whatever script or width they were typed in ("２５０" is "250", as
    a draw's ticket count reads it) and compatibility forms folded (a full-width "．" is a point)."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(str(unicodedata.digit(char)) if char.isdecimal() else char for char in folded)


def _without_currency(cleaned: str, code: str, *, at_start: bool) -> str:
    """`cleaned` without the night's currency at its start (or its end): its code or one of its marks ("$20",
    "20 EUR", "Fr. 20"). Another currency's code or mark there is refused in words: the amount is in other money
    than the night's ("€12.50" on a dollar night is not twelve dollars fifty)."""
    if at_start:  # what comes before the figures (a point before a figure is a decimal point: ".50")
        edge = re.match(r"(?:[^\d,.\-−]|\.(?!\d)|(?<=[^\W\d_])\.)*", cleaned)
    else:  # what comes after them (a point after a figure is the amount's)
        edge = re.search(r"(?:[^\d,.]|(?<!\d)\.)*$", cleaned)
    found = edge.group(0) if edge else ""
    word = found.strip().strip(_GROUPING).casefold()
    if not word:
        return cleaned
    rest = cleaned[len(found) :] if at_start else cleaned[: len(cleaned) - len(found)]
    _, marks = CURRENCIES.get(code, (code, (SYMBOLS[code],) if code in SYMBOLS else ()))
    if word in {code.casefold()} | {mark.casefold() for mark in marks}:
        return rest
    if not code and (word in _MARKS or word.upper() in CURRENCIES):
        return rest  # the prizes' money as stored, written with the night's own mark (`payout_words`)
    if word in _MARKS or word.upper() in CURRENCIES:
        raise MoneyError(f"This night is in {code}: type the amount in {currency_words(code)}.")
    return cleaned


def shown(cents: int, currency: str = "USD") -> str:
    """Cents as the door list shows them, with the marks the night's amounts are typed with: "$1,234.50",
    "−$5.00"; on a night of a decimal comma "€1.234,50" (as its forms show "1234,50" and its limit "€10.000")."""
    sign = "−" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    figures = f"{whole:,}.{part:02d}"
    if decimal_mark(currency) == ",":
        figures = figures.translate(str.maketrans(",.", ".,"))
    return f"{sign}{SYMBOLS.get(currency, '')}{figures}{'' if currency in SYMBOLS else ' ' + currency}"


def typed(cents: int, currency: str = "USD") -> str:
    """Cents as a form shows them to be typed again, with the currency's decimal mark: "20.00", "20,00"."""
    whole, part = divmod(cents, 100)
    return f"{whole}{decimal_mark(currency)}{part:02d}"


# --- the prizes' money --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payout:
    """What a prize pays: a share of the pot (`percent`) or a fixed amount (`cents`)."""

    percent: int | None = None
    cents: int | None = None


@dataclass(frozen=True)
class PrizeMoney:
    """A prize's money as paid: each winner's part, and what a split leaves over (kept by the house, stated)."""

    total: int
    each: int
    winners: int
    left_over: int


def _payout(amount: str, currency: str = "USD") -> Payout:
    """A prize's money as written: a share of the pot ("40%") or an amount ("$20", "20.50"; on a night whose
    currency is written with a decimal comma "20,50" too), read as every amount at the cash box is (`parse_cents`)."""
    if amount.endswith("%"):
        number = amount[:-1]
        if not number.isdecimal() or not 0 < int(number) <= 100:
            raise MoneyError(f"A share of the pot is 1% to 100%, not “{amount}”.")
        return Payout(percent=int(number))
    return Payout(cents=parse_cents(amount, currency))


def _prize_payout(key: str, amount: str, currency: str) -> Payout:
    """A prize's money (`_payout`), a refusal naming the prize it is for."""
    try:
        return _payout(amount, currency)
    except MoneyError as error:
        raise MoneyError(f"“{key}”: {error}") from error


# The comma that parts the prizes: any comma but one between two figures, which is inside an amount ("high 12,50,
# low 5": twelve and a half, then low; "high 1,250": a thousand two hundred and fifty).
_PARTS = re.compile(r"(?<![0-9]),|,(?![0-9])")


def _parts(text: str) -> list[str]:
    """The prizes (or payouts) written in `text`, each with its spaces collapsed, the empty ones left out."""
    return [part for part in (" ".join(piece.split()) for piece in _PARTS.split(text)) if part]


def _shares_fit(payouts: Iterable[Payout]) -> None:
    """The prizes' shares of the pot: at most the whole pot; refused saying how much they come to, and by how much
    to cut them."""
    if (total := sum(payout.percent or 0 for payout in payouts)) > 100:
        raise MoneyError(
            f"The shares of the pot add up to more than 100%: they come to {total}%, {total - 100}% too many."
        )


def parse_payouts(text: str, currency: str = "") -> dict[str, Payout]:
    """The organizer's payouts, e.g. "high 50%, second 30%, third 20%" or "high $50, low 10": prize -> payout.
    Amounts are read in `currency`'s way ("low 12,50" on a euro night), as the prizes' are (`parse_prizes`); no
    currency: the payouts as the night stores them (`prizes_text`: a decimal point, the mark of the currency the
    night had when they were written)."""
    payouts: dict[str, Payout] = {}
    for part in _parts(text):
        key, _, amount = part.rpartition(" ")
        key, amount = key.strip(), amount.strip()
        if not key or not amount:
            raise MoneyError(f"Write each prize and its money, like “high 50%” or “low $10”, not “{part}”.")
        if key in payouts:
            raise MoneyError(f"“{key}” is paid twice.")
        payouts[key] = _prize_payout(key, amount, currency)
    _shares_fit(payouts.values())
    return payouts


def payouts_beyond(payouts: Mapping[str, Payout], prize_keys: Iterable[str]) -> list[str]:
    """The prizes `payouts` pays that are not among `prize_keys` (the night's prizes), in the order written: money
    for a prize nobody can win."""
    known = set(prize_keys)
    return [key for key in payouts if key not in known]


# --- the prizes as the organizer names them, each once, with its money or none ----------------------------------


@dataclass(frozen=True)
class Prize:
    """One prize of the night, in the organizer's words ("high", "high:lady"), with its money (None: an item, or
    nothing but the honour)."""

    key: str
    payout: Payout | None = None


def _is_money(word: str) -> bool:
    """Whether the last word of a prize is its money: a share ("40%") or an amount ("$20", "20", "20.50"), or what
    was meant as one ("-5", "NaN", "¥500": refused as money, in words, rather than read as a prize's name)."""
    word = _ascii_figures(word)
    return (
        word.endswith("%")
        or word[:1] in (".", *_MINUS)
        or any(char.isdecimal() for char in word)
        or word.casefold() in _NOT_NUMBERS
        or any(word.casefold().startswith(mark) for mark in _MARKS)
    )


def parse_prizes(text: str, currency: str = "USD") -> list[Prize]:
    """The night's prizes as the organizer writes them in the one place they are named, in order, each once and
    each with its money if it carries any: "high 40%, low 30%, loners 30%", "high, low, loners", "high $20, low".

    The prize's name is folded to lower case ("High" is "high"; a category after "high:" is kept as typed). Refused
    (MoneyError, in words) where a prize is named twice (a category whatever its case: "high:Lady" is "high:lady"),
    an amount is not one, or the shares pass 100%. Amounts are read in `currency`'s way, as every money field reads
    them (`parse_cents`): "high 12,50" is twelve and a half on a euro night, and on a dollar night too (a comma
    before one or two figures is a decimal mark). Whether a name is a prize is the prize table's to say
    (`scoring.prizes.valid_prize`)."""
    prizes: list[Prize] = []
    for part in _parts(text):
        key, _, last = part.rpartition(" ")
        before, _, number = key.rpartition(" ")
        if before and last.isalpha() and not _is_money(last) and _is_money(number):
            key, last = before, f"{number} {last}"  # "high 12,50 EUR": the amount with its currency after it
        payout = None
        if key and _is_money(last):
            payout = _prize_payout(key.strip().casefold(), last, currency)
        elif _is_money(part):
            raise MoneyError(f"Name the prize its money is for, like “high {part}”, not “{part}” alone.")
        else:
            key = part
        name, colon, category = key.partition(":")
        key = name.strip().casefold() + colon + category.strip()
        if same := next((prize.key for prize in prizes if prize.key.casefold() == key.casefold()), None):
            also = "" if same == key else f" (as “{same}”)"
            raise MoneyError(f"“{key}” is named twice{also}: name each prize once, with its money.")
        prizes.append(Prize(key, payout))
    _shares_fit(prize.payout for prize in prizes if prize.payout)
    return prizes


def payout_words(payout: Payout, currency: str = "USD") -> str:
    """A prize's money as the prize list writes it, to be read back the same: "40%", "$20", "£20.50" (a currency
    without a symbol: "20"). No thousands comma: the comma parts the prizes."""
    if payout.percent is not None:
        return f"{payout.percent}%"
    whole, part = divmod(payout.cents or 0, 100)
    return f"{SYMBOLS.get(currency, '')}{whole}{f'.{part:02d}' if part else ''}"


def prizes_text(prizes: Iterable[Prize], currency: str = "USD") -> str:
    """The prizes in the one way they are written everywhere: "high 40%, low 30%, loners $20" (`parse_prizes` reads
    it back to the same prizes)."""
    return ", ".join(
        prize.key + (f" {payout_words(prize.payout, currency)}" if prize.payout else "") for prize in prizes
    )


def currency_code(text: str) -> str:
    """A currency as the night keeps it: three letters, in capitals ("usd" is "USD"), one the app knows
    (`CURRENCIES`: it can name its money and tell its marks from another's)."""
    code = text.strip().upper()
    if len(code) != 3 or not code.isascii() or not code.isalpha():
        raise MoneyError("A currency is three letters: USD, CAD, GBP, EUR…")
    if code not in CURRENCIES:
        raise MoneyError(f"{code} is not a currency the app knows: use one of {', '.join(sorted(CURRENCIES))}.")
    return code


def payouts_in(text: str, currency: str) -> str:
    """The night's stored payouts (`parse_payouts`) written again with `currency`'s mark, for a night whose
    currency changes: "high $20" becomes "high €20"."""
    return prizes_text([Prize(key, payout) for key, payout in parse_payouts(text).items()], currency)


def pot(net: int, house_percent: int) -> tuple[int, int]:
    """The pot the shares are of, and the house's part: the house keeps `house_percent` of the net entry money,
    rounded up to the cent, so the pot is never more than the box holds."""
    house = -(-net * house_percent // 100) if net > 0 else 0
    return net - house, house


def prize_money(payout: Payout, pot_cents: int, winners: int) -> PrizeMoney:
    """One prize's money shared by its `winners` (a tie), to the cent; the cents a split cannot share are left
    over (kept by the house, and said)."""
    total = payout.cents if payout.cents is not None else pot_cents * (payout.percent or 0) // 100
    each, left = divmod(total, max(winners, 1))
    return PrizeMoney(total=total, each=each, winners=winners, left_over=left)


# --- what the prizes ask of the pot, and the prizes tonight's players can win ---------------------------------------


@dataclass(frozen=True)
class PotCover:
    """The prizes' money against the pot as it stands: each amount in full, each share of the pot rounded down to
    the cent. `short` is what the pot cannot cover (0: it covers them), which the house pays."""

    pot: int
    claimed: int

    @property
    def short(self) -> int:
        return max(0, self.claimed - max(self.pot, 0))

    def words(self, currency: str = "USD") -> str:
        """The shortfall as the treasurer reads it ("" when the pot covers the prizes): "The pot holds $20.00; the
        prizes come to $50.00: $30.00 more than the pot, which the house pays (the house keeps −$30.00 of it)."."""
        if not self.short:
            return ""
        return (
            f"The pot holds {shown(self.pot, currency)}; the prizes come to {shown(self.claimed, currency)}: "
            f"{shown(self.short, currency)} more than the pot, which the house pays (the house keeps "
            f"{shown(-self.short, currency)} of it)."
        )


def pot_cover(payouts: Iterable[Payout], pot_cents: int) -> PotCover:
    """Whether a pot of `pot_cents` covers the prizes' money (`payouts`: each prize to be paid, once)."""
    claimed = sum(prize_money(payout, max(pot_cents, 0), 1).total for payout in payouts)
    return PotCover(pot=pot_cents, claimed=claimed)


def categories_missing(keys: Iterable[str], categories: Iterable[str]) -> list[str]:
    """The category prizes ("high:<category>") whose category none of `categories` (tonight's players') is, in the
    prizes' order; a category is matched whatever its case ("high:Lady" is a lady's prize)."""
    present = {category.strip().casefold() for category in categories if category.strip()}
    return [key for key in keys if key.startswith("high:") and key[5:].strip().casefold() not in present]


def categories_words(missing: Sequence[str], categories: Iterable[str]) -> str:
    """The category prizes nobody tonight can win, in words ("" when there are none)."""
    if not missing:
        return ""
    named: dict[str, str] = {}
    for category in categories:
        named.setdefault(category.strip().casefold(), category.strip())
    named.pop("", None)
    prizes = " and ".join(f"“{key}”" for key in missing)
    if not named:
        return f"No player tonight has a category yet: {prizes} would go to nobody as it stands."
    which = " or ".join(f"“{key[5:]}”" for key in missing)
    tonight = ", ".join(sorted(named.values(), key=str.casefold))
    return f"No player tonight has the category {which} (tonight's: {tonight}): {prizes} would go to nobody."


# --- the close of the night ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reconciliation:
    """The night's money from the door to the prize table, every figure in cents.

    What the house keeps is the net entry money less the prize money paid, plus what the side pots leave it; it is
    also the house's share plus the part of the pot not paid out (shares nobody won, the cents a split leaves, less
    any fixed-amount prizes) plus the pots' part, the same sum by construction: `kept_of_pot` reconciles them.
    """

    cash: Cash
    pot: int  # the net entry money less the house's share
    house_share: int
    prizes_paid: int  # each winner's money, every prize, every winner
    left_over: int  # the cents tied prizes could not split (inside `kept_of_pot`)
    winners_paid: int  # how many payments the prize table makes
    pots: tuple[PotTotal, ...] = ()  # the side pots, each with what the house keeps of it

    @property
    def kept_of_pot(self) -> int:
        return self.pot - self.prizes_paid

    @property
    def kept_of_pots(self) -> int:
        return sum(pot.kept for pot in self.pots)

    @property
    def house_keeps(self) -> int:
        """The entry money less the prize money, and what the side pots leave the house."""
        return self.cash.net - self.prizes_paid + self.kept_of_pots


def reconcile(
    cash: Cash, house_percent: int, prizes: Iterable[PrizeMoney], pots: Iterable[PotTotal] = ()
) -> Reconciliation:
    """The close of the night from the door's cash, the house's percent, each prize's money as paid and the side
    pots' totals."""
    paid = list(prizes)
    pot_cents, house = pot(cash.net, house_percent)
    return Reconciliation(
        cash=cash,
        pot=pot_cents,
        house_share=house,
        prizes_paid=sum(prize.each * prize.winners for prize in paid),
        left_over=sum(prize.left_over for prize in paid),
        winners_paid=sum(prize.winners for prize in paid),
        pots=tuple(pots),
    )


# --- side pots: the 50/50, a bump cup, a loner basket, a jackpot carried from night to night ------------------------

POT_KINDS = ("in", "paid", "carried")  # money into the pot; paid to a winner; carried over to the club's next night


@dataclass(frozen=True)
class PotLine:
    pot: str
    kind: str
    cents: int  # always positive: the kind says which way it goes


@dataclass(frozen=True)
class PotTotal:
    """One pot over the night: what came in (a carried-over jackpot included), what was paid out and carried on,
    and what the house keeps of it."""

    pot: str
    came_in: int = 0
    paid: int = 0
    carried: int = 0

    @property
    def kept(self) -> int:
        return self.came_in - self.paid - self.carried


def pot_totals(lines: Iterable[PotLine], currency: str = "USD") -> list[PotTotal]:
    """Each pot's totals, in the order the pots first appear; refused (MoneyError, its amounts in `currency`) where
    a pot pays or carries more than came into it, at any point of the record."""
    totals: dict[str, PotTotal] = {}
    for line in lines:
        if line.kind not in POT_KINDS or line.cents <= 0:
            raise MoneyError(f"A pot's line is money in, paid or carried, and more than 0, not {line}.")
        now = totals.get(line.pot, PotTotal(line.pot))
        if line.kind == "in":
            now = PotTotal(now.pot, now.came_in + line.cents, now.paid, now.carried)
        elif line.kind == "paid":
            now = PotTotal(now.pot, now.came_in, now.paid + line.cents, now.carried)
        else:
            now = PotTotal(now.pot, now.came_in, now.paid, now.carried + line.cents)
        if now.kept < 0:
            raise MoneyError(
                f"The {line.pot} holds {shown(now.kept + line.cents, currency)}: it cannot pay or carry "
                f"{shown(line.cents, currency)}."
            )
        totals[line.pot] = now
    return list(totals.values())


def carry_in_other_currency(pot: str, carried_in: str, tonight: str) -> str:
    """Why a jackpot carried over in one currency is not taken as it is into a night that counts in another."""
    return (
        f"{pot} was carried over in {carried_in}; tonight counts in {tonight}. Change it at the bank's rate and add "
        f"it as a money-in line of tonight's {pot}."
    )


def half(cents: int) -> int:
    """The 50/50's winner's half: half of the pot, rounded down to the cent (the odd cent stays with the house)."""
    return cents // 2
