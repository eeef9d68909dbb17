"""python manage.py simulate_class --students 30 --games 20 --plant so.lowest_operator=0.3 \
       --plant mg.facts:7x8=0.5 [--error-free 2] [--weeks 4] [--classroom ID]

Creates simulated students ("Sim 01", ...) in a new class (or the one given), played by bots
with planted miss rates through the same game services as real students, then prints each
planted rate next to the rate the reports measured."""

from django.core.management.base import BaseCommand, CommandError

from classroom.models import Classroom
from reports.models import SkillRollup
from devtools.planted import PlantError, parse_plant
from devtools.simulation import SimulationError, simulate_class


class Command(BaseCommand):
    help = "Simulate a class of students with planted miss rates and show what the reports measured."

    def add_arguments(self, parser):
        parser.add_argument("--students", type=int, default=30)
        parser.add_argument("--games", type=int, default=20, help="games per student")
        parser.add_argument("--plant", action="append", default=[], metavar="MEASURE[:FACT]=RATE")
        parser.add_argument("--error-free", type=int, default=0,
                            help="how many of the students (the last ones) have no plant")
        parser.add_argument("--weeks", type=int, default=1, help="spread the games over this many weeks")
        parser.add_argument("--classroom", type=int, help="add the students to this class (id)")

    def handle(self, *args, **opts):
        try:
            plants = [parse_plant(text) for text in opts["plant"]]
        except PlantError as exc:
            raise CommandError(str(exc)) from None
        if opts["students"] < 1 or opts["games"] < 1:
            raise CommandError("--students and --games must be at least 1.")
        classroom = None
        if opts["classroom"] is not None:
            classroom = Classroom.objects.filter(pk=opts["classroom"]).first()
            if classroom is None:
                raise CommandError(f"There is no class with id {opts['classroom']}.")

        def progress(done, total):
            self.stdout.write(f"  {done}/{total} students played")

        try:
            sim = simulate_class(students=opts["students"], games=opts["games"], plants=plants,
                                 error_free=opts["error_free"], classroom=classroom,
                                 weeks=max(1, opts["weeks"]), progress=progress)
        except SimulationError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{sim.classroom.name} (id {sim.classroom.pk}): {len(sim.students)} students, "
                          f"{len(sim.games)} games")
        planted_ids = [s.pk for s in sim.students if sim.plants[s.pk]]
        for plant in plants:
            rows = SkillRollup.objects.filter(classroom=sim.classroom, scope=SkillRollup.Scope.STUDENT,
                                              week__isnull=True, measure=plant.measure, detail=plant.detail,
                                              student_id__in=planted_ids)
            chances = sum(r.chances for r in rows)
            misses = sum(r.misses for r in rows)
            measured = f"{misses / chances:.1%}" if chances else "no chances"
            self.stdout.write(f"  {plant.label:<22} planted {plant.rate:.1%}  measured {measured} "
                              f"({misses} of {chances})")
