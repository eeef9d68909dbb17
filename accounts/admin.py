from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .forms import LimitedAdminAuthenticationForm
from .models import User

admin.site.login_form = LimitedAdminAuthenticationForm


@admin.register(User)
class NumberdeckUserAdmin(UserAdmin):
    list_display = ("username", "display_name", "role", "classroom", "email", "is_active")
    list_filter = ("role", "is_active", "is_staff")
    search_fields = ("username", "display_name", "email")
    fieldsets = UserAdmin.fieldsets + (
        ("Numberdeck", {"fields": ("role", "display_name", "classroom", "picture_password")}),
    )
    add_fieldsets = UserAdmin.add_fieldsets + (
        ("Numberdeck", {"fields": ("role", "display_name", "classroom", "picture_password")}),
    )
