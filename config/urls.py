from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts import views as account_views
from config import language

urlpatterns = [
    path("", account_views.home, name="home"),
    path("", include("accounts.urls")),
    path("", include("classroom.urls")),
    path("", include("games.urls")),
    path("", include("reports.urls")),
    path("", include("arena.urls")),
    path("", include("privacy.urls")),
    path("", include("rostering.urls")),
    path("", include("lti.urls")),
    # static/js strings in the reader's language: gettext(), ngettext(), interpolate() (docs/i18n.md)
    # The language switcher posts here (templates/_language_switcher.html)
    path("language/", language.choose_language, name="choose_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]

handler403 = "accounts.views.forbidden"
handler404 = "accounts.views.not_found"
handler500 = "config.unavailable.server_error"  # the try-again page when the database was away
