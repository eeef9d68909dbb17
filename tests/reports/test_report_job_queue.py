"""Report jobs that a dead worker or a stopped Redis cannot strand (docs/reports.md, "When a
worker dies or Redis stops"): a job whose worker went quiet is shown as stopped with a Try again
that works at once, Recompute never hands back such a job, a task delivered twice changes
nothing, and with the broker unreachable a request still answers, the page says reports are
paused, and the sweep sends the job exactly once when Redis is back."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from devtools.planted import PlantedPlayer
from devtools.simulation import play_game
from reports import services, tasks
from reports.exports import jobs
from games.models import Game
from reports.models import GameReport, RecomputeJob, SkillRollup

from .showing import evidence, make_game, rollup

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

STOPPED_WORDS = "This stopped part-way (the server restarted). Nothing is lost: try again."
NOT_STARTED_WORDS = "This did not start (the server restarted). Nothing is lost: try again."


@pytest.fixture(autouse=True)
def job_deadlines(media, settings):
    """The files in a folder of the test's own, and the deadlines docs/reports.md gives."""
    settings.REPORT_JOB_STALE_SECONDS = 120
    settings.REPORT_JOB_START_SECONDS = 600
    settings.REPORT_JOB_RESEND_SECONDS = 60


@pytest.fixture
def pupil(classroom, make_student):
    ann = make_student(classroom, "Ann")
    rollup(classroom, "so.lowest_operator", student=ann, chances=37, misses=4)
    _, moves = make_game(classroom, ann, moves=2)
    evidence(moves[0], ann, "so.lowest_operator", missed=True, amount=5)
    evidence(moves[1], ann, "so.lowest_operator")
    return ann


def ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


def page(client, classroom, job, **headers) -> str:
    response = client.get(reverse("reports:job", args=[classroom.pk, job.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def files(media) -> list[str]:
    return sorted(p.name for p in media.rglob("*") if p.is_file())


class BrokerDown:
    """`.delay` of the given tasks raises what Celery raises when Redis cannot be reached."""

    def __init__(self, monkeypatch, *task_objects):
        self.sent: list[int] = []
        self.down = True
        for task in task_objects:
            monkeypatch.setattr(task, "delay", self.delay)

    def delay(self, job_id):
        if self.down:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append(job_id)


# ----- a worker that died -------------------------------------------------------------------

def test_a_running_export_whose_heartbeat_is_old_shows_as_stopped_and_try_again_makes_the_file(
        client, teacher, classroom, pupil, media, django_capture_on_commit_callbacks):
    client.force_login(teacher)
    dead = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="raw_csv",
                                       requested_by=teacher, status="running", total=8303, done=2000)
    RecomputeJob.objects.filter(pk=dead.pk).update(heartbeat_at=ago(60))
    html = page(client, classroom, dead)
    assert "Working on it… 2000 of 8303 done." in html and 'hx-trigger="every 2s"' in html

    RecomputeJob.objects.filter(pk=dead.pk).update(heartbeat_at=ago(121))  # the worker was killed
    html = page(client, classroom, dead)
    assert STOPPED_WORDS in html and ">Try again</button>" in html
    assert "Working on it" not in html and "every 2s" not in html  # no endless polling
    assert "Stopped: try again" in client.get(reverse("reports:exports", args=[classroom.pk])).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:job", args=[classroom.pk, dead.pk]))
    fresh = RecomputeJob.objects.latest("pk")
    assert fresh.pk != dead.pk and response.status_code == 302
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, fresh.pk])
    assert (fresh.kind, fresh.export_format, fresh.status, fresh.done) == ("export", "raw_csv", "ready", 2)
    html = page(client, classroom, fresh)
    assert "Your file is ready." in html
    download = client.get(reverse("reports:job_download", args=[classroom.pk, fresh.pk]))
    assert download.status_code == 200 and b"Ann" in b"".join(download.streaming_content)
    dead.refresh_from_db()
    assert dead.status == "failed" and dead.message == STOPPED_WORDS and dead.finished_at is not None
    assert STOPPED_WORDS in page(client, classroom, dead)  # still says what happened, in words


