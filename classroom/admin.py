from django.contrib import admin

from .models import Classroom


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "grade", "join_code", "owner", "archived_at")
    search_fields = ("name", "join_code")
    filter_horizontal = ("teachers",)
