from django.urls import path

from .views import assignments, cards, classes, co_teaching, join, roster, student, tables

app_name = "classroom"

urlpatterns = [
    # Students sign in: class code, name, pictures
    path("join/", join.join, name="join"),
    path("join/<str:code>/", join.join_class, name="join_class"),
    path("join/<str:code>/<int:student_id>/", join.join_pictures, name="join_pictures"),
    path("join/<str:code>/<int:student_id>/text/", join.join_text, name="join_text"),
    # Teachers: classes
    path("teach/", classes.teacher_home, name="teacher_home"),
    path("teach/classes/new/", classes.class_create, name="class_create"),
    path("teach/classes/archived/", classes.archived_classes, name="archived_classes"),
    path("teach/classes/<int:pk>/", classes.class_detail, name="class_detail"),
    path("teach/classes/<int:pk>/progress/", classes.class_progress, name="class_progress"),
    path("teach/classes/<int:pk>/edit/", classes.class_edit, name="class_edit"),
    path("teach/classes/<int:pk>/free-play/", classes.class_free_play, name="class_free_play"),
    path("teach/classes/<int:pk>/archive/", classes.class_archive, name="class_archive"),
    path("teach/classes/<int:pk>/restore/", classes.class_restore, name="class_restore"),
    path("teach/classes/<int:pk>/delete/", classes.class_delete, name="class_delete"),
    path("teach/classes/<int:pk>/join-code/", classes.class_join_code, name="class_join_code"),
    # Teachers: the class list
    path("teach/classes/<int:pk>/students/add/", roster.students_add, name="students_add"),
    path("teach/classes/<int:pk>/students/paste/", roster.students_paste, name="students_paste"),
    path("teach/classes/<int:pk>/students/import/", roster.students_import, name="students_import"),
    path("teach/students/<int:pk>/", roster.student_detail, name="student_detail"),
    path("teach/students/<int:pk>/move/", roster.student_move, name="student_move"),
    path("teach/students/<int:pk>/remove/", roster.student_remove, name="student_remove"),
    path("teach/students/<int:pk>/pictures/", roster.student_pictures, name="student_pictures"),
    path("teach/students/<int:pk>/text-password/", roster.student_text_password,
         name="student_text_password"),
    path("teach/students/<int:pk>/unlock/", roster.student_unlock, name="student_unlock"),
    # Teachers: sign-in cards
    path("teach/classes/<int:pk>/cards/", cards.sign_in_cards, name="sign_in_cards"),
    path("teach/classes/<int:pk>/cards.pdf", cards.sign_in_cards_pdf, name="sign_in_cards_pdf"),
    # Teachers: co-teaching
    path("teach/classes/<int:pk>/teachers/", co_teaching.co_teachers, name="co_teachers"),
    path("teach/classes/<int:pk>/teachers/<int:teacher_id>/remove/", co_teaching.co_teacher_remove,
         name="co_teacher_remove"),
    path("teach/classes/<int:pk>/invites/<int:invite_id>/withdraw/", co_teaching.invite_withdraw,
         name="invite_withdraw"),
    path("teach/invite/<str:token>/", co_teaching.invite_accept, name="invite_accept"),
    # Teachers: assignments
    path("teach/classes/<int:pk>/assignments/new/", assignments.assignment_create,
         name="assignment_create"),
    path("teach/assignments/<int:pk>/edit/", assignments.assignment_edit, name="assignment_edit"),
    path("teach/assignments/<int:pk>/close/", assignments.assignment_close, name="assignment_close"),
    path("teach/assignments/<int:pk>/reopen/", assignments.assignment_reopen, name="assignment_reopen"),
    path("teach/assignments/<int:pk>/duplicate/", assignments.assignment_duplicate,
         name="assignment_duplicate"),
    # Students
    path("play/", student.student_home, name="student_home"),
    path("play/class/", student.student_choose_class, name="student_choose_class"),
    path("play/assignment/<int:pk>/start/", student.assignment_start, name="assignment_start"),
    # Tables with classmates: a student opens one; a teacher opens them for groups
    path("play/tables/new/", tables.table_open, name="table_open"),
    path("teach/classes/<int:pk>/tables/", tables.teacher_tables, name="teacher_tables"),
]