def test_a_queued_job_no_worker_started_is_stopped_and_try_again_starts_a_new_one(
        client, teacher, classroom, pupil, django_capture_on_commit_callbacks):
    client.force_login(teacher)
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                      requested_by=teacher)
    RecomputeJob.objects.filter(pk=job.pk).update(sent_at=ago(9 * 60))
    assert "Waiting to start…" in page(client, classroom, job)
    RecomputeJob.objects.filter(pk=job.pk).update(sent_at=ago(11 * 60))
    html = page(client, classroom, job)
    assert NOT_STARTED_WORDS in html and ">Try again</button>" in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("reports:job", args=[classroom.pk, job.pk]))
    assert RecomputeJob.objects.get(pk=job.pk).status == "failed"
    assert "Your file is ready." in page(client, classroom, RecomputeJob.objects.latest("pk"))


def test_try_again_on_a_live_job_starts_nothing(client, teacher, classroom, pupil):
    client.force_login(teacher)
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                      requested_by=teacher, status="running", total=3, done=1)
    RecomputeJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now())
    response = client.post(reverse("reports:job", args=[classroom.pk, job.pk]))
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, job.pk])
    assert RecomputeJob.objects.count() == 1
    assert "Working on it… 1 of 3 done." in page(client, classroom, job)


def test_recompute_never_hands_back_a_stopped_job(client, teacher, classroom, student,
                                                  django_capture_on_commit_callbacks):
    play_game(key="multiplication", classroom=classroom, student=student, seed=1, player=PlantedPlayer([]))
    GameReport.objects.all().delete()
    client.force_login(teacher)
    dead = RecomputeJob.objects.create(classroom=classroom, kind="recompute", requested_by=teacher,
                                       status="running", total=161, done=0)
    RecomputeJob.objects.filter(pk=dead.pk).update(heartbeat_at=ago(300))
    dashboard = client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert "it stopped part-way (the server restarted): nothing is lost, recompute again" in dashboard
    assert STOPPED_WORDS in page(client, classroom, dead)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:recompute", args=[classroom.pk]))
    fresh = RecomputeJob.objects.latest("pk")
    assert fresh.pk != dead.pk
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, fresh.pk])
    assert (fresh.status, fresh.done, fresh.total) == ("ready", 1, 1) and GameReport.objects.count() == 1
    assert "The reports are up to date." in page(client, classroom, fresh)
    assert RecomputeJob.objects.get(pk=dead.pk).status == "failed"
    # The service alone, too: a stopped queued recompute is not returned either.
    RecomputeJob.objects.filter(pk=fresh.pk).update(status="queued", sent_at=ago(11 * 60))
    with django_capture_on_commit_callbacks(execute=True):
        again = services.class_recompute_start(classroom=classroom, requested_by=teacher)
    assert again.pk not in (dead.pk, fresh.pk)
    assert RecomputeJob.objects.get(pk=fresh.pk).message == NOT_STARTED_WORDS


def test_recompute_still_hands_back_a_job_that_is_alive(teacher, classroom):
    live = RecomputeJob.objects.create(classroom=classroom, kind="recompute", requested_by=teacher,
                                       status="running", total=161, done=50)
    RecomputeJob.objects.filter(pk=live.pk).update(heartbeat_at=ago(100))
    assert services.class_recompute_start(classroom=classroom, requested_by=teacher) == live
    assert RecomputeJob.objects.get(pk=live.pk).status == "running"


def test_try_again_on_a_stopped_recompute_starts_a_fresh_one(client, teacher, classroom,
                                                             django_capture_on_commit_callbacks):
    client.force_login(teacher)
    dead = RecomputeJob.objects.create(classroom=classroom, kind="recompute", requested_by=teacher,
                                       status="running", total=161)
    RecomputeJob.objects.filter(pk=dead.pk).update(heartbeat_at=ago(200))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:job", args=[classroom.pk, dead.pk]))
    fresh = RecomputeJob.objects.latest("pk")
    assert fresh.pk != dead.pk and fresh.kind == "recompute" and fresh.status == "ready"
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, fresh.pk])
    assert "The reports are up to date." in page(client, classroom, fresh)


# ----- a task delivered twice ---------------------------------------------------------------

def _row(job):
    return RecomputeJob.objects.filter(pk=job.pk).values(
        "status", "done", "total", "file", "message", "finished_at", "heartbeat_at").get()


