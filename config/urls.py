from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

urlpatterns = [
    path("", account_views.home, name="home"),
    path("", include("accounts.urls")),
    path("", include("classroom.urls")),
    path("", include("games.urls")),
    path("", include("reports.urls")),
    path("", include("arena.urls")),
    path("", include("privacy.urls")),
    path("admin/", admin.site.urls),
]

handler403 = "accounts.views.forbidden"
handler404 = "accounts.views.not_found"
