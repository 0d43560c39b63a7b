from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournament.urls_scoring")),
    path("", include("tournament.urls")),
]

handler404 = "tournament.views.errors.not_found"
handler403 = "tournament.views.errors.forbidden"
