"""The door's money, without a database (#21): prices, what each player owes, the night's cash to the cent."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.engine.money import (
    CURRENCIES,
    SYMBOLS,
    Cash,
    Line,
    MoneyError,
    Prices,
    asked,
    cash,
    decimal_mark,
    entries,
    entry_of,
    held,
    parse_cents,
    shown,
    standing,
)


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("20", 2000), ("20.5", 2050), ("20.50", 2050), ("$20.50", 2050), (" 1,020.00 ", 102000), (".75", 75), ("0", 0)],
)
def test_amounts_typed_at_the_cash_box(typed, cents):
    assert parse_cents(typed) == cents


@pytest.mark.parametrize(
    ("typed", "refusal"),
    [
        ("", "Type an amount like 20 or 20.50."),
        ("twenty", "Type an amount like 20 or 20.50."),
        ("-5", "An amount cannot be negative: type it without the minus sign."),
        ("NaN", "“NaN” is not a number: type an amount like 20 or 20.50."),
        ("20.505", "Type at most two figures after the point (cents)."),
        ("20.5x", "Type an amount like 20 or 20.50."),
        ("10000.01", "That is more than $10,000: check the amount."),
        ("0,001", "Type an amount like 20 or 20.50."),  # no thousand: a dollar night stored it as $1.00
        ("0,250.00", "Type an amount like 20 or 20.50 (or 1,250.00)."),
    ],
)
def test_amounts_the_cash_box_refuses_say_why(typed, refusal):
    with pytest.raises(MoneyError, match=re.escape(refusal)):
        parse_cents(typed)


@pytest.mark.parametrize(
    ("typed", "currency", "cents"),
    [
        # Euro nights write a decimal comma; a point still reads as cents where it can only be that.
        ("12,50", "EUR", 1250),
        ("12,5", "EUR", 1250),
        ("12.50", "EUR", 1250),
        ("1.250,00", "EUR", 125000),
        ("1 250,00", "EUR", 125000),
        ("1.250", "EUR", 125000),
        ("€ 12,50", "EUR", 1250),
        ("12,50 €", "EUR", 1250),
        ("12,50 EUR", "EUR", 1250),
        ("1,250.00", "EUR", 125000),
        ("150 kr", "SEK", 15000),
        ("2.500,50", "SEK", 250050),
        # Dollar and pound nights write a decimal point and group thousands with commas.
        ("12.50", "USD", 1250),
        ("12,50", "USD", 1250),
        ("1,250", "USD", 125000),
        ("1,250.00", "USD", 125000),
        ("1.250,00", "USD", 125000),
        ("£7.5", "GBP", 750),
        ("1'250.00", "CHF", 125000),
    ],
)
def test_amounts_read_as_the_person_typed_them_in_the_nights_currency(typed, currency, cents):
    assert parse_cents(typed, currency) == cents


@pytest.mark.parametrize(
    ("typed", "currency", "question"),
    [
        ("1.250", "USD", "“1.250” could be 1,250.00 or 1.25: type 1250 for the first, 1.25 for the second."),
        ("1,250", "EUR", "“1,250” could be 1.250,00 or 1,25: type 1250 for the first, 1,25 for the second."),
        ("12,345", "EUR", "Type at most two figures after the comma (cents). For 12.345,00, type 12345."),
        ("1,25.00", "USD", "Type an amount like 20 or 20.50 (or 1,250.00)."),
        ("1.2.3", "EUR", "Type an amount like 20 or 20,50."),
        ("12,50", "XYZ", None),
    ],
)
def test_an_amount_that_could_be_read_two_ways_is_asked_about(typed, currency, question):
    if question is None:  # a currency the app does not know: the decimal point, as a dollar night
        assert parse_cents(typed, currency) == 1250
        return
    with pytest.raises(MoneyError) as refused:
        parse_cents(typed, currency)
    assert str(refused.value) == question


def _written(cents: int, mark: str, grouped: bool) -> str:
    """An amount written the way a currency writes it: "1.250,50" or "1,250.50", grouped or not."""
    whole, part = divmod(cents, 100)
    group = "." if mark == "," else ","
    digits = f"{whole:,}".replace(",", group) if grouped else str(whole)
    return f"{digits}{mark}{part:02d}"


@given(
    cents=st.integers(min_value=0, max_value=10_000_00),
    currency=st.sampled_from(["USD", "EUR", "GBP", "SEK", "CAD"]),
    grouped=st.booleans(),
    symbol=st.booleans(),
)
def test_any_amount_written_with_two_figures_of_cents_reads_back_in_either_custom(cents, currency, grouped, symbol):
    """Two figures of cents make the decimal mark plain, so an amount written either way (a decimal comma or a
    decimal point, thousands grouped or not, the night's own symbol before it) reads back the same on any night."""
    own = SYMBOLS.get(currency, "") if symbol else ""
    for mark in (",", "."):
        assert parse_cents(own + _written(cents, mark, grouped), currency) == cents


@given(
    cents=st.integers(min_value=0, max_value=10_000_00),
    night=st.sampled_from(sorted(CURRENCIES)),
    other=st.sampled_from(sorted(CURRENCIES)),
    where=st.sampled_from(["{mark}{amount}", "{mark} {amount}", "{amount} {mark}", "{amount}{mark}"]),
    code=st.booleans(),
    data=st.data(),
)
def test_an_amount_in_another_currency_is_refused_and_the_nights_own_is_read(cents, night, other, where, code, data):
    """An amount typed with another currency's code or mark ("€12.50" on a dollar night) is refused, naming the
    night's money; typed with the night's own, it reads as the bare amount."""
    amount = _written(cents, decimal_mark(night), False)
    marks = CURRENCIES[other][1]
    mark = other if code or not marks else data.draw(st.sampled_from(marks))
    typed = where.format(mark=mark, amount=amount)
    if other == night or mark in CURRENCIES[night][1]:  # the night's own money (a dollar is a dollar's mark)
        assert parse_cents(typed, night) == cents
    else:
        with pytest.raises(MoneyError) as refused:
            parse_cents(typed, night)
        assert str(refused.value) == f"This night is in {night}: type the amount in {CURRENCIES[night][0]}."


def test_prices_by_kind():
    prices = Prices(pre=2000, door=2500)
    assert (prices.of("pre"), prices.of("door"), prices.of("member")) == (2000, 2500, 2000)
    assert Prices(pre=2000, door=2500, member=1500).of("member") == 1500


def test_a_fundraiser_night_to_the_cent():
    """$20 pre-registered, $25 at the door: Ann paid cash, Bob card at the door, Carol e-transfer then a $5
    refund (she had paid the door price), Dave comped, Edna still owes $10 of $20."""
    prices = {1: 2000, 2: 2500, 3: 2000, 4: 2000, 5: 2000}
    lines = [
        Line(1, 2000, "cash"),
        Line(2, 2500, "card"),
        Line(3, 2500, "e-transfer"),
        Line(3, -500, "e-transfer"),
        Line(4, 2000, "comp"),
        Line(5, 1000, "cash"),
    ]
    night = cash(prices, lines)
    assert night.by_method == {"cash": 3000, "card": 2500, "e-transfer": 2000}
    assert (night.taken, night.refunded, night.net, night.comped, night.owed) == (8000, 500, 7500, 2000, 1000)
    assert standing(2000, [lines[5]]).owed == 1000
    assert standing(2000, lines[2:4]) == standing(2000, [Line(3, 2000, "e-transfer")])


@given(
    st.dictionaries(st.integers(1, 30), st.integers(0, 5000), min_size=1),
    st.lists(
        st.tuples(st.integers(1, 30), st.integers(-3000, 5000), st.sampled_from(["cash", "card", "e-transfer", "comp"]))
    ),
)
def test_the_cash_adds_up_whatever_the_lines(prices, raw):
    lines = [Line(player, cents, method) for player, cents, method in raw]
    night = cash(prices, lines)
    assert sum(night.by_method.values()) == night.net
    assert night.comped == sum(line.cents for line in lines if line.method == "comp")
    assert night.owed == sum(
        standing(prices.get(player, 0), [line for line in lines if line.player == player]).owed
        for player in set(prices) | {line.player for line in lines}
    )
    assert night.owed >= 0 and night.refunded >= 0 and night.taken >= 0


# --- a seat paid for once: substitutes play on the entry they took over ---------------------------------------------


def test_a_substitute_plays_on_the_entry_of_the_player_they_replaced():
    """Three entries at the pre-registered price; the second player paid and left, and a substitute (priced at
    the door, as if new) took the seat, then a second substitute took theirs. The box expects three entries."""
    pre, door = 2000, 2500
    prices = {1: pre, 2: pre, 3: pre, 20: door, 30: door}
    subs = {20: 2, 30: 20}
    lines = [Line(2, pre, "cash"), Line(1, pre, "card")]
    night = cash(prices, lines, subs)
    assert (night.players, night.substitutes) == (3, 2)
    assert night.owed == pre  # the third player's entry only: nobody asks the substitutes again
    assert (entry_of(30, subs), entry_of(20, subs), entry_of(2, subs), entry_of(3, subs)) == (2, 2, 2, 3)
    seats = entries(prices, lines, subs)
    assert set(seats) == {1, 2, 3}
    assert seats[2] == standing(pre, [lines[0]])
    # An entry the leaver had not paid is owed once, whoever of them pays it.
    unpaid = cash(prices, [Line(30, pre, "cash"), Line(1, pre, "card")], subs)
    assert unpaid.owed == night.owed and unpaid.net == night.net


def test_a_circle_of_substitutes_ends_somewhere():
    assert entry_of(5, {5: 6, 6: 7, 7: 6}) == 6
    assert entry_of(4, {4: 4}) == 4


_prices = st.dictionaries(st.integers(1, 30), st.integers(0, 5000), min_size=1)
_lines = st.lists(
    st.tuples(st.integers(1, 30), st.integers(-3000, 5000), st.sampled_from(["cash", "card", "e-transfer", "comp"]))
)


@given(_prices, _lines, st.data())
def test_a_substitute_never_changes_the_box_but_its_count(prices, raw, data):
    """Give any players a substitute (new to the night, with a price of their own): the cash is what it was,
    and moving any payment onto the substitute of its payer changes nothing either."""
    lines = [Line(player, cents, method) for player, cents, method in raw]
    before = cash(prices, lines)
    leavers = data.draw(st.lists(st.sampled_from(sorted(prices)), unique=True))
    subs = {100 + leaver: leaver for leaver in leavers}
    priced = {**prices, **{sub: data.draw(st.integers(0, 5000)) for sub in subs}}
    after = cash(priced, lines, subs)
    assert after == Cash(
        before.by_method,
        before.taken,
        before.refunded,
        before.comped,
        before.owed,
        before.players,
        len(subs),
        before.over,
    )
    assert after.players + after.substitutes == len(priced)
    moved = [Line(line.player + 100, line.cents, line.method) if line.player in leavers else line for line in lines]
    assert cash(priced, moved, subs) == after
    assert entries(priced, moved, subs) == entries(priced, lines, subs) == entries(prices, lines)


def test_amounts_as_the_door_list_shows_them():
    assert shown(2050) == "$20.50"
    assert shown(-500, "GBP") == "−£5.00"
    assert shown(123456, "CHF") == "1,234.56 CHF"
    assert shown(123450, "EUR") == "€1.234,50"  # as a euro night's forms take it ("1234,50") and its limit says
    assert shown(-1250, "SEK") == "−12,50 SEK"


@given(st.integers(0, 1_000_000), st.sampled_from(sorted(CURRENCIES)))
def test_an_amount_as_the_page_shows_it_reads_back_as_the_same_amount(cents, currency):
    """What the treasurer reads on the page, typed back into a form of the same night, is the same money."""
    assert parse_cents(shown(cents, currency), currency) == cents


# --- the prizes' money ----------------------------------------------------------------------------------------------

from tournament.engine.money import Payout, parse_payouts, pot, prize_money  # noqa: E402


def test_payouts_as_the_organizer_writes_them():
    assert parse_payouts("high 50%, second 30%, third 20%") == {
        "high": Payout(percent=50),
        "second": Payout(percent=30),
        "third": Payout(percent=20),
    }
    assert parse_payouts("high:lady $25, low 10") == {"high:lady": Payout(cents=2500), "low": Payout(cents=1000)}
    assert parse_payouts("  ") == {}


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("high", "Write each prize and its money"),
        ("high 60%, second 50%", "add up to more than 100%"),
        ("high 0%", "A share of the pot is 1% to 100%"),
        ("high 50%, high 10%", "“high” is paid twice."),
        ("high lots", "Type an amount like 20 or 20.50."),
    ],
)
def test_payouts_that_cannot_be_paid_are_refused_with_the_reason(text, refusal):
    with pytest.raises(MoneyError, match=refusal):
        parse_payouts(text)


