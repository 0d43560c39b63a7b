from django.urls import path

from . import converters  # noqa: F401 - registers <number:…>
from .views import chart, nights, players, public, rounds, sheets

app_name = "tournament"

urlpatterns = [
    # First: every phone in the hall polls these, and the resolver tries the patterns in order.
    path("public/nights/<number:night_id>/", public.public_night, name="public_night"),
    path("public/nights/<number:night_id>/display/", public.room_display, name="room_display"),
    path("public/nights/<number:night_id>/display/count/", public.room_count, name="room_count"),
    path("public/nights/<number:night_id>/me/", public.player_find, name="player_find"),
    path("public/nights/<number:night_id>/me/qr.svg", public.find_qr, name="find_qr"),
    path("public/nights/<number:night_id>/me/<number:player_id>/", public.player_page, name="player_page"),
    path("", nights.night_list, name="night_list"),
    path("nights/new/", nights.night_create, name="night_create"),
    path("nights/restore/", nights.night_restore, name="night_restore"),
    path("nights/<number:night_id>/standings.csv", sheets.standings_csv, name="standings_csv"),
    path("nights/<number:night_id>/hands.csv", sheets.hands_csv, name="hands_csv"),
    path("nights/<number:night_id>/backup.json", sheets.night_backup, name="night_backup"),
    path("nights/<number:night_id>/", nights.night_detail, name="night_detail"),
    path("nights/<number:night_id>/players/add/", players.player_add, name="player_add"),
    path("nights/<number:night_id>/players/paste/", players.player_paste, name="player_paste"),
    path("nights/<number:night_id>/players/roster/", players.player_roster, name="player_roster"),
    path("nights/<number:night_id>/players/import/", players.player_import, name="player_import"),
    path("nights/<number:night_id>/entries/<number:entry_id>/check-in/", players.entry_check_in, name="entry_check_in"),
    path("nights/<number:night_id>/entries/<number:entry_id>/remove/", players.entry_remove, name="entry_remove"),
    path("nights/<number:night_id>/entries/<number:entry_id>/active/", players.entry_active, name="entry_active"),
    path("nights/<number:night_id>/games/<number:number>/swap/", players.seating_swap, name="seating_swap"),
    path("nights/<number:night_id>/chart/", chart.chart_page, name="chart"),
    path("nights/<number:night_id>/chart/build/", chart.chart_build, name="chart_build"),
    path("nights/<number:night_id>/chart/number/", chart.chart_number, name="chart_number"),
    path("nights/<number:night_id>/chart.pdf", chart.wall_chart_pdf, name="wall_chart_pdf"),
    path("nights/<number:night_id>/fairness/", nights.night_fairness, name="night_fairness"),
    path("nights/<number:night_id>/fairness.json", nights.night_fairness, name="night_fairness_json"),
    path("nights/<number:night_id>/draw/", rounds.night_draw, name="night_draw"),
    path("nights/<number:night_id>/keepers/add/", nights.keeper_add, name="keeper_add"),
    path("nights/<number:night_id>/keepers/<number:user_id>/remove/", nights.keeper_remove, name="keeper_remove"),
    path("nights/<number:night_id>/games/<number:number>/start/", rounds.round_start, name="round_start"),
    path("nights/<number:night_id>/live/", rounds.round_live, name="round_live"),
    path("nights/<number:night_id>/games/<number:number>/close/", rounds.round_close, name="round_close"),
    path("nights/<number:night_id>/standings.pdf", sheets.standings_pdf, name="standings_pdf"),
    path("nights/<number:night_id>/tally-cards.pdf", sheets.tally_cards_pdf, name="tally_cards_pdf"),
    path("nights/<number:night_id>/table-cards.pdf", sheets.table_cards_pdf, name="table_cards_pdf"),
    path("nights/<number:night_id>/print/<number:job_id>/", sheets.print_job, name="print_job"),
    path("nights/<number:night_id>/seating.pdf", sheets.seating_pdf, name="seating_pdf"),
    path("nights/<number:night_id>/score-sheets.pdf", sheets.score_sheets_pdf, name="score_sheets_pdf"),
    path("nights/<number:night_id>/games/<number:number>/bell/", rounds.round_bell, name="round_bell"),
    path("nights/<number:night_id>/games/<number:number>/pause/", rounds.round_pause, name="round_pause"),
    path("nights/<number:night_id>/games/<number:number>/resume/", rounds.round_resume, name="round_resume"),
    path("nights/<number:night_id>/games/<number:number>/extend/", rounds.round_extend, name="round_extend"),
]
