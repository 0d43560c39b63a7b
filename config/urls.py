from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # Logging in and out, and changing one's password once in. No reset by e-mail: a venue has no mail, and a reset
    # link built from a request's Host could be pointed elsewhere; the organizer sets a new password at the laptop
    # (manage.py changepassword).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("", include("tournament.urls_scoring")),
    path("", include("tournament.urls")),
]

handler400 = "tournament.views.errors.bad_request"
handler404 = "tournament.views.errors.not_found"
handler403 = "tournament.views.errors.forbidden"
