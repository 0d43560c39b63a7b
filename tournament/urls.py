from django.urls import include, path

from . import converters  # noqa: F401 - registers <number:…>
from .views import (
    chart,
    club_site,
    money,
    nights,
    player_results,
    players,
    public,
    publish,
    rounds,
    sheets,
    signups,
    wishes,
)

app_name = "tournament"

# Grouped by what each address starts with: the resolver tries a group's start once, and goes inside only where it
# matches (a player's poll passes the organizer's sixty addresses of a night by one test, not by each of them).
public_night = [  # public/nights/<night>/…: every phone in the hall polls these
    path("", public.public_night, name="public_night"),
    path("me/<number:player_id>/", public.player_page, name="player_page"),
    path("display/", public.room_display, name="room_display"),
    path("display/count/", public.room_count, name="room_count"),
    path("me/", public.player_find, name="player_find"),
    path("me/qr.svg", public.find_qr, name="find_qr"),
    path("me/<number:player_id>/results/", player_results.results_by_code, name="results_by_code"),
    path("signup/", signups.signup, name="signup"),
    path("door/", signups.door, name="door"),
    path("door/qr.svg", signups.door_qr, name="door_qr"),
]

public_signup = [  # public/signups/<key>/…
    path("", signups.signup_page, name="signup_page"),
    path("withdraw/", signups.signup_withdraw, name="signup_withdraw"),
]

# A player's results, by their results link alone (a token nobody can guess); no list of them anywhere.
results = [  # results/<token>/…
    path("", player_results.results_page, name="results"),
    path("nights/<number:night_id>/", player_results.results_page, name="results_night"),
    path("nights/<number:night_id>/results.pdf", player_results.results_pdf, name="results_pdf"),
]

an_entry = [  # nights/<night>/entries/<entry>/…
    path("check-in/", players.entry_check_in, name="entry_check_in"),
    path("remove/", players.entry_remove, name="entry_remove"),
    path("active/", players.entry_active, name="entry_active"),
    path("unlisted/", player_results.entry_unlisted, name="entry_unlisted"),
]

a_game = [  # nights/<night>/games/<game>/…
    path("start/", rounds.round_start, name="round_start"),
    path("close/", rounds.round_close, name="round_close"),
    path("bell/", rounds.round_bell, name="round_bell"),
    path("pause/", rounds.round_pause, name="round_pause"),
    path("resume/", rounds.round_resume, name="round_resume"),
    path("extend/", rounds.round_extend, name="round_extend"),
    path("swap/", players.seating_swap, name="seating_swap"),
]

money_of_night = [  # nights/<night>/money/…
    path("", money.money_page, name="money"),
    path("prices/", money.money_settings, name="money_settings"),
    path("<number:entry_id>/take/", money.money_take, name="money_take"),
    path("<number:entry_id>/kind/", money.money_kind, name="money_kind"),
    path("<number:entry_id>/refund/", money.money_refund, name="money_refund"),
]

a_night = [  # nights/<night>/…
    path("", nights.night_detail, name="night_detail"),
    path("live/", rounds.round_live, name="round_live"),
    path("players/live/", players.players_live, name="players_live"),
    path("games/<number:number>/", include(a_game)),
    path("entries/<number:entry_id>/", include(an_entry)),
    path("money/", include(money_of_night)),
    path("settings/", nights.night_settings, name="night_settings"),
    path("delete/", nights.night_delete, name="night_delete"),
    path("signups/settings/", signups.signup_settings, name="signup_settings"),
    path("signups/<number:signup_id>/<str:action>/", signups.signup_action, name="signup_action"),
    path("pots/", money.pot_add, name="pot_add"),
    path("pots/take/", money.pot_take, name="pot_take"),
    path("draws/", money.draw_make, name="draw_make"),
    path("draws/hide/", money.draw_hide, name="draw_hide"),
    path("results/mail/", player_results.results_mail, name="results_mail"),
    path("publish/", publish.night_publish, name="night_publish"),
    path("publish/live/", publish.night_publish_live, name="night_publish_live"),
    path("publish/state/", publish.night_publish_state, name="night_publish_state"),
    path("public-results/", club_site.night_results_public, name="night_results_public"),
    path("players/add/", players.player_add, name="player_add"),
    path("players/paste/", players.player_paste, name="player_paste"),
    path("players/roster/", players.player_roster, name="player_roster"),
    path("players/import/", players.player_import, name="player_import"),
    path("substitute/", players.entry_substitute, name="entry_substitute"),
    path("chart/", chart.chart_page, name="chart"),
    path("chart/build/", chart.chart_build, name="chart_build"),
    path("chart/number/", chart.chart_number, name="chart_number"),
    path("fairness/", nights.night_fairness, name="night_fairness"),
    path("fairness.json", nights.night_fairness, name="night_fairness_json"),
    path("wishes/", wishes.wishes_page, name="wishes"),
    path("draw/", rounds.night_draw, name="night_draw"),
    path("keepers/add/", nights.keeper_add, name="keeper_add"),
    path("keepers/<number:user_id>/remove/", nights.keeper_remove, name="keeper_remove"),
    path("last-game/", rounds.night_last_game, name="night_last_game"),
    path("hold/", rounds.night_hold, name="night_hold"),
    path("seat-next/", rounds.night_seat_next, name="night_seat_next"),
    path("end/", rounds.night_end, name="night_end"),
    path("print/<number:job_id>/", sheets.print_job, name="print_job"),
    path("backup.json", sheets.night_backup, name="night_backup"),
    # The night's files, one view through the sheets' registry.
    path("money.csv", sheets.download, {"key": "money-csv"}, name="money_csv"),
    path("standings.csv", sheets.download, {"key": "standings-csv"}, name="standings_csv"),
    path("hands.csv", sheets.download, {"key": "hands-csv"}, name="hands_csv"),
    path("prize-sheet.pdf", sheets.download, {"key": "prizes"}, name="prize_sheet_pdf"),
    path("reconciliation.pdf", sheets.download, {"key": "reconciliation"}, name="reconciliation_pdf"),
    path("chart.pdf", sheets.download, {"key": "chart"}, name="wall_chart_pdf"),
    path("standings.pdf", sheets.download, {"key": "standings"}, name="standings_pdf"),
    path("tally-cards.pdf", sheets.download, {"key": "tally-cards"}, name="tally_cards_pdf"),
    path("table-cards.pdf", sheets.download, {"key": "table-cards"}, name="table_cards_pdf"),
    path("seating.pdf", sheets.download, {"key": "seating"}, name="seating_pdf"),
    path("score-sheets.pdf", sheets.download, {"key": "score-sheets"}, name="score_sheets_pdf"),
]

urlpatterns = [
    path("public/nights/<number:night_id>/", include(public_night)),
    path("nights/<number:night_id>/", include(a_night)),
    path("public/signups/<str:key>/", include(public_signup)),
    path("results/<str:token>/", include(results)),
    # A venue's laptop publishing a night to its club's site (the club's key, no session): JSON in and out.
    path("c/<slug:slug>/publish/", publish.club_publish, name="club_publish"),
    path("club/site/", publish.club_site, name="club_site"),
    # The club's public results at its short address.
    path("public/c/<slug:slug>/", club_site.club_results, name="club_results"),
    path("", nights.night_list, name="night_list"),
    path("nights/new/", nights.night_create, name="night_create"),
    path("nights/restore/", nights.night_restore, name="night_restore"),
]
