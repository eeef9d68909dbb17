"""The toy game (tests/toy/) plugs into the site's per-game knowledge from its own files only
(docs/engine.md, "A game's homes"): its bots' ratings, its focus option and the words for it, its board's
stylesheet, its place on the home page and its name. No module outside its files names it
(tests/contract/test_games_stay_in_their_homes.py); here the site uses what it declares."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from games import practice, ratings, registry
from games.models import Game
from games.services import game_apply_move
from games.services.bots import play_bot_moves
from tests.toy.adapter import RATINGS, SPEC
from tests.toy.engine import ENGINE, LONG_HAND

STYLESHEET = '<link rel="stylesheet" href="/static/css/games/toy.css">'
WORDS = "Ten cards each: ten tricks in which to play your highest card."


def test_its_name_is_its_engines_title():
    assert SPEC.name == ENGINE.title == "Higher Card"


def test_its_computer_players_are_rated_by_its_own_figures():
    assert ratings.figures_for(SPEC.key) is ratings.GENERIC  # not registered: the generic figures
    registry.register(SPEC)
    try:
        assert ratings.bot_rating(SPEC.key, "player") == RATINGS.levels["player"] == 1180
        assert ratings.mix_rating(SPEC.key, 0.5) == 1100
        assert ratings.default_rating(SPEC.key) == (1000 + 1180) / 2
        assert ratings.just_right_level(SPEC.key, 1100.0) == "mix:0.50"
    finally:
        registry.unregister(SPEC.key)


@pytest.mark.django_db
def test_practise_this_deals_its_focus_option_and_says_it_in_its_words(toy_game, client, teacher,
                                                                      classroom):
    focus = practice.focus_for("toy.highest")
    assert (focus.game, focus.options, focus.label) == ("toy", {"long_hands": True}, "Highest card")
    assert focus.words == [WORDS] == practice.options_words("toy", focus.options)
    assert practice.options_words("toy", {}) == ["The usual game: this skill comes up in every game."]
    short = SPEC.preset("short").options
    options = practice.merged_options("toy", short, focus.options)
    assert options == {"cards": 3, "long_hands": True}
    assert practice.options_accepted("toy", options, [2]) == ""
    state = ENGINE.new_game(["Ann", "Ben"], options, 4)
    assert [len(h) for h in state["hands"].values()] == [LONG_HAND, LONG_HAND]  # ten tricks, not three

    client.force_login(teacher)
    response = client.get(reverse("reports:practise", args=[classroom.pk]), {"measure": "toy.highest"})
    assert response.status_code == 302
    form = client.get(response["Location"]).content.decode()
    assert "Practice: Highest card" in form and WORDS in form


def _finish(game: Game, seat) -> None:
    """Ann plays her lowest card each turn, the computer answers, to the end."""
    while True:
        play_bot_moves(game_id=game.pk)
        game.refresh_from_db()
        if game.state["finished"]:
            return
        card = min(game.state["hands"][seat.name])
        assert game_apply_move(game_id=game.pk, seat=seat, action={"type": "play", "card": card},
                               expected_version=game.version, schedule_bots=False).applied


@pytest.mark.django_db
def test_every_page_with_its_board_links_its_stylesheet(toy_game, client, classroom, student):
    assert finders.find("css/games/toy.css")
    client.force_login(student)
    client.post(reverse("games:free_play_start", args=["toy"]))
    game = Game.objects.get(key="toy", classroom=classroom)
    table = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert STYLESHEET in table and "toy-board" in table
    _finish(game, game.seats.get(user=student))
    replay = client.get(reverse("games:replay", args=[game.pk]), {"turn": 2}).content.decode()
    assert "Replay: Higher Card" in replay and STYLESHEET in replay
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert "Higher Card" in home and "css/games/" not in home  # no board there: no board styles


@pytest.mark.django_db
def test_the_home_page_lists_it_only_while_it_is_registered(client):
    def lead_and_games():
        page = client.get(reverse("home")).content.decode()
        return re.search(r'<p class="lead">(.*?)</p>', page, re.S).group(1), page

    registry.register(SPEC)
    try:
        lead, page = lead_and_games()
    finally:
        registry.unregister(SPEC.key)
    assert "Higher Card with your class" in lead and "and Higher Card" in lead
    assert f"<h3>{SPEC.name}</h3><p>{SPEC.pitch}</p>" in page
    lead, page = lead_and_games()
    last = registry.all_games()[-1].name  # the menu's last game is last again: no "and Higher Card"
    assert "Higher Card" not in page and f"and {last} with your class" in lead
