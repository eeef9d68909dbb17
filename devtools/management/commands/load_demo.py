from django.core.management.base import BaseCommand

from devtools.demo import describe, load_demo


class Command(BaseCommand):
    help = "Create (or reuse) the demo teacher and class, and print how to sign in."

    def add_arguments(self, parser):
        parser.add_argument("--brief", action="store_true",
                            help="one line only (`make run` prints how to sign in once the server answers)")

    def handle(self, *args, **options):
        teacher, classroom, students = load_demo()
        if options["brief"]:
            games = sum(a.games.count() for a in classroom.assignments.all())
            self.stdout.write(f"The demo class “{classroom.name}” is loaded: {len(students)} students, "
                              f"{games} finished games.")
        else:
            self.stdout.write(describe(teacher, classroom, students))