def test_the_pot_and_the_house():
    assert pot(12_345, 0) == (12_345, 0)
    assert pot(12_345, 10) == (11_110, 1_235)  # the house's 10% rounded up: the pot is never more than the box
    assert pot(0, 25) == (0, 0)


def test_a_tied_prize_is_split_to_the_cent_and_the_left_over_is_said():
    """75/15/10 of a $1,000.01 pot: first $750.00 (7500 cents… of 100001), a three-way tie for third."""
    first = prize_money(Payout(percent=75), 100_001, 1)
    assert (first.total, first.each, first.left_over) == (75_000, 75_000, 0)
    third = prize_money(Payout(percent=10), 100_001, 3)
    assert (third.total, third.each, third.left_over) == (10_000, 3_333, 1)
    fixed = prize_money(Payout(cents=2_500), 0, 2)
    assert (fixed.each, fixed.left_over) == (1_250, 0)


@given(st.integers(0, 10_000_000), st.integers(1, 100), st.integers(1, 12))
def test_a_split_never_pays_more_than_the_prize(pot_cents, percent, winners):
    share = prize_money(Payout(percent=percent), pot_cents, winners)
    assert share.each * winners + share.left_over == share.total <= pot_cents
    assert 0 <= share.left_over < winners


# --- the prizes named once, each with its money or none -------------------------------------------------------------

