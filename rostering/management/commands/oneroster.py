"""python manage.py oneroster BUNDLE.zip [--apply]: check a OneRoster CSV bundle and print what
it would change (rostering/plan.py); with --apply, change it. A bundle with problems prints
them, by file and line, changes nothing and exits with status 1."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from rostering.bundle import BundleError
from rostering.services import ApplyError, roster_apply, roster_check, roster_preview
from rostering.words import as_text


class Command(BaseCommand):
    help = "Check a OneRoster 1.1 or 1.2 CSV bundle (a zip), print what it would change, and apply it with --apply."

    def add_arguments(self, parser):
        parser.add_argument("bundle", help="the zip the school's system exported")
        parser.add_argument("--apply", action="store_true", help="make the changes (all or nothing)")
        parser.add_argument("--source", default="",
                            help="the roster source's name (default: the manifest's source.systemName)")
        parser.add_argument("--by", default="", help="username of the administrator the import is recorded for")

    def handle(self, *args, bundle, apply, source, by, **options):
        path = Path(bundle)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}") from exc
        importer = None
        if by:
            importer = User.objects.filter(username=by).first()
            if importer is None:
                raise CommandError(f"No account with the username {by!r}.")
        try:
            checked, source_name = roster_check(data=data, source_name=source)
        except BundleError as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{path.name}: {len(exc.problems)} problem(s); nothing was changed.") from exc
        self.stdout.write(f"{path.name}: OneRoster {checked.version}, source “{source_name}”.")
        if not apply:
            self.stdout.write(as_text(roster_preview(bundle=checked, source_name=source_name)))
            return
        try:
            plan, _record = roster_apply(bundle=checked, source_name=source_name, by=importer, file_name=path.name)
        except ApplyError as exc:
            raise CommandError(f"{exc} Nothing was changed.") from exc
        self.stdout.write(as_text(plan))
        self.stdout.write("Applied." if not plan.is_empty else "")
