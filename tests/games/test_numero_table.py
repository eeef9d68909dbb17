"""The Numero table: the board for each viewer, the selection endpoint, and moves made from it."""

import html
import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import engine as engines
from games.engine.numero.cards import ALL_CODES, words
from games.models import Game, Move
from games.rendering import render_table
from games.services import SeatSpec, game_apply_move, game_create
from tests.sockets import connect_as

pytestmark = pytest.mark.django_db

ANN = ["5g", "/2", "3o", "8b", "9r"]
ROBO = ["1g", "4o", "6b", "7r", "12r"]


def numero(classroom, user, *, key="numero", hands=None, centre=("10g", "2b", "3b"), options=None):
    """A game whose deal is fixed (hands and centre), dealt the rest from the seed."""
    names = ["Ann"] if key == "numero_solitaire" else ["Ann", "Robo"]
    seats = [SeatSpec("Ann", user=user)] + [SeatSpec(n, bot_level="beginner") for n in names[1:]]
    options = options or {"wilds": ["divide"]}
    game = game_create(key=key, classroom=classroom, seed=11, options=options, seats=seats)
    hands = hands or ({"Ann": ANN} if key == "numero_solitaire" else {"Ann": ANN, "Robo": ROBO})
    state = engines.get(key).new_game(names, options, 11, {"hands": hands, "centre": list(centre)})
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(classroom, student):
    return numero(classroom, student)


def select(client, game, **query):
    return client.get(reverse("games:selection", args=[game.pk]), query)


def hidden_action(page: str, button_id: str) -> dict:
    """The action a move button would send (its form's hidden `action` field)."""
    form = re.search(r'<form ws-send[^>]*>((?:(?!</form>).)*id="%s"(?:(?!</form>).)*)</form>' % re.escape(button_id),
                     page, re.S)
    assert form, f"no form for {button_id}"
    return json.loads(html.unescape(re.search(r'name="action" value="([^"]+)"', form.group(1)).group(1)))


def button(page: str, button_id: str) -> str:
    found = re.search(r'<button[^>]*id="%s"[^>]*>' % re.escape(button_id), page)
    assert found, f"no button {button_id}"
    return found.group(0)


# ----- the board -------------------------------------------------------------------------------
def test_the_player_sees_their_cards_as_labelled_buttons_and_a_clear_status(client, student, game):
    client.force_login(student)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Your turn: tap a card from your hand" in page
    assert "You can play a wild card on a centre card first." in page
    # Every card is a real button with its number and its colour as a word and a shape.
    assert 'aria-label="5 green"' in page and "▲ green" in page and "● orange" in page
    assert 'aria-label="÷2 wild card divide by 2"' in page and "÷2" in page
    assert 'aria-pressed="false"' in page
    assert "Cards won" in page and "Robo</strong>: 0 cards won · 5 in hand" in page
    # Where keyboard focus goes when a tap or a push takes the focused card away (app.js).
    assert 'data-focus-next="[&quot;#numero-play .nm-centre button' in page


def test_while_the_bot_plays_the_hand_cannot_be_tapped(client, student, classroom):
    game = numero(classroom, student)
    state = game.state
    state["turn"] = 1  # Robo's turn
    Game.objects.filter(pk=game.pk).update(state=state)
    client.force_login(student)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Waiting for Robo." in page
    assert "/selection/" not in page and 'role="img" aria-label="5 green"' in page


def test_the_teacher_sees_every_hand_and_nothing_to_tap(client, teacher, game):
    client.force_login(teacher)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Everyone's cards (teacher view)" in page
    assert "Robo:</strong>" in page and "12" in page
    assert "/selection/" not in page and "ws-send" not in page


def _codes(page: str) -> set[str]:
    """Every Numero card written in a page: as a code (in ids and actions) or in words (in
    sentences: "red 7", "wild card ÷2")."""
    found = set()
    for code in ALL_CODES:
        if re.search(r"(?<![\w/.%-])" + re.escape(code) + r"(?![\w/.%])", page) or \
                re.search(r"(?<![\w])" + re.escape(words(code)) + r"(?![\w/.%])", page):
            found.add(code)
    return found