from tournament.engine.money import Prize, currency_code, parse_prizes, payout_words, prizes_text  # noqa: E402


def test_prizes_as_the_organizer_names_them_with_their_money_or_none():
    assert parse_prizes("high 40%, low 30%, loners 30%") == [
        Prize("high", Payout(percent=40)),
        Prize("low", Payout(percent=30)),
        Prize("loners", Payout(percent=30)),
    ]
    assert parse_prizes("high, low,loners") == [Prize("high"), Prize("low"), Prize("loners")]
    assert parse_prizes(" High $20 ,  high:Lady 15.50, low") == [
        Prize("high", Payout(cents=2000)),
        Prize("high:Lady", Payout(cents=1550)),  # the category as typed (the prize table folds it)
        Prize("low"),
    ]
    assert parse_prizes("second £5, third £2.5, low 10", "GBP") == [
        Prize("second", Payout(cents=500)),
        Prize("third", Payout(cents=250)),
        Prize("low", Payout(cents=1000)),
    ]
    assert parse_prizes(" ,  ") == []


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("high 60%, low 50%", "add up to more than 100%"),
        ("high 0%", "A share of the pot is 1% to 100%, not “0%”."),
        ("high 50%, low, high $5", "“high” is named twice: name each prize once, with its money."),
        ("high, HIGH", "“high” is named twice"),
        ("high $lots", "Type an amount like 20 or 20.50."),
        ("high 20.505", "Type at most two figures after the point (cents). For 20,505.00, type 20505."),
        ("40%", "Name the prize its money is for, like “high 40%”, not “40%” alone."),
    ],
)
def test_prizes_that_cannot_be_read_are_refused_with_the_reason(text, refusal):
    with pytest.raises(MoneyError, match=re.escape(refusal)):
        parse_prizes(text)


