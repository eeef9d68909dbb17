from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm

from .forms import LimitedAdminAuthenticationForm
from .models import Membership, User
from .services import user_end_sessions

admin.site.login_form = LimitedAdminAuthenticationForm


class SessionsEndingPasswordChangeForm(AdminPasswordChangeForm):
    """A password an administrator sets ends the user's sessions and closes their sockets, as
    every other new password does (accounts/services.py `user_end_sessions`). The admin's own
    page keeps its session: Django re-hashes it after the save, with the new epoch."""

    def save(self, commit=True):
        user = super().save(commit=commit)
        if commit:
            user_end_sessions(user=user)
        return user


class MembershipInline(admin.TabularInline):
    """A student's classes (archived: they left that class)."""

    model = Membership
    fk_name = "student"
    extra = 0
    fields = ("classroom", "joined_at", "archived_at")


@admin.register(User)
class NumberdeckUserAdmin(UserAdmin):
    inlines = [MembershipInline]
    change_password_form = SessionsEndingPasswordChangeForm
    list_display = ("username", "display_name", "role", "email", "is_active")
    list_filter = ("role", "is_active", "is_staff")
    search_fields = ("username", "display_name", "email")
    fieldsets = UserAdmin.fieldsets + (
        ("Numberdeck", {"fields": ("role", "display_name", "picture_password")}),
    )
    add_fieldsets = UserAdmin.add_fieldsets + (
        ("Numberdeck", {"fields": ("role", "display_name", "picture_password")}),
    )
