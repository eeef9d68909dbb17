"""The teacher's "open tables" form: a game, optionally an assignment, and a table number for
each student who should play (students with the same number sit together)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import BOT_LEVELS
from games.ratings import LEVEL_WORDS


class GroupTablesForm(forms.Form):
    game = forms.ChoiceField(label=gettext_lazy("Game"))
    assignment = forms.TypedChoiceField(label=gettext_lazy("Counts towards assignment"), required=False,
                                        coerce=int, empty_value=None)
    fill = forms.ChoiceField(label=gettext_lazy("Empty seats"), required=False)

    def __init__(self, *args, students, assignments, games, **kwargs):
        super().__init__(*args, **kwargs)
        self.students = students
        self.assignments = {a.pk: a for a in assignments}
        self.fields["game"].choices = [(g.key, g.name) for g in games]
        self.fields["assignment"].choices = [("", _("No assignment (free play)"))] + [
            (a.pk, a.title) for a in assignments]
        self.fields["fill"].choices = [("", _("Leave them empty: only classmates play"))] + [
            (level, _("Fill with %(level)s computer players") % {"level": LEVEL_WORDS.get(level, level)})
            for level in BOT_LEVELS]
        numbers = [("", _("Not playing"))] + [(str(n), _("Table %(n)s") % {"n": n})
                                              for n in range(1, len(students) + 1)]
        for student in students:
            self.fields[self.table_field(student)] = forms.ChoiceField(
                label=student.display_name, choices=numbers, required=False)

    @staticmethod
    def table_field(student) -> str:
        return f"table_{student.pk}"

    def student_fields(self):
        return [(student, self[self.table_field(student)]) for student in self.students]

    def clean_assignment(self):
        pk = self.cleaned_data.get("assignment")
        return None if pk is None else self.assignments.get(pk)

    def clean(self):
        data = super().clean()
        assignment = data.get("assignment")
        if assignment is not None and data.get("game") and assignment.game != data["game"]:
            self.add_error("assignment", _("That assignment is for another game. Choose its game, "
                                           "or no assignment."))
        if not self.groups():
            raise forms.ValidationError(_("Give at least one student a table number."))
        return data

    def groups(self) -> list[list]:
        by_table: dict[int, list] = {}
        for student in self.students:
            number = self.cleaned_data.get(self.table_field(student))
            if number:
                by_table.setdefault(int(number), []).append(student)
        return [by_table[n] for n in sorted(by_table)]