def test_a_redelivered_run_of_a_finished_job_changes_nothing(teacher, classroom, pupil, media,
                                                              django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        export = jobs.export_start(classroom=classroom, requested_by=teacher, export_format="raw_csv")
        recompute = services.class_recompute_start(classroom=classroom, requested_by=teacher)
    before = {job.pk: _row(job) for job in (export, recompute)}
    made = files(media)
    assert before[export.pk]["status"] == before[recompute.pk]["status"] == "ready" and len(made) == 1
    tasks.export_run.delay(export.pk)  # what Redis does after the visibility timeout
    tasks.recompute_class.delay(recompute.pk)
    jobs.export_run_job(job_id=export.pk)
    assert {job.pk: _row(job) for job in (export, recompute)} == before
    assert files(media) == made


def test_a_failed_or_stopped_job_is_never_run_again(teacher, classroom, pupil, media):
    failed = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                         status="failed", message="Something went wrong.")
    stopped = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                          status="running", total=3, done=1)
    RecomputeJob.objects.filter(pk=stopped.pk).update(heartbeat_at=ago(7200))
    before = _row(failed)
    tasks.export_run.delay(failed.pk)
    tasks.export_run.delay(stopped.pk)  # the dead worker's message, given back by Redis
    assert _row(failed) == before
    stopped.refresh_from_db()
    assert (stopped.status, stopped.done, stopped.message) == ("failed", 1, STOPPED_WORDS)
    assert files(media) == []


def test_a_second_delivery_while_the_first_runs_does_nothing(teacher, classroom, pupil, media):
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                      status="running", total=3, done=1)
    RecomputeJob.objects.filter(pk=job.pk).update(heartbeat_at=ago(5))
    before = _row(job)
    jobs.export_run_job(job_id=job.pk)
    assert _row(job) == before and files(media) == []


def test_a_worker_whose_job_was_given_up_on_stops_and_keeps_no_file(teacher, classroom, pupil, media,
                                                                     monkeypatch):
    job = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="pdf")

    def slow_pdf(*, classroom, progress):
        # Meanwhile the heartbeat went quiet and a teacher pressed Try again.
        RecomputeJob.objects.filter(pk=job.pk).update(status="failed", message=STOPPED_WORDS)
        progress(1)
        raise AssertionError("the worker should have stopped at its next heartbeat")

    monkeypatch.setattr(jobs.pdf, "class_pdf", slow_pdf)
    jobs.export_run_job(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.message, job.file.name) == ("failed", STOPPED_WORDS, "")
    assert files(media) == []


# ----- Redis down ---------------------------------------------------------------------------

