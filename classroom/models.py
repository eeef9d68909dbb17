from django.conf import settings
from django.db import models

from .codes import new_join_code


class Classroom(models.Model):
    """A class. Students join with its code; its teachers (owner and co-teachers) manage it."""

    name = models.CharField(max_length=80)
    grade = models.CharField(max_length=20, blank=True)
    join_code = models.CharField(max_length=6, unique=True, default=new_join_code)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_classes"
    )
    teachers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="taught_classes")
    free_play = models.BooleanField(default=True, help_text="Students may play any game.")
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None