def test_prizes_are_written_back_the_one_way():
    prizes = [Prize("high", Payout(percent=40)), Prize("second", Payout(cents=2550)), Prize("low")]
    assert prizes_text(prizes) == "high 40%, second $25.50, low"
    assert prizes_text(prizes, "GBP") == "high 40%, second £25.50, low"
    assert prizes_text(prizes, "SEK") == "high 40%, second 25.50, low"  # a currency without a symbol: the number
    assert payout_words(Payout(cents=1_000_000)) == "$10000"  # no thousands comma: the comma parts the prizes
    assert payout_words(Payout(cents=0)) == "$0"


KEYS = st.sampled_from(["champion", "high", "second", "third", "low", "low_all", "loners", "high_game", "high:lady"])
PAYOUTS = st.one_of(
    st.none(), st.builds(Payout, percent=st.integers(1, 11)), st.builds(Payout, cents=st.integers(0, 1_000_000))
)  # nine prizes at 11% at most: shares within 100%


@given(
    st.lists(st.tuples(KEYS, PAYOUTS), max_size=9, unique_by=lambda pair: pair[0]),
    st.sampled_from(["USD", "GBP", "EUR", "SEK"]),
)
def test_prizes_written_read_back_the_same(pairs, currency):
    prizes = [Prize(key, payout) for key, payout in pairs]
    assert parse_prizes(prizes_text(prizes, currency), currency) == prizes


