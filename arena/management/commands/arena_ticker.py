"""`python manage.py arena_ticker`: the arena's pairing rounds in a process of their own.

How production runs them (the Procfile's `arena`, `make serve`), with ARENA_TICKER=0 for the
web processes: a round deals tables and renders the projector in a burst of CPU that, in a web
process, would hold the GIL while the moves wait (arena/ticker.py, docs/arena.md). Any number
of these may run: the rounds' database lock keeps each arena to one round at a time.
"""

from django.core.management.base import BaseCommand

from arena import ticker


class Command(BaseCommand):
    help = "Run the class arena's pairing rounds in this process until stopped."

    def handle(self, *args, **options):
        self.stdout.write("Arena ticker: running pairing rounds (Ctrl-C to stop).")
        try:
            ticker.run_forever()
        except KeyboardInterrupt:
            pass
