"""Every kind of push a live page can receive (live/pushes.py) is produced here through the real
consumers, and every frame is checked against its declaration: its envelope, its version, and
its parts, each a top-level element with the declared id and `hx-swap-oob`, in the order the
envelope names them. Each type's producer must show every part the type declares, so a push
that gains, loses or renames a part without its declaration fails here; so does a consumer of
an undeclared type, and a declared type with no producer below.

A player's table is also checked for what the player may not see: two states that differ
only in another player's hidden cards or the deck order (tests/contract/helpers.py
`hidden_twins`) send that player the same frame, while the teacher's frame tells them apart.
"""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async

from arena.screen import push_if_changed
from arena.services import arena_create, arena_join, arena_start
from games import registry
from games.models import Game
from games.rendering import table_push
from games.realtime import broadcast_game_changed
from games.services import SeatSpec, game_create
from games.services.tables import table_join, table_open
from live.consumer import LiveConsumer
from live.envelope import read
from live.pushes import PUSHES
from reports.realtime import broadcast_dashboard_changed
from tests.contract.helpers import hidden_twins
from tests.sockets import connect_as, off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_debounce")]

KEYS = re.compile(r'name="idempotency_key" value="[^"]+"|data-form-key="[^"]+"')


@pytest.fixture
def ben(make_student, classroom):
    return make_student(classroom, "Ben", ("boat", "star", "apple"))


@pytest.fixture
def no_debounce(settings):
    settings.REPORTS_DASHBOARD_DEBOUNCE_SECONDS = 0
    settings.REPORTS_DASHBOARD_REFRESH_SECONDS = 0


class TopLevel(HTMLParser):
    """The top-level elements of a frame: (id, has hx-swap-oob) each, in order."""

    VOID = {"br", "img", "input", "meta", "hr", "link", "source", "wbr", "col", "area"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.found: list[tuple[str, bool]] = []
        self.text_outside = ""

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            attrs = dict(attrs)
            self.found.append((attrs.get("id") or "", "hx-swap-oob" in attrs))
        if tag not in self.VOID:
            self.depth += 1

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            attrs = dict(attrs)
            self.found.append((attrs.get("id") or "", "hx-swap-oob" in attrs))

    def handle_endtag(self, tag):
        if tag not in self.VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.text_outside += data.strip()


def check(frame: str, expected_type: str) -> list[str]:
    """The frame's part names, once it matches its declaration (else an AssertionError)."""
    kind, version, names, html = read(frame)
    assert kind == expected_type, (kind, expected_type)
    push = PUSHES[kind]
    # A game's version starts at 0; a socket's count at its first push, 1.
    assert isinstance(version, int) and version >= (0 if push.version == "game" else 1), \
        f"{kind}: version {version!r}"
    parser = TopLevel()
    parser.feed(html)
    parser.close()
    assert parser.depth == 0 and not parser.text_outside, f"{kind}: not a list of elements: {html[:200]}"
    ids = []
    for name in names:
        if name in push.parts:
            ids.append(push.parts[name])
        else:
            assert push.items and re.fullmatch(push.items, name), f"{kind}: undeclared part {name!r}"
            ids.append(name)
    assert [found_id for found_id, _ in parser.found] == ids, f"{kind}: parts {parser.found} for {names}"
    assert all(oob for _, oob in parser.found), f"{kind}: a part without hx-swap-oob"
    return names


async def frames_until_quiet(comm, first_timeout: float = 5) -> list[str]:
    frames = [await comm.receive_from(timeout=first_timeout)]
    while not await comm.receive_nothing(timeout=0.5):
        frames.append(await comm.receive_from(timeout=2))
    return frames


# ----- one producer per push type: the frames a page of that type is sent ----------------------

async def table_frames(ctx) -> list[str]:
    classroom, ann, ben = ctx["classroom"], ctx["student"], ctx["ben"]
    game = await sync_to_async(game_create)(
        key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
        seats=[SeatSpec("Ann", user=ann), SeatSpec("Ben", user=ben)])
    comm = connect_as(ann, game.pk)
    assert (await comm.connect())[0]
    frames = [await comm.receive_from(timeout=5)]  # everything (no ?v=)
    # A refused move: its answer, the notice part.
    await comm.send_to(text_data=json.dumps({"action": json.dumps({"type": "nonsense"}),
                                             "expected_version": str(game.version),
                                             "idempotency_key": "s" * 12}))
    frames += await frames_until_quiet(comm)
    # A change pushed to the group, rendered once by its maker (the after-commit path).
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(version=game.version + 1)
    push = await sync_to_async(table_push)(game_id=game.pk)
    await sync_to_async(broadcast_game_changed)(game_id=game.pk, message=push.message())
    frames += await frames_until_quiet(comm)
    # A sync from a page that missed something: everything again.
    await comm.send_to(text_data=json.dumps({"sync": game.version}))
    frames += await frames_until_quiet(comm)
    await comm.disconnect()
    return frames


async def lobby_frames(ctx) -> list[str]:
    game = await sync_to_async(table_open)(student=ctx["student"], key="multiplication")
    comm = connect_as(ctx["student"], game.pk, socket="lobby")
    assert (await comm.connect())[0]
    frames = [await comm.receive_from(timeout=5)]
    await sync_to_async(table_join)(student=ctx["ben"], game_id=game.pk)
    frames += await frames_until_quiet(comm)
    await comm.disconnect()
    return frames


async def dashboard_frames(ctx) -> list[str]:
    from reports.models import SkillRollup
    from reports.measures import all_measures

    from tests.reports.showing import rollup

    classroom, ann = ctx["classroom"], ctx["student"]
    measure = next(m for m in all_measures() if m.has_misses)
    await sync_to_async(rollup)(classroom, measure.id, student=ann, chances=20, misses=3)
    await sync_to_async(rollup)(classroom, measure.id, chances=40, misses=6)
    comm = connect_as(ctx["teacher"], classroom.pk, socket="reports/class")
    assert (await comm.connect(timeout=10))[0]
    frames = await frames_until_quiet(comm)
    await sync_to_async(SkillRollup.objects.filter(classroom=classroom, student=ann, measure=measure.id)
                        .update)(chances=99, misses=33)
    await sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    frames += await frames_until_quiet(comm)
    await comm.disconnect()
    return frames


async def _arena(ctx):
    arena = await sync_to_async(arena_create)(
        teacher=ctx["teacher"], classroom=ctx["classroom"], title="Friday arena", key="smooth_operator",
        options={"target": 200}, minutes=10, mode="points")
    for child in (ctx["student"], ctx["ben"]):
        await sync_to_async(arena_join)(student=child, arena_id=arena.pk)
    return arena


async def _arena_frames(user, socket: str, ctx) -> list[str]:
    """An arena page's frames: on connect, then once the arena starts (the projector's push is
    the one the ticker sends after a change, a student's the start's own)."""
    arena = await _arena(ctx)
    comm = _arena_socket(user, f"/ws/arena/{arena.pk}/{socket}/")
    assert (await comm.connect())[0]
    frames = [await comm.receive_from(timeout=5)]
    await sync_to_async(arena_start)(arena_id=arena.pk)
    if socket == "screen":
        await sync_to_async(push_if_changed)(arena_id=arena.pk)
    frames += await frames_until_quiet(comm)
    await comm.disconnect()
    return frames


async def arena_screen_frames(ctx) -> list[str]:
    return await _arena_frames(ctx["teacher"], "screen", ctx)


async def arena_me_frames(ctx) -> list[str]:
    return await _arena_frames(ctx["student"], "me", ctx)


def _arena_socket(user, path: str):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.sockets import cookie_for

    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie_for(user))]
    return WebsocketCommunicator(application, path, headers=headers)