def test_no_fragment_for_ann_holds_robos_hand_or_the_deck(client, student, game):
    ann = game.seats.get(name="Ann")
    client.force_login(student)
    strip = lambda text: re.sub(r'name="idempotency_key" value="[^"]+"', "", text)  # noqa: E731
    queries = [{}, {"card": "5g"}, {"card": "/2"}, {"card": "3o", "picked": "2b"}, {"card": "7r"}]

    def everything():
        return [strip(render_table(game_id=game.pk, seat=ann, coach=False).html)] + \
               [strip(select(client, game, **q).content.decode()) for q in queries]

    before = everything()
    shown = set().union(*map(_codes, before))
    assert {"5g", "/2", "10g", "2b"} <= shown  # the check does find codes written in the page
    deck_top = game.state["deck"][:5]
    assert not shown & (set(ROBO) - {"7r"}), "Robo's cards must not appear in Ann's view"
    assert not shown & set(deck_top)
    # Ann asking about a card she doesn't hold is answered the same whoever holds it.
    assert "You don&#x27;t have the red 7 in your hand" in before[-1]
    # Another hand for Robo and another deck order: Ann's fragments are exactly the same.
    state = game.state
    state["hands"]["Robo"], state["deck"][:5] = state["deck"][:5], state["hands"]["Robo"]
    state["deck"].reverse()
    Game.objects.filter(pk=game.pk).update(state=state)
    assert everything() == before


# ----- the selection endpoint ------------------------------------------------------------------
def test_tapping_a_card_then_centre_items_builds_a_take(client, student, classroom):
    game = numero(classroom, student, centre=("2b", "3b", "10g"))
    client.force_login(student)
    first = select(client, game, card="5g").content.decode()
    assert 'aria-pressed="true" aria-label="5 green"' in first
    assert "Now tap the centre cards that add up to 5." in first
    assert "hx-get" in button(first, "nm-item-2b") and "disabled" in button(first, "nm-item-10g")
    assert "disabled" in button(first, "nm-take")

    second = select(client, game, card="5g", picked="2b").content.decode()
    assert 'aria-pressed="true"' in button(second, "nm-item-2b")
    assert "need 3 more" in second and "That centre card is worth 2, not 5" in second
    assert "picked=2b%2C3b" in button(second, "nm-item-3b")  # 3 completes the group

    done = select(client, game, card="5g", picked="2b,3b").content.decode()
    assert "2 + 3 = 5" in done and "✓ makes 5" in done
    assert "disabled" not in button(done, "nm-take")
    assert hidden_action(done, "nm-take") == {"type": "take", "card": "5g", "groups": [["2b", "3b"]]}
    # Tapping a picked item again puts it back.
    assert "picked=3b" in button(done, "nm-item-2b")


def test_a_build_shows_its_value_and_why_not(client, student, classroom):
    game = numero(classroom, student, centre=("2b", "10g"))
    client.force_login(student)
    page = select(client, game, card="3o", picked="2b").content.decode()
    assert "Build 5" in page and "disabled" not in button(page, "nm-build")
    assert hidden_action(page, "nm-build") == {"type": "build", "card": "3o", "with": ["2b"]}
    page = select(client, game, card="5g", picked="2b").content.decode()
    assert "disabled" in button(page, "nm-build")
    assert "To build 7 you must keep a 7 card in your hand." in page


def test_a_wild_card_is_tapped_onto_the_items_it_fits(client, student, game):
    client.force_login(student)
    page = select(client, game, card="/2").content.decode()
    assert "Tap the centre card to change with your ÷2" in page
    assert hidden_action(page, "nm-item-10g") == {"type": "wild", "card": "/2", "target": "10g"}
    assert "10 ÷ 2 = 5" in page and "2 ÷ 2 = 1" in page
    assert "disabled" in button(page, "nm-item-3b")
    assert "÷2 on 3 does not give a whole number" in page
    assert hidden_action(page, "nm-discard-wild") == {"type": "discard_wild", "card": "/2"}


