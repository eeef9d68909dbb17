from django.core.management.base import BaseCommand

from classroom.demo import describe, load_demo


class Command(BaseCommand):
    help = "Create (or reuse) the demo teacher and class, and print how to sign in."

    def handle(self, *args, **options):
        self.stdout.write(describe(*load_demo()))
