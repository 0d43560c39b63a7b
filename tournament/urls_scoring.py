from django.urls import include, path

from . import converters  # noqa: F401 - registers <number:…>
from .views import desk, hands, results, scoring_rules, season_pages, sheets, table

app_name = "scoring"

# Grouped by what each address starts with: the resolver tries a group's start once, and goes inside only where it
# matches (a table phone's poll passes the nights' addresses by one test, not by each of them).
table_link = [
    path("", table.table_link, name="table_link"),
    path("score/", table.link_submit, name="link_submit"),
    path("confirm/", table.link_confirm, name="link_confirm"),
    path("hands/", table.link_hands, name="link_hands"),
    path("hands/add/", table.link_hand_add, name="link_hand_add"),
    path("hands/undo/", table.link_hand_undo, name="link_hand_undo"),
    path("finish/", table.link_finish, name="link_finish"),
]

a_table = [  # nights/<night>/games/<game>/tables/<table>/…
    path("score/", results.table_score, name="table_score"),
    path("hands/", hands.table_hands, name="table_hands"),
    path("hands/add/", hands.hand_add, name="hand_add"),
    path("hands/undo/", hands.hand_undo, name="hand_undo"),
    path("finish/", hands.table_finish, name="table_finish"),
    path("desk/", desk.desk_save, name="desk_save"),
    path("history/", desk.table_history, name="table_history"),
]

a_night = [  # nights/<night>/…
    path("games/<number:number>/tables/<number:table>/", include(a_table)),
    path("games/<number:number>/desk-live/", desk.desk_live, name="desk_live"),
    path("games/<number:number>/desk-close/", desk.desk_close, name="desk_close"),
    path("rules/", scoring_rules.night_rules, name="night_rules"),
    path("desk/", desk.keeper_desk, name="keeper_desk"),
    path("tables/", desk.table_links, name="table_links"),
    path("tables/<number:table>/qr.svg", desk.table_qr, name="table_qr"),
    path("phones-qr.svg", desk.phone_qr, name="phone_qr"),
    path("tables/<number:table>/regenerate/", desk.link_regenerate, name="link_regenerate"),
]

seasons = [
    path("", season_pages.season_list, name="season_list"),
    path("new/", season_pages.season_create, name="season_create"),
    path("<number:season_id>/", season_pages.season_edit, name="season_edit"),
    path("<number:season_id>/nights/", season_pages.season_nights, name="season_nights"),
]

public_season = [  # public/seasons/<season>/…
    path("", season_pages.season_public, name="season_public"),
    path("players/<number:player_id>/", season_pages.season_player, name="season_player"),
    path("standings.csv", sheets.download, {"key": "season-csv"}, name="season_csv"),
]

urlpatterns = [
    # First: every table's phones poll these.
    path("t/<str:token>/", include(table_link)),
    path("nights/<number:night_id>/", include(a_night)),
    path("seasons/", include(seasons)),
    path("public/seasons/<number:season_id>/", include(public_season)),
]