@pytest.mark.parametrize(("typed", "code"), [("usd", "USD"), (" CAD ", "CAD"), ("eur", "EUR")])
def test_a_currency_is_three_letters(typed, code):
    assert currency_code(typed) == code


@pytest.mark.parametrize("typed", ["", "US", "dollars", "U5D", "ÜSD"])
def test_a_currency_that_is_not_three_letters_is_refused(typed):
    with pytest.raises(MoneyError, match="A currency is three letters"):
        currency_code(typed)


@given(st.text(alphabet=st.sampled_from("high lowers:$£€%.,0123456789²٣ \u200b"), max_size=40) | st.text(max_size=30))
def test_any_prizes_typed_are_read_or_refused_in_words(text):
    try:
        prizes = parse_prizes(text)
    except MoneyError as error:
        assert str(error)
    else:
        assert parse_prizes(prizes_text(prizes)) == prizes


# --- what the prizes ask of the pot, and the category prizes tonight's players can win ----------------------------

from tournament.engine.money import (  # noqa: E402
    PotCover,
    categories_missing,
    categories_words,
    pot_cover,
    reconcile,
)


@pytest.mark.parametrize(
    ("payouts", "pot_cents", "claimed", "short"),
    [
        ([Payout(cents=5000)], 2000, 5000, 3000),  # a $50 prize on a $20 pot: the house pays $30
        ([Payout(cents=2000)], 2000, 2000, 0),  # exactly covered
        ([Payout(percent=100), Payout(cents=500)], 2000, 2500, 500),  # every share and an amount on top
        ([Payout(percent=60), Payout(percent=40)], 2001, 2000, 0),  # shares never pass the pot (rounded down)
        ([Payout(cents=1500)], 0, 1500, 1500),  # nothing in: the whole amount
        ([], 2000, 0, 0),
    ],
)
def test_what_the_prizes_ask_of_the_pot(payouts, pot_cents, claimed, short):
    cover = pot_cover(payouts, pot_cents)
    assert (cover.claimed, cover.short) == (claimed, short)


def test_the_shortfall_in_the_treasurers_words():
    assert pot_cover([Payout(cents=5000)], 2000).words() == (
        "The pot holds $20.00; the prizes come to $50.00: $30.00 more than the pot, which the house pays (the house "
        "keeps −$30.00 of it)."
    )
    assert pot_cover([Payout(cents=5000)], 2000).words("GBP").startswith("The pot holds £20.00")
    assert pot_cover([Payout(cents=2000)], 2000).words() == ""


@given(
    st.integers(0, 1_000_000),
    st.integers(0, 100),
    st.lists(
        st.builds(Payout, percent=st.integers(1, 11)) | st.builds(Payout, cents=st.integers(0, 100_000)), max_size=9
    ),
)
def test_the_shortfall_is_what_the_house_pays_out_of_the_pot(net, house_percent, payouts):
    """Every prize won by one player: the reconciliation's pot not paid out is below 0 by exactly the shortfall,
    shares alone never make one, and it is never more than the fixed amounts."""
    pot_cents, _ = pot(net, house_percent)
    cover = pot_cover(payouts, pot_cents)
    close = reconcile(Cash(taken=net), house_percent, [prize_money(payout, pot_cents, 1) for payout in payouts])
    assert cover == PotCover(close.pot, close.prizes_paid)
    assert cover.short == max(0, -close.kept_of_pot)
    assert cover.short <= sum(payout.cents or 0 for payout in payouts)
    if all(payout.percent is not None for payout in payouts):
        assert cover.short == 0 and cover.words() == ""
    assert bool(cover.words()) == bool(cover.short)


