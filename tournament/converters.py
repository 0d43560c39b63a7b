"""The numbers in the addresses: at most nine digits, so a made-up 30-digit id is a page not found, never an overflow
in the database."""

from __future__ import annotations

from django.urls import register_converter


class NumberConverter:
    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(NumberConverter, "number")
