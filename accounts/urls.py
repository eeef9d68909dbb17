from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import views
from .forms import TeacherPasswordResetForm

app_name = "accounts"

urlpatterns = [
    path("teacher/sign-up/", views.teacher_sign_up, name="teacher_signup"),
    path("teacher/sign-in/", views.teacher_sign_in, name="teacher_login"),
    path("teacher/profile/", views.teacher_profile, name="teacher_profile"),
    path("sign-out/", views.sign_out, name="logout"),
    path("teacher/sign-out-everywhere/", views.sign_out_everywhere, name="sign_out_everywhere"),
    path("teacher/password-reset/", auth_views.PasswordResetView.as_view(
        template_name="accounts/password_reset.html", form_class=TeacherPasswordResetForm,
        email_template_name="accounts/password_reset_email.txt",
        subject_template_name="accounts/password_reset_subject.txt",
        success_url=reverse_lazy("accounts:password_reset_done")), name="password_reset"),
    path("teacher/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(
        template_name="accounts/password_reset_done.html"), name="password_reset_done"),
    path("teacher/password-reset/<uidb64>/<token>/", views.TeacherPasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("teacher/password-reset/complete/", auth_views.PasswordResetCompleteView.as_view(
        template_name="accounts/password_reset_complete.html"), name="password_reset_complete"),
]