def test_a_category_prize_is_one_a_player_tonight_is_in_whatever_the_case():
    keys = ["high", "high:Lady", "high:nobody", "low", "high:man "]
    assert categories_missing(keys, ["lady", "MAN", "", "lady"]) == ["high:nobody"]
    assert categories_missing(keys, []) == ["high:Lady", "high:nobody", "high:man "]
    assert categories_missing(["high", "low"], []) == []


def test_a_category_prize_nobody_can_win_in_words():
    assert categories_words(["high:nobody"], ["lady", "man", "Lady", ""]) == (
        "No player tonight has the category “nobody” (tonight's: lady, man): “high:nobody” would go to nobody."
    )
    assert categories_words(["high:a", "high:b"], ["c"]) == (
        "No player tonight has the category “a” or “b” (tonight's: c): “high:a” and “high:b” would go to nobody."
    )
    assert categories_words(["high:lady"], ["", " "]) == (
        "No player tonight has a category yet: “high:lady” would go to nobody as it stands."
    )
    assert categories_words([], ["lady"]) == ""


@given(
    st.lists(st.sampled_from(["high", "low", "high:lady", "high:Man", "high:x", "high:ß"]), unique=True),
    st.lists(st.sampled_from(["lady", "LADY", "man", "ss", "", "x "])),
)
def test_a_category_prize_is_missing_exactly_when_no_player_folds_to_it(keys, categories):
    missing = categories_missing(keys, categories)
    folded = {category.strip().casefold() for category in categories}
    for key in keys:
        assert (key in missing) == (key.startswith("high:") and key[5:].casefold() not in folded)
    assert bool(categories_words(missing, categories)) == bool(missing)


def test_a_prize_s_amount_with_its_currency_after_it_is_read_as_the_amount():
    # A treasurer's trial: "high 12,50 USD" on a euro night was told to name the prize ("like “high high 12,50 USD”").
    assert parse_prizes("high 12,50 EUR, low 5 EUR", "EUR") == [
        Prize("high", Payout(cents=1_250)),
        Prize("low", Payout(cents=500)),
    ]
    with pytest.raises(MoneyError, match="This night is in EUR: type the amount in euros"):
        parse_prizes("high 12,50 USD", "EUR")


@given(
    st.lists(
        st.tuples(st.sampled_from(["cash", "card", "e-transfer", "comp"]), st.integers(1, 10_000), st.booleans()),
        max_size=12,
    )
)
def test_what_a_player_leaves_with_the_house_is_each_methods_net_and_nothing_once_all_is_given_back(moves):
    """Money in, and back (a refund of what came in by that method): `held` is each method's net, leaving out a
    method given back in full; a player whose every line was given back holds nothing."""
    lines = []
    for method, cents, back in moves:
        lines.append(Line(1, cents, method))
        if back:
            lines.append(Line(1, -cents, method))
    kept = held(lines)
    assert sum(kept.values()) == sum(line.cents for line in lines)
    assert all(kept.values())
    for method in {line.method for line in lines}:
        assert kept.get(method, 0) == sum(line.cents for line in lines if line.method == method)
    assert held([*lines, *(Line(1, -cents, method) for method, cents in kept.items())]) == {}


@given(st.integers(0, 100_000), st.booleans(), st.booleans())
def test_a_no_show_is_asked_nothing_from_the_draw_on_and_anyone_else_the_price(price, came, drawn):
    assert asked(price, came=came, drawn=drawn) == (0 if drawn and not came else price)


@given(_prices, _lines)
def test_what_is_over_less_what_is_owed_is_what_came_in_beyond_the_prices(prices, raw):
    """The box's money and its comps, against the prices asked: what is over less what is still owed is what came
    in beyond the prices (or short of them), whoever paid it."""
    lines = [Line(player, cents, method) for player, cents, method in raw]
    night = cash(prices, lines)
    assert night.over - night.owed == night.net + night.comped - sum(prices.values())