def test_with_the_broker_down_requests_answer_and_the_sweep_sends_each_job_once(
        client, teacher, classroom, pupil, monkeypatch, django_capture_on_commit_callbacks):
    broker = BrokerDown(monkeypatch, tasks.export_run, tasks.recompute_class)
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:exports", args=[classroom.pk]), {"format": "raw_csv"})
    export = RecomputeJob.objects.get(kind="export")
    assert response.status_code == 302
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, export.pk])
    assert (export.status, export.sent_at) == ("queued", None)
    html = page(client, classroom, export)
    assert "Reports are paused." in html
    assert "Your download will start by itself when the server is back." in html
    assert 'hx-trigger="every 2s"' in html  # it keeps watching for the start
    exports_page = client.get(reverse("reports:exports", args=[classroom.pk])).content.decode()
    assert "Reports are paused." in exports_page and "Paused: starts when the server is back" in exports_page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("reports:recompute", args=[classroom.pk]))
    recompute = RecomputeJob.objects.get(kind="recompute")
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, recompute.pk])
    html = page(client, classroom, recompute)
    assert "Reports are paused." in html
    assert "The reports will be worked out by themselves when the server is back." in html
    dashboard = client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert "paused: it starts by itself when the server is back" in dashboard
    # Pressing Recompute again neither fails nor makes a second job.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("reports:recompute", args=[classroom.pk]))
    assert RecomputeJob.objects.filter(kind="recompute").count() == 1

    # Try again now, still down: the same job, and the teacher is told.
    response = client.post(reverse("reports:job", args=[classroom.pk, export.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("reports:job", args=[classroom.pk, export.pk])
    assert "still cannot be reached" in response.content.decode()
    assert RecomputeJob.objects.count() == 2

    RecomputeJob.objects.update(created_at=ago(60))
    assert tasks.report_jobs_sweep() == {"given_up": 0, "sent": 0, "games_reported": 0}  # still down: nothing lost
    assert broker.sent == [] and RecomputeJob.objects.filter(status="queued", sent_at=None).count() == 2

    broker.down = False  # Redis is back
    assert tasks.report_jobs_sweep() == {"given_up": 0, "sent": 2, "games_reported": 0}
    assert tasks.report_jobs_sweep() == {"given_up": 0, "sent": 0, "games_reported": 0}
    assert sorted(broker.sent) == sorted([export.pk, recompute.pk])  # each exactly once
    assert "Waiting to start…" in page(client, classroom, export)

    jobs.export_run_job(job_id=export.pk)  # the worker takes the message
    assert "Your file is ready." in page(client, classroom, export)


def test_try_again_now_on_a_paused_job_sends_it_when_the_broker_is_back(
        client, teacher, classroom, pupil, monkeypatch, django_capture_on_commit_callbacks):
    broker = BrokerDown(monkeypatch, tasks.export_run)
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("reports:exports", args=[classroom.pk]), {"format": "csv"})
    job = RecomputeJob.objects.get()
    assert ">Try again now</button>" in page(client, classroom, job)
    broker.down = False
    response = client.post(reverse("reports:job", args=[classroom.pk, job.pk]))
    assert response["Location"] == reverse("reports:job", args=[classroom.pk, job.pk])
    assert broker.sent == [job.pk] and RecomputeJob.objects.count() == 1
    assert "Waiting to start…" in page(client, classroom, job)


def test_the_sweep_gives_up_on_dead_jobs_and_resends_unstarted_ones(teacher, classroom, monkeypatch):
    broker = BrokerDown(monkeypatch, tasks.export_run)
    broker.down = False
    dead = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                       status="running")
    waiting = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv")
    fresh = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv")
    RecomputeJob.objects.filter(pk=dead.pk).update(heartbeat_at=ago(121))
    RecomputeJob.objects.filter(pk=waiting.pk).update(sent_at=ago(61))
    RecomputeJob.objects.filter(pk=fresh.pk).update(sent_at=ago(5))
    assert tasks.report_jobs_sweep() == {"given_up": 1, "sent": 1, "games_reported": 0}
    assert broker.sent == [waiting.pk]  # a worker that died may have fetched it: send it again
    dead.refresh_from_db()
    assert (dead.status, dead.message) == ("failed", STOPPED_WORDS)
    assert RecomputeJob.objects.get(pk=waiting.pk).sent_at < ago(60)  # its start deadline stands


def test_only_the_class_teachers_can_press_try_again(client, teacher, classroom, student, other_teacher,
                                                      other_classroom):
    dead = RecomputeJob.objects.create(classroom=classroom, kind="export", export_format="csv",
                                       status="running")
    RecomputeJob.objects.filter(pk=dead.pk).update(heartbeat_at=ago(300))
    before = list(RecomputeJob.objects.values_list("pk", "status"))
    for user, url, status in [
        (other_teacher, reverse("reports:job", args=[classroom.pk, dead.pk]), 404),
        (other_teacher, reverse("reports:job", args=[other_classroom.pk, dead.pk]), 404),
        (student, reverse("reports:job", args=[classroom.pk, dead.pk]), 403),
    ]:
        client.force_login(user)
        assert client.post(url).status_code == status
    assert list(RecomputeJob.objects.values_list("pk", "status")) == before


def test_a_game_that_finished_while_redis_was_down_gets_its_report_from_the_sweep(classroom, student):
    """Its report task could not be queued at the finish; the minute's sweep makes it."""
    game, _moves = make_game(classroom, student, moves=3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED,
                                           finished_at=timezone.now() - timedelta(minutes=5))
    assert services.games_without_report() == [game.pk]
    assert services.jobs_sweep()["games_reported"] == 1
    assert GameReport.objects.filter(game=game).exists()
    assert SkillRollup.objects.filter(classroom=classroom, student=student).exists()
    assert services.games_without_report() == [] and services.jobs_sweep()["games_reported"] == 0  # once only
