from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import views

app_name = "accounts"

urlpatterns = [
    path("teacher/sign-up/", views.teacher_sign_up, name="teacher_signup"),
    path("teacher/sign-in/", views.teacher_sign_in, name="teacher_login"),
    path("teacher/profile/", views.teacher_profile, name="teacher_profile"),
    path("sign-out/", views.sign_out, name="logout"),
    path("teacher/password-reset/", auth_views.PasswordResetView.as_view(
        template_name="accounts/password_reset.html",
        email_template_name="accounts/password_reset_email.txt",
        subject_template_name="accounts/password_reset_subject.txt",
        success_url=reverse_lazy("accounts:password_reset_done")), name="password_reset"),
    path("teacher/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(
        template_name="accounts/password_reset_done.html"), name="password_reset_done"),
    path("teacher/password-reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(
        template_name="accounts/password_reset_confirm.html",
        success_url=reverse_lazy("accounts:password_reset_complete")), name="password_reset_confirm"),
    path("teacher/password-reset/complete/", auth_views.PasswordResetCompleteView.as_view(
        template_name="accounts/password_reset_complete.html"), name="password_reset_complete"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_class, name="join_class"),
    path("join/<str:code>/<int:student_id>/", views.join_pictures, name="join_pictures"),
    path("join/<str:code>/<int:student_id>/text/", views.join_text, name="join_text"),
]
