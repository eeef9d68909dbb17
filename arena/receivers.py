"""Arena games are counted the moment they finish (games.signals.game_finished), so a student
is back in the queue for the very next round; a round also counts any game it finds over and
not counted (a signal lost with a restarted process), and counting twice changes nothing."""

from django.dispatch import receiver

from arena.models import ArenaGame
from arena.services.counting import count_table
from games.models import Game
from games.signals import game_finished


@receiver(game_finished, sender=Game, dispatch_uid="arena-count-finished-game")
def count_finished_arena_game(sender, game_id: int, **kwargs) -> None:
    table_id = ArenaGame.objects.filter(game_id=game_id).values_list("pk", flat=True).first()
    if table_id is not None:
        count_table(table_id=table_id)
