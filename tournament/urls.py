from django.urls import path

from .views import nights, players, public, rounds, sheets

app_name = "tournament"

urlpatterns = [
    path("", nights.night_list, name="night_list"),
    path("nights/new/", nights.night_create, name="night_create"),
    path("nights/restore/", nights.night_restore, name="night_restore"),
    path("nights/<int:night_id>/standings.csv", sheets.standings_csv, name="standings_csv"),
    path("nights/<int:night_id>/hands.csv", sheets.hands_csv, name="hands_csv"),
    path("nights/<int:night_id>/backup.json", sheets.night_backup, name="night_backup"),
    path("nights/<int:night_id>/", nights.night_detail, name="night_detail"),
    path("nights/<int:night_id>/players/add/", players.player_add, name="player_add"),
    path("nights/<int:night_id>/players/paste/", players.player_paste, name="player_paste"),
    path("nights/<int:night_id>/players/roster/", players.player_roster, name="player_roster"),
    path("nights/<int:night_id>/players/import/", players.player_import, name="player_import"),
    path("nights/<int:night_id>/entries/<int:entry_id>/check-in/", players.entry_check_in, name="entry_check_in"),
    path("nights/<int:night_id>/entries/<int:entry_id>/remove/", players.entry_remove, name="entry_remove"),
    path("nights/<int:night_id>/entries/<int:entry_id>/active/", players.entry_active, name="entry_active"),
    path("nights/<int:night_id>/games/<int:number>/swap/", players.seating_swap, name="seating_swap"),
    path("nights/<int:night_id>/fairness/", nights.night_fairness, name="night_fairness"),
    path("nights/<int:night_id>/fairness.json", nights.night_fairness, name="night_fairness_json"),
    path("nights/<int:night_id>/draw/", rounds.night_draw, name="night_draw"),
    path("nights/<int:night_id>/keepers/add/", nights.keeper_add, name="keeper_add"),
    path("nights/<int:night_id>/keepers/<int:user_id>/remove/", nights.keeper_remove, name="keeper_remove"),
    path("nights/<int:night_id>/games/<int:number>/start/", rounds.round_start, name="round_start"),
    path("nights/<int:night_id>/games/<int:number>/close/", rounds.round_close, name="round_close"),
    path("nights/<int:night_id>/standings.pdf", sheets.standings_pdf, name="standings_pdf"),
    path("nights/<int:night_id>/tally-cards.pdf", sheets.tally_cards_pdf, name="tally_cards_pdf"),
    path("nights/<int:night_id>/table-cards.pdf", sheets.table_cards_pdf, name="table_cards_pdf"),
    path("nights/<int:night_id>/seating.pdf", sheets.seating_pdf, name="seating_pdf"),
    path("nights/<int:night_id>/score-sheets.pdf", sheets.score_sheets_pdf, name="score_sheets_pdf"),
    path("public/nights/<int:night_id>/", public.public_night, name="public_night"),
    path("public/nights/<int:night_id>/display/", public.room_display, name="room_display"),
    path("public/nights/<int:night_id>/display/count/", public.room_count, name="room_count"),
    path("public/nights/<int:night_id>/me/", public.player_find, name="player_find"),
    path("public/nights/<int:night_id>/me/<int:player_id>/", public.player_page, name="player_page"),
    path("nights/<int:night_id>/games/<int:number>/bell/", rounds.round_bell, name="round_bell"),
    path("nights/<int:night_id>/games/<int:number>/pause/", rounds.round_pause, name="round_pause"),
    path("nights/<int:night_id>/games/<int:number>/resume/", rounds.round_resume, name="round_resume"),
    path("nights/<int:night_id>/games/<int:number>/extend/", rounds.round_extend, name="round_extend"),
]