@pytest.mark.parametrize("query, status, message", [
    ({"card": "zz"}, 400, "That is not a Numero card"),
    ({"picked": "2b"}, 400, "Choose a card from your hand first."),
    ({"card": "5g", "picked": "2b,,3b"}, 400, "The picked cards are not written the right way."),
    ({"card": "5g", "picked": "2b|<b>"}, 400, "The picked cards are not written the right way."),
    ({"card": "5g", "picked": "2b," * 300}, 400, "too many cards"),
    ({"card": "12r"}, 200, "You don&#x27;t have the red 12 in your hand."),
    ({"card": "5g", "picked": "1g"}, 200, "There is no green 1 in the centre."),
    ({"card": "5g", "picked": "2b|2b"}, 200, "You used the same centre card twice."),
])
def test_bad_selections_are_explained_and_change_nothing(client, student, game, query, status, message):
    client.force_login(student)
    response = select(client, game, **query)
    assert response.status_code == status
    assert message in response.content.decode()
    assert 'aria-pressed="true"' not in response.content.decode() or query.get("card") == "5g"
    game.refresh_from_db()
    assert game.version == 0 and not Move.objects.exists()


def test_only_the_seated_player_may_ask(client, classroom, make_student, make_teacher, make_classroom,
                                        teacher, student, game):
    url = reverse("games:selection", args=[game.pk]) + "?card=5g"
    assert client.get(url).status_code == 404  # signed out
    client.force_login(make_student(classroom, "Ben", ("boat", "star", "apple")))
    assert client.get(url).status_code == 404
    client.force_login(teacher)
    assert client.get(url).status_code == 403
    client.force_login(make_teacher())
    assert client.get(url).status_code == 404
    client.force_login(student)
    assert client.post(url).status_code == 405
    other = game_create(key="smooth_operator", classroom=classroom, seed=2,
                        seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="player")])
    assert client.get(reverse("games:selection", args=[other.pk])).status_code == 404


# ----- moves made from the selection ----------------------------------------------------------
def test_a_wild_then_a_take_from_the_buttons_go_through_the_move_service(client, student, game):
    client.force_login(student)
    ann = game.seats.get(name="Ann")
    wild = hidden_action(select(client, game, card="/2").content.decode(), "nm-item-10g")
    assert game_apply_move(game_id=game.pk, seat=ann, action=wild, expected_version=0,
                           schedule_bots=False).applied
    page = select(client, game, card="5g").content.decode()
    assert "hx-get" in button(page, "nm-item-10g") and "changed by a wild card" in page
    take = hidden_action(select(client, game, card="5g", picked="10g").content.decode(), "nm-take")
    result = game_apply_move(game_id=game.pk, seat=ann, action=take, expected_version=1,
                             schedule_bots=False)
    assert result.applied
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Ann played wild card ÷2 on green 10: 10 ÷ 2 = 5." in page
    assert "Ann took with green 5 (5): 1 take, 3 cards." in page
    assert "Ann (you)</strong>: 3 cards won" in page


def test_a_build_shows_its_value_and_builder_to_everyone(client, student, teacher, classroom):
    game = numero(classroom, student, centre=("2b", "10g"))
    client.force_login(student)
    build = hidden_action(select(client, game, card="3o", picked="2b").content.decode(), "nm-build")
    assert game_apply_move(game_id=game.pk, seat=game.seats.get(name="Ann"), action=build,
                           expected_version=0, schedule_bots=False).applied
    for viewer in (student, teacher):
        client.force_login(viewer)
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert "Build of 5 by Ann" in page and 'aria-label="5: build by Ann (2 blue, 3 orange)"' in page
        assert "Ann built 2 + 3 = 5 with orange 3." in page


# ----- Solitaire --------------------------------------------------------------------------------
def test_solitaire_renders_and_a_take_can_be_made(client, student, classroom):
    game = numero(classroom, student, key="numero_solitaire", centre=("2b", "3b", "10g", "4o", "7g"))
    client.force_login(student)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Numero Solitaire" in page and "Your turn: tap a card from your hand" in page
    assert "in hand" not in page  # no rivals to count cards for
    picked = select(client, game, card="5g", picked="2b,3b").content.decode()
    assert 'id="nm-build"' not in picked and 'id="nm-discard"' not in picked
    take = hidden_action(picked, "nm-take")
    assert game_apply_move(game_id=game.pk, seat=game.seats.get(), action=take,
                           expected_version=0, schedule_bots=False).applied
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Ann took with green 5 (2 + 3 = 5): 1 take, 3 cards." in page
    assert "The centre was refilled with" in page


