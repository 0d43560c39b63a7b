from django.urls import path

from .views import results

app_name = "scoring"

urlpatterns = [
    path(
        "nights/<int:night_id>/games/<int:number>/tables/<int:table>/score/",
        results.table_score,
        name="table_score",
    ),
]
