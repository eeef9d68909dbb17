from django.urls import path

from arena.views import student, teacher

app_name = "arena"

urlpatterns = [
    # teachers (arena/views/teacher.py)
    path("classes/<int:classroom_id>/arena/new/", teacher.arena_new, name="new"),
    path("arena/<int:arena_id>/", teacher.control, name="control"),
    path("arena/<int:arena_id>/live/", teacher.control_live, name="control_live"),
    path("arena/<int:arena_id>/screen/", teacher.screen, name="screen"),
    path("arena/<int:arena_id>/start/", teacher.start, name="start"),
    path("arena/<int:arena_id>/pause/", teacher.pause, name="pause"),
    path("arena/<int:arena_id>/resume/", teacher.resume, name="resume"),
    path("arena/<int:arena_id>/end/", teacher.end, name="end"),
    path("arena/<int:arena_id>/let-in/", teacher.let_in, name="let_in"),
    path("arena/<int:arena_id>/players/<int:player_id>/out/", teacher.take_out, name="take_out"),
    path("arena/<int:arena_id>/players/<int:player_id>/back/", teacher.let_back, name="let_back"),
    path("arena/<int:arena_id>/standings.csv", teacher.standings_csv, name="standings_csv"),
    # students (arena/views/student.py)
    path("arena/join/", student.join_by_code, name="join"),
    path("arena/join/<str:code>/", student.join_code_link, name="join_link"),
    path("arena/<int:arena_id>/play/", student.play, name="play"),
    path("arena/<int:arena_id>/break/", student.take_break, name="break"),
    path("arena/<int:arena_id>/back/", student.come_back, name="back"),
]
