"""The toy game (tests/toy/) goes through Numberdeck like any game once it is registered: its
table over the real WebSocket consumer with a computer player answering, its skill measure in
the teacher's reports, and free play and the assignment form. None of the site's code (nor its
templates) names it. (The contract suite and the hidden-cards test run over it too.)"""

import html
import json
import re

import pytest
from django.urls import reverse

from games import registry
from games.models import Game
from games.services import SeatSpec, game_apply_move, game_create
from games.services.bots import play_bot_moves
from reports.services import class_reports_refresh, game_report_compute
from tests.sockets import connect_as, off_loop
from tests.toy.adapter import SPEC
from tests.toy.engine import ENGINE

FORM = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
HIDDEN = re.compile(r"""<input type="hidden" name="(?P<name>[^"]+)" value=(?P<q>["'])(?P<value>.*?)(?P=q)>""")


# ----- the engine ------------------------------------------------------------------------------
def test_the_higher_card_wins_the_trick_and_leads_the_next():
    state = ENGINE.new_game(["Ann", "Ben"], {"cards": 3}, 5)
    ann, ben = state["hands"]["Ann"], state["hands"]["Ben"]
    assert len(ann) == len(ben) == 3 and not set(ann) & set(ben)
    assert ENGINE.waiting_for(state) == ["Ann"]
    state, _ = ENGINE.apply(state, "Ann", {"type": "play", "card": ann[0]})
    state, events = ENGINE.apply(state, "Ben", {"type": "play", "card": ben[-1]})
    winner = "Ann" if ann[0] > ben[-1] else "Ben"
    assert events[-1] == {"type": "trick", "player": winner} and ENGINE.waiting_for(state) == [winner]
    view = ENGINE.view(state, "Ann")
    assert "hands" not in view and "deck" not in view and view["cards_left"] == {"Ann": 2, "Ben": 2}
    assert ENGINE.analyse(state, winner, {"type": "play", "card": max(state["hands"][winner])}) == \
        {"kind": "play", "played_highest": True}


# ----- the table over the WebSocket -------------------------------------------------------------
def first_move_form(table: str) -> dict:
    """What htmx's ws extension sends for the board's first move form: its fields, as text."""
    form = FORM.search(table)
    assert form, "the board has no move form"
    fields = {m["name"]: html.unescape(m["value"]) for m in HIDDEN.finditer(form.group(1))}
    assert set(fields) == {"action", "expected_version", "idempotency_key"}
    return fields


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_toy_game_is_played_through_the_real_table_consumer(toy_game, classroom, student):
    game = off_loop(
        game_create, key="toy", classroom=classroom, seed=3, options={"cards": 3},
        seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="player")])
    comm = connect_as(student, game.pk)
    connected, _ = await comm.connect()
    assert connected
    table = await comm.receive_from(timeout=5)
    assert "Your turn: play a card." in table and 'data-version="0"' in table
    fields = first_move_form(table)
    played = json.loads(fields["action"])["card"]
    assert played == min(game.state["hands"]["Ann"])
    await comm.send_to(text_data=json.dumps({**fields, "HEADERS": {"HX-Request": "true"}}))
    # Every change is pushed: Ann's move, then the computer's answer (it wins the trick and
    # leads the next one, or Ann wins and leads), until it is Ann's turn again.
    while True:
        table = await comm.receive_from(timeout=5)
        version = int(re.search(r'data-version="(\d+)"', table).group(1))
        if version >= 2 and "Your turn: play a card." in table:
            break
    assert f"Ann played {played}." in table and "won the trick." in table
    assert re.search(r"Robo played \d+\.", table)
    await comm.disconnect()
    game = await Game.objects.aget(pk=game.pk)
    assert game.version == version and sum(game.state["tricks"].values()) >= 1


# ----- the reports ---------------------------------------------------------------------------------
def play_lowest_cards(game: Game, seat) -> int:
    """Ann always plays her lowest card (a miss whenever she holds more than one); the
    computer answers. Returns how many cards Ann played."""
    plays = 0
    while True:
        play_bot_moves(game_id=game.pk)
        game.refresh_from_db()
        if game.state["finished"]:
            return plays
        card = min(game.state["hands"][seat.name])
        result = game_apply_move(game_id=game.pk, seat=seat, action={"type": "play", "card": card},
                                 expected_version=game.version, schedule_bots=False)
        assert result.applied
        plays += 1


@pytest.mark.django_db
def test_a_finished_toy_games_measure_is_in_the_teachers_reports(toy_game, client, teacher, classroom,
                                                                  student):
    client.force_login(student)
    response = client.post(reverse("games:free_play_start", args=["toy"]))  # free play: one computer
    game = Game.objects.get(key="toy", classroom=classroom)
    assert response.status_code == 302 and game.seats.count() == 2
    plays = play_lowest_cards(game, game.seats.get(user=student))
    assert plays == 5  # the classic preset: five cards each
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    report = game_report_compute(game_id=game.pk)
    assert report is not None and report.decisions == plays
    class_reports_refresh(classroom_id=classroom.pk)

    client.force_login(teacher)
    page = client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert "Highest card" in page
    # four misses (every play but the last, with one card left) of five chances
    assert re.search(r"missed\s*<a [^>]*>4</a>\s*of\s*<a [^>]*>5</a>", page)
    page = client.get(reverse("reports:student", args=[classroom.pk, student.pk])).content.decode()
    assert "Highest card" in page and "Higher Card" in page
    moves = client.get(reverse("reports:moves", args=[classroom.pk]),
                       {"measure": "toy.highest", "student": student.pk, "missed": "1"}).content.decode()
    assert "Played a card below the highest in hand" in moves
    assert len(re.findall(rf'href="/game/{game.pk}/replay/\?turn=\d+"', moves)) == 4


# ----- free play and assignments ------------------------------------------------------------------
@pytest.mark.django_db
def test_free_play_and_the_assignment_form_offer_the_toy_game_only_while_it_is_registered(
        client, teacher, classroom, student):
    start = reverse("games:free_play_start", args=["toy"])
    new_assignment = reverse("classroom:assignment_create", args=[classroom.pk])

    def pages():
        client.force_login(student)
        home = client.get(reverse("classroom:student_home")).content.decode()
        client.force_login(teacher)
        form = client.get(new_assignment).content.decode()
        return home, form

    with_toy = None
    registry.register(SPEC)
    try:
        with_toy = pages()
    finally:
        registry.unregister(SPEC.key)
    home, form = with_toy
    assert "Higher Card" in home and str(SPEC.pitch) in home and f'action="{start}"' in home
    assert re.search(r'<option value="toy"[^>]*>Higher Card</option>', form)
    home, form = pages()
    assert "Higher Card" not in home and 'value="toy"' not in form
