from django.urls import path

from . import converters  # noqa: F401 - registers <number:…>
from .views import desk, hands, results, scoring_rules, season_pages, sheets, table

app_name = "scoring"

TABLE = "nights/<number:night_id>/games/<number:number>/tables/<number:table>/"

urlpatterns = [
    # First: every table's phones poll these, and the resolver tries the patterns in order.
    path("t/<str:token>/", table.table_link, name="table_link"),
    path("t/<str:token>/score/", table.link_submit, name="link_submit"),
    path("t/<str:token>/confirm/", table.link_confirm, name="link_confirm"),
    path("t/<str:token>/hands/", table.link_hands, name="link_hands"),
    path("t/<str:token>/hands/add/", table.link_hand_add, name="link_hand_add"),
    path("t/<str:token>/hands/undo/", table.link_hand_undo, name="link_hand_undo"),
    path("t/<str:token>/finish/", table.link_finish, name="link_finish"),
    path(f"{TABLE}score/", results.table_score, name="table_score"),
    path(f"{TABLE}hands/", hands.table_hands, name="table_hands"),
    path(f"{TABLE}hands/add/", hands.hand_add, name="hand_add"),
    path(f"{TABLE}hands/undo/", hands.hand_undo, name="hand_undo"),
    path(f"{TABLE}finish/", hands.table_finish, name="table_finish"),
    path("nights/<number:night_id>/rules/", scoring_rules.night_rules, name="night_rules"),
    path("nights/<number:night_id>/desk/", desk.keeper_desk, name="keeper_desk"),
    path(f"{TABLE}desk/", desk.desk_save, name="desk_save"),
    path("nights/<number:night_id>/games/<number:number>/desk-live/", desk.desk_live, name="desk_live"),
    path("nights/<number:night_id>/games/<number:number>/desk-close/", desk.desk_close, name="desk_close"),
    path(f"{TABLE}history/", desk.table_history, name="table_history"),
    path("nights/<number:night_id>/tables/", desk.table_links, name="table_links"),
    path("nights/<number:night_id>/tables/<number:table>/qr.svg", desk.table_qr, name="table_qr"),
    path("nights/<number:night_id>/phones-qr.svg", desk.phone_qr, name="phone_qr"),
    path("nights/<number:night_id>/tables/<number:table>/regenerate/", desk.link_regenerate, name="link_regenerate"),
    path("seasons/", season_pages.season_list, name="season_list"),
    path("seasons/new/", season_pages.season_create, name="season_create"),
    path("seasons/<number:season_id>/", season_pages.season_edit, name="season_edit"),
    path("seasons/<number:season_id>/nights/", season_pages.season_nights, name="season_nights"),
    path("public/seasons/<number:season_id>/", season_pages.season_public, name="season_public"),
    path(
        "public/seasons/<number:season_id>/players/<number:player_id>/",
        season_pages.season_player,
        name="season_player",
    ),
    path("public/seasons/<number:season_id>/standings.csv", sheets.download, {"key": "season-csv"}, name="season_csv"),
]