def test_numero_is_open_for_free_play(client, student):
    client.force_login(student)
    home = client.get(reverse("classroom:student_home")).content.decode()
    for key in ("numero", "numero_solitaire"):
        assert f'action="{reverse("games:free_play_start", args=[key])}"' in home
    response = client.post(reverse("games:free_play_start", args=["numero_solitaire"]))
    game = Game.objects.get()
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert client.get(response["Location"]).status_code == 200


# ----- over the WebSocket -----------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_illegal_move_is_explained_and_a_legal_take_is_applied(classroom, student):
    game = await sync_to_async(numero)(classroom, student, centre=("2b", "3b", "10g"))
    web = Client()
    await sync_to_async(web.force_login)(student)
    comm = connect_as(student, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)

    def send(action, key):
        return comm.send_to(text_data=json.dumps({"action": json.dumps(action), "expected_version": "0",
                                                  "idempotency_key": key}))

    await send({"type": "take", "card": "5g", "groups": [["2b"]]}, "illegal-take-1")
    reply = await comm.receive_from(timeout=5)
    assert "That centre card is worth 2, not 5, so your green 5 can&#x27;t take it." in reply
    assert (await Game.objects.aget(pk=game.pk)).version == 0
    page = await sync_to_async(lambda: select(web, game, card="5g", picked="2b,3b").content.decode())()
    await send(hidden_action(page, "nm-take"), "legal-take-01")
    reply = await comm.receive_from(timeout=5)
    assert "Ann took with green 5 (2 + 3 = 5): 1 take, 3 cards." in reply
    assert "Ann (you)</strong>: 3 cards won" in reply
    await comm.disconnect()


def test_a_fresh_build_can_be_challenged_with_a_button(client, student, classroom):
    options = {"wilds": [], "scoring": True, "challenges": True}
    game = numero(classroom, student, centre=("2b", "10g"), options=options,
                  hands={"Ann": ["5g", "3o", "8b", "9r", "11g"], "Robo": ["1g", "4o", "6b", "7r", "12r"]})
    engine = engines.get("numero")
    state, _ = engine.apply(game.state, "Ann", {"type": "discard", "card": "9r"})
    state, _ = engine.apply(state, "Robo", {"type": "build", "card": "1g", "with": ["10g"]})  # a bluff
    Game.objects.filter(pk=game.pk).update(state=state)
    client.force_login(student)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Build of 11 by Robo" in page
    challenge = hidden_action(page, "nm-challenge-10g")
    assert challenge == {"type": "challenge", "target": "10g"}
    assert "Challenge Robo’s build of 11" in page


def test_a_finished_solitaire_game_has_results_and_a_replay(client, student, teacher, classroom):
    game = game_create(key="numero_solitaire", classroom=classroom, seed=4,
                       options={"wilds": ["subtract", "divide"]}, seats=[SeatSpec("Ann", user=student)])
    engine, ann = engines.get(game.key), game.seats.get()
    for _ in range(200):
        game.refresh_from_db()
        if game.state["finished"]:
            break
        action = engines.make_bot(game.key, "beginner", game.version).choose(engine.view(game.state, "Ann"))
        assert game_apply_move(game_id=game.pk, seat=ann, action=action,
                               expected_version=game.version, schedule_bots=False).applied
    assert game.state["finished"]
    client.force_login(student)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Game over" in page or "You won!" in page
    assert "/selection/" not in page and "ws-send" not in page
    late = select(client, game, card=(game.state["hands"]["Ann"] or ["5g"])[0])
    assert late.status_code == 200 and "ws-send" not in late.content.decode()
    replay = reverse("games:replay", args=[game.pk])
    assert "Move 1 of" in client.get(replay + "?turn=1").content.decode()
    client.force_login(teacher)
    assert client.get(replay + "?turn=2").status_code == 200