PRODUCERS = {
    "table": table_frames,
    "lobby": lobby_frames,
    "dashboard": dashboard_frames,
    "arena-screen": arena_screen_frames,
    "arena-me": arena_me_frames,
}


def test_every_declared_push_has_a_producer_and_every_consumer_a_declared_type():
    assert set(PRODUCERS) == set(PUSHES)

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    import config.routing  # noqa: F401 - every consumer of the site imported

    types = {sub.push_type for sub in subclasses(LiveConsumer)}
    assert types == set(PUSHES), types ^ set(PUSHES)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", sorted(PUSHES))
async def test_every_push_matches_its_declaration(kind, teacher, classroom, student, ben):
    frames = await PRODUCERS[kind]({"teacher": teacher, "classroom": classroom, "student": student,
                                    "ben": ben})
    seen: set[str] = set()
    items = 0
    for frame in frames:
        for name in check(frame, kind):
            if name in PUSHES[kind].parts:
                seen.add(name)
            else:
                items += 1
    assert seen == set(PUSHES[kind].parts), f"{kind}: declared but never sent: {set(PUSHES[kind].parts) - seen}"
    if PUSHES[kind].items:
        assert items, f"{kind}: declares items, none was sent on its own"


async def _first_frame(user, game_id: int) -> str:
    comm = connect_as(user, game_id)
    assert (await comm.connect())[0]
    frame = await comm.receive_from(timeout=5)
    await comm.disconnect()
    return KEYS.sub("", frame)


@pytest.mark.asyncio
async def test_a_players_pushes_never_carry_what_they_may_not_see(teacher, classroom, student, ben):
    spec = registry.spec_for("smooth_operator")
    game = off_loop(game_create, key="smooth_operator", classroom=classroom, seed=11, options={"target": 200},
                    seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    state = game.state
    twins = [t for t in hidden_twins(spec, state, "Ann", random.Random(11)) if t.coach_differs]
    assert twins, "nothing hidden from Ann that the teacher sees"
    mine, coach = await _first_frame(student, game.pk), await _first_frame(teacher, game.pk)
    for twin in twins[:3]:
        off_loop(lambda: Game.objects.filter(pk=game.pk).update(state=twin.state))
        assert await _first_frame(student, game.pk) == mine, "Ann's frame shows a hidden thing"
        assert await _first_frame(teacher, game.pk) != coach, "the teacher's frame did not change"
        off_loop(lambda: Game.objects.filter(pk=game.pk).update(state=state))
