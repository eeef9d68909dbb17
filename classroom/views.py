from django.shortcuts import render

from accounts.permissions import student_required, teacher_required
from games.catalogue import GAMES

from .selectors import classes_for_teacher, students_of_class


@teacher_required
def teacher_home(request):
    classes = list(classes_for_teacher(teacher=request.user))
    rows = [(c, students_of_class(classroom=c).count()) for c in classes]
    return render(request, "classroom/teacher_home.html", {"rows": rows})


@student_required
def student_home(request):
    classroom = request.user.classroom
    free_play = classroom is not None and classroom.free_play
    return render(request, "classroom/student_home.html",
                  {"classroom": classroom, "games": GAMES if free_play else []})
