from django.urls import path

from .views import hands, results, rules

app_name = "scoring"

TABLE = "nights/<int:night_id>/games/<int:number>/tables/<int:table>/"

urlpatterns = [
    path(f"{TABLE}score/", results.table_score, name="table_score"),
    path(f"{TABLE}hands/", hands.table_hands, name="table_hands"),
    path(f"{TABLE}hands/add/", hands.hand_add, name="hand_add"),
    path(f"{TABLE}hands/undo/", hands.hand_undo, name="hand_undo"),
    path(f"{TABLE}finish/", hands.table_finish, name="table_finish"),
    path("nights/<int:night_id>/rules/", rules.night_rules, name="night_rules"),
]
