from django.contrib import admin

from .models import Assignment, Classroom, CoTeacherInvite


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "grade", "join_code", "owner", "archived_at")
    search_fields = ("name", "join_code")
    filter_horizontal = ("teachers",)


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("title", "classroom", "game", "preset", "goal", "goal_count", "due_on", "closed_at")
    list_filter = ("game", "goal")
    search_fields = ("title", "classroom__name")
    filter_horizontal = ("students",)


@admin.register(CoTeacherInvite)
class CoTeacherInviteAdmin(admin.ModelAdmin):
    list_display = ("email", "classroom", "invited_by", "created_at", "expires_at", "accepted_at",
                    "withdrawn_at")
    readonly_fields = ("token_hash",)
