"""`python manage.py arena_ticker`: the arena's pairing rounds in a process of their own.

The web processes run the ticker in a thread by default (arena/ticker.py). A deployment that
wants the rounds' CPU away from the sockets' (a big school's arena: rounds render the
projector and deal tables while hundreds of moves arrive) sets ARENA_TICKER=0 for the web
processes and runs one or more of these instead: the rounds' database lock keeps any number of
them, and any web process's, to one round of an arena at a time.
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
