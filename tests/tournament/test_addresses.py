"""Made-up numbers in an address are a page not found in words, never a server error."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

BIG = "9" * 25


@pytest.mark.parametrize(
    "path",
    [
        f"/public/nights/{BIG}/",
        "/public/nights/{night}/me/" + BIG + "/",
        f"/nights/{BIG}/",
        "/nights/{night}/games/" + BIG + "/tables/1/hands/",
        f"/public/seasons/{BIG}/",
        f"/public/seasons/1/players/{BIG}/",
        "/t/" + "x" * 300 + "/",
    ],
)
def test_a_made_up_number_is_not_found(organizer_client, night, path):
    response = organizer_client.get(path.format(night=night.pk))
    assert response.status_code == 404
    assert "Nothing here" in response.content.decode()
