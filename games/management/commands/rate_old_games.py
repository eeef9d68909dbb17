"""python manage.py rate_old_games

Rates the finished games that have no rating yet (games finished before ratings existed, or a
finish whose rating failed), oldest first, as they would have been rated one by one. Safe to
run again: a game is rated once (games.services.ratings.ratings_update_all)."""

from django.core.management.base import BaseCommand

from games.services.ratings import ratings_update_all


class Command(BaseCommand):
    help = "Rate finished games that have no rating yet (safe to run again)."

    def handle(self, *args, **opts):
        made = ratings_update_all()
        self.stdout.write(f"{made} rating change{'' if made == 1 else 's'} made.")
