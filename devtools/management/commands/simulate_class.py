"""python manage.py simulate_class --students 30 --games 20 --plant so.lowest_operator=0.3 \
       --plant mg.facts:7x8=0.5 [--profile "mg.facts=0.1,so.specials=0.25" ...] \
       [--error-free 2] [--weeks 4] [--classroom ID] [--seed 5] [--json]

Creates simulated students ("Sim 01", ...) in a new class (or the one given), played by bots
with planted miss rates through the same game services as real students, then prints each
planted rate next to the rate the reports measured. `--plant` is planted in every student;
each `--profile` (comma-separated plants) in every n-th student, so one class carries several
different plants. Misses are drawn by chance per decision from dice seeded by `--seed`: the
same seed prints the same figures. `--json` prints, per student and measure, the planted rate,
the chances and the measured rate, and beside them the student's flags as the teacher's pages
show them (each with its words and the numbers behind it); the class's name and id go to
stderr."""

import json

from django.core.management.base import BaseCommand, CommandError

from classroom.models import Classroom
from devtools.planted import PlantError, parse_plant
from devtools.simulation import SimulationError, simulate_class
from reports.measures import describe, measure_by_id
from reports.models import NeedsHelpFlag, SkillRollup
from reports.uncertainty import BANDS


class Command(BaseCommand):
    help = "Simulate a class of students with planted miss rates and show what the reports measured."

    def add_arguments(self, parser):
        parser.add_argument("--students", type=int, default=30)
        parser.add_argument("--games", type=int, default=20, help="games per student")
        parser.add_argument("--plant", action="append", default=[], metavar="MEASURE[:FACT]=RATE",
                            help="planted in every student (but the error-free ones)")
        parser.add_argument("--profile", action="append", default=[], metavar="PLANT,PLANT,...",
                            help="plants of every n-th student (give several: students take turns)")
        parser.add_argument("--error-free", type=int, default=0,
                            help="how many of the students (the last ones) have no plant")
        parser.add_argument("--weeks", type=int, default=1, help="spread the games over this many weeks")
        parser.add_argument("--classroom", type=int, help="add the students to this class (id)")
        parser.add_argument("--seed", type=int, default=1, help="the class's dice (same seed, same figures)")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, *args, **opts):
        try:
            plants = [parse_plant(text) for text in opts["plant"]]
            profiles = [[parse_plant(t) for t in text.split(",") if t.strip()] for text in opts["profile"]]
        except PlantError as exc:
            raise CommandError(str(exc)) from None
        if opts["students"] < 1 or opts["games"] < 1:
            raise CommandError("--students and --games must be at least 1.")
        classroom = None
        if opts["classroom"] is not None:
            classroom = Classroom.objects.filter(pk=opts["classroom"]).first()
            if classroom is None:
                raise CommandError(f"There is no class with id {opts['classroom']}.")
        as_json = opts["json"]

        def progress(done, total):
            if not as_json:
                self.stdout.write(f"  {done}/{total} students played")

        try:
            sim = simulate_class(students=opts["students"], games=opts["games"], plants=plants,
                                 profiles=profiles, error_free=opts["error_free"], classroom=classroom,
                                 seed=opts["seed"], weeks=max(1, opts["weeks"]), progress=progress)
        except SimulationError as exc:
            raise CommandError(str(exc)) from None
        headline = (f"{sim.classroom.name} (id {sim.classroom.pk}): {len(sim.students)} students, "
                    f"{len(sim.games)} games")
        figures = student_figures(sim)
        if as_json:
            self.stderr.write(headline)
            self.stdout.write(json.dumps({"seed": opts["seed"], "students": figures}, indent=1,
                                         ensure_ascii=False, sort_keys=True))
            return
        self.stdout.write(headline)
        for student in figures:
            self.stdout.write(f"  {student['name']}")
            for label, f in student["measures"].items():
                if f["planted"] is None and not f["misses"]:
                    continue
                planted = "not planted" if f["planted"] is None else f"planted {f['planted']:.1%}"
                measured = "no chances" if f["measured"] is None else f"measured {f['measured']:.1%}"
                self.stdout.write(f"    {label:<24} {planted:<14} {measured} "
                                  f"({f['misses']} of {f['chances']})")
            for flag in student["flags"]:
                self.stdout.write(f"    flagged: {flag['words']} ({flag['band']})")


def student_figures(sim) -> list[dict]:
    """Per student: every measure they had chances at (and each planted detail), with the
    planted rate (None when not planted), chances, misses and the measured rate; and their
    flags (`flag_figures`)."""
    rows = SkillRollup.objects.filter(classroom=sim.classroom, scope=SkillRollup.Scope.STUDENT,
                                      week__isnull=True, student__in=sim.students)
    counts: dict[int, dict[str, tuple[int, int]]] = {}
    flags = flag_figures(sim)
    for r in rows.values_list("student_id", "measure", "detail", "chances", "misses"):
        student_id, measure, detail, chances, misses = r
        counts.setdefault(student_id, {})[f"{measure}:{detail}" if detail else measure] = (chances, misses)
    out = []
    for student in sim.students:
        planted = {p.label: p.rate for p in sim.plants[student.pk]}
        mine = counts.get(student.pk, {})
        labels = sorted({label for label in mine if ":" not in label or label in planted} | set(planted))
        measures = {}
        for label in labels:
            if label.startswith("all.think_time"):
                continue
            chances, misses = mine.get(label, (0, 0))
            measures[label] = {"planted": planted.get(label), "chances": chances, "misses": misses,
                               "measured": round(misses / chances, 4) if chances else None}
        out.append({"name": student.display_name, "measures": measures,
                    "flags": flags.get(student.pk, [])})
    return out


def flag_figures(sim) -> dict[int, list[dict]]:
    """Per student id: their flags, each with the words the teacher reads and its numbers."""
    out: dict[int, list[dict]] = {}
    found = NeedsHelpFlag.objects.filter(classroom=sim.classroom, student__in=sim.students)
    for flag in found.order_by("student_id", "reason", "measure", "detail", "game_id"):
        ev = flag.evidence
        if flag.reason == NeedsHelpFlag.Reason.MISS_RATE:
            words = describe(flag.measure, ev["student"]["misses"], ev["student"]["chances"]) \
                if measure_by_id(flag.measure) else flag.measure
            band = "Needs help (worse than the class)"
        elif flag.reason == NeedsHelpFlag.Reason.RULE_ERRORS:
            # No game id: the same seed prints the same figures, in whatever class.
            words, band = f"{ev['errors']} tries the rules do not allow in one game", "Needs help"
            ev = {k: v for k, v in ev.items() if k != "game_id"}
        else:
            words, band = ev["words"], BANDS[ev["band"]].label
        out.setdefault(flag.student_id, []).append(
            {"reason": flag.reason, "measure": flag.measure, "detail": flag.detail,
             "words": words, "band": band, "evidence": ev})
    return out
