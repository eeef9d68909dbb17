from django.contrib import admin

from .models import CourseClass


@admin.register(CourseClass)
class CourseClassAdmin(admin.ModelAdmin):
    list_display = ["context", "classroom", "created_at"]
    raw_id_fields = ["context", "classroom"]
