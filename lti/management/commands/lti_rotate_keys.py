from django.core.management.base import BaseCommand

from lti.registration import lti_tool_key_rotate


class Command(BaseCommand):
    help = ("Make a new key for Numberdeck to sign with; older keys stay published until --keep-days "
            "after the key that replaced them (docs/lti.md). --retire-only: no new key, only the overlap.")

    def add_arguments(self, parser):
        parser.add_argument("--keep-days", type=int, default=7)
        parser.add_argument("--retire-only", action="store_true")

    def handle(self, *args, keep_days: int, retire_only: bool, **options):
        made, retired = lti_tool_key_rotate(keep_days=keep_days, new_key=not retire_only)
        if made is not None:
            self.stdout.write(f"New signing key {made}.")
        self.stdout.write(f"{retired} older key(s) taken out of the published key set.")
