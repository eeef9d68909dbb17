from django.urls import path

from . import views

app_name = "lti"

urlpatterns = [
    path("lti/login/", views.oidc_login, name="login"),
    path("lti/launch/", views.launch, name="launch"),
    path("lti/jwks.json", views.jwks, name="jwks"),
    path("lti/platforms/", views.platforms, name="platforms"),
    path("lti/platforms/registration-link/", views.registration_link, name="registration_link"),
    path("lti/register/<str:token>/", views.register, name="register"),
    path("lti/deep-link/answer/", views.deep_link_answer, name="deep_link_answer"),
    path("lti/deep-link/<str:key>/", views.deep_link, name="deep_link"),
    path("lti/assignments/<int:pk>/", views.placement, name="placement"),
    path("lti/grades/<int:pk>/post-again/", views.grade_post_again, name="grade_post_again"),
    path("lti/classes/<int:classroom_id>/class-list/", views.roster, name="roster"),
    path("lti/classes/<int:classroom_id>/class-list/sync/", views.roster_sync, name="roster_sync"),
]
