from django.core.management.base import BaseCommand

from devtools.lti_platform import TestPlatform, register_with_numberdeck


class Command(BaseCommand):
    help = ("Run a small LTI 1.3 test platform on 127.0.0.1, registered with this Numberdeck, to try "
            "launches, deep linking and grades in a browser (docs/lti.md, \"Trying it\").")

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--tool-url", default="http://127.0.0.1:8000",
                            help="Numberdeck's address (where `make run` serves it)")

    def handle(self, *args, port: int, tool_url: str, **options):
        platform = TestPlatform(tool_url=tool_url, port=port)
        register_with_numberdeck(platform)
        self.stdout.write(f"Test platform for {tool_url}: open {platform.origin}/ (Ctrl-C stops it).")
        try:
            platform.serve_forever()
        except KeyboardInterrupt:
            self.stdout.write("Stopped.")
