"""Names however typed (#17, item 3): found without their accents, case or spacing; listed as readers expect."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.names import clean, fold, matches, sort_key


def test_searches_find_names_however_they_are_typed():
    assert matches("chloe", "Chloé Dubois") and matches("CHLOÉ", "Chloé Dubois")
    assert matches("lukasz zolc", "Łukasz Żółć") and matches("Lukasz", "Łukasz Żółć") and matches("zolc", "Łukasz Żółć")
    assert matches("obrien", "Seán O'Brien") and matches("o brien", "Seán O’Brien") and matches("sean", "Seán O'Brien")
    assert not matches("chloe", "Ann Kowalski") and not matches("", "Ann Kowalski") and not matches("  ", "Ann")


def test_lists_sort_as_readers_expect():
    names = ["Maximilian Ott", "Łukasz Żółć", "Lukas Brown", "ann kowalski", "Émile Zola", "Edna Walsh", "Zoe Li"]
    assert sorted(names, key=sort_key) == [
        "ann kowalski",
        "Edna Walsh",
        "Émile Zola",
        "Lukas Brown",
        "Łukasz Żółć",  # with the L names, before Maximilian
        "Maximilian Ott",
        "Zoe Li",
    ]


def test_invisible_and_direction_characters_are_taken_out():
    assert clean("Ann\u200bKowalski") == "AnnKowalski"  # a zero-width space
    assert clean("\ufeffAnn \u202eKowalski\u202c") == "Ann Kowalski"  # a byte-order mark, a right-to-left override
    assert clean("  Ann\u00a0\u00a0Kowalski\t") == "Ann Kowalski"  # no-break spaces and tabs are spaces
    assert clean("Chloe\u0301") == "Chloé"  # an accent typed as a combining mark is composed


@given(st.text(max_size=40))
def test_cleaning_is_stable_and_folding_keeps_only_plain_letters(text):
    assert clean(clean(text)) == clean(text)
    assert fold(text) == fold(fold(text)) and all(char in "abcdefghijklmnopqrstuvwxyz0123456789" for char in fold(text))
