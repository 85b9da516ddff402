"""/metrics: off by default, token-protected when a token is set, and counting what
happens: rooms, moves (bots' apart), games, sockets, pushes, database errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from app.core.config import Settings
from app.play import store
from app.play.rooms import RoomRules
from app.play.store import Conflict
from app.services import Services, create_app
from app.web.metrics import Metrics

TOKEN = "scrape-me-0123456789"


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    on = settings.model_copy(update={"metrics_enabled": True, "metrics_token": TOKEN})
    with TestClient(create_app(on)) as client:
        yield client


def _scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_are_off_unless_switched_on(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        response = client.get("/metrics")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_metrics_want_the_token_when_one_is_set(client: TestClient) -> None:
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", headers={"Authorization": "Bearer not-it"})
    assert wrong.status_code == 401
    assert wrong.json()["code"] == "bad_token"
    assert (
        "spieltisch_moves"
        in client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    )


def test_metrics_without_a_token_answer_only_this_machine(settings: Settings) -> None:
    """(Who counts as this machine, behind proxies too: tests/app/test_exposure.py.)"""
    open_ = settings.model_copy(update={"metrics_enabled": True})
    with TestClient(create_app(open_)) as client:
        assert client.get("/metrics").status_code == 403
    local = {"base_url": "http://127.0.0.1:8000", "client": ("127.0.0.1", 40000)}
    with TestClient(create_app(open_), **local) as client:  # type: ignore[arg-type]
        assert client.get("/metrics").status_code == 200


def test_metrics_count_rooms_moves_bot_moves_games_sockets_and_pushes(client: TestClient) -> None:
    created = client.post(
        "/api/rooms",
        json={"game": "secret", "players": 2, "name": "Anna", "bots": {"1": "one"}},
    ).json()
    room, token = created["room"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    with client.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        state = ws.receive_json()
        during = _scrape(client)  # on PostgreSQL other tests' rooms are counted too
        assert _value(during, "spieltisch_websocket_connections") == 1
        assert _value(during, "spieltisch_rooms_live") == 1
        client.post(f"/api/rooms/{room}/start", headers=auth)
        # Anna always says 3, the bot always 1, until someone reaches the target
        while state.get("result") is None:
            state = ws.receive_json()
            if state["type"] == "state" and state["legal_moves"] and state["result"] is None:
                client.post(
                    f"/api/rooms/{room}/moves",
                    json={"seq": state["seq"], "move": {"n": 3}},
                    headers=auth,
                )
        samples = _scrape(client)
    log = client.get(f"/api/rooms/{room}/events").json()["events"]
    moves = [e for e in log if e["kind"] == "move"]
    bot_moves = [e for e in moves if e["seat"] == 1]
    assert moves and bot_moves
    assert _value(samples, "spieltisch_moves_total", game="secret") == len(moves)
    assert _value(samples, "spieltisch_bot_moves_total", game="secret") == len(bot_moves)
    assert _value(samples, "spieltisch_rooms_created_total", game="secret") == 1
    assert _value(samples, "spieltisch_games_started_total", game="secret") == 1
    assert _value(samples, "spieltisch_games_finished_total", game="secret") == 1
    for status, change in [("lobby", -1), ("playing", 0), ("finished", 1)]:
        assert _value(samples, "spieltisch_rooms", status=status) == (
            _value(during, "spieltisch_rooms", status=status) + change
        ), status
    assert _value(samples, "spieltisch_push_seconds_count") >= len(moves)


def test_closed_sockets_leave_the_gauges(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "secret", "players": 2, "name": "A"}).json()
    with client.websocket_connect(f"/api/rooms/{created['room']}/ws") as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        assert _value(_scrape(client), "spieltisch_websocket_connections") == 1
    # the server notices the close on its own time: ask until it has
    for _ in range(500):
        samples = _scrape(client)
        if _value(samples, "spieltisch_websocket_connections") == 0:
            break
    assert _value(samples, "spieltisch_websocket_connections") == 0
    assert _value(samples, "spieltisch_rooms_live") == 0


async def test_database_errors_are_counted_but_seq_races_are_not(services: Services) -> None:
    metrics = Metrics()
    metrics.attach(services)
    state, _ = await services.rooms.create(
        game="secret", players=2, options=None, name="A", seat=0, bots={}, rules=RoomRules()
    )
    with pytest.raises(Conflict):
        async with services.rooms.db.transaction() as session:
            await store.append_events(session, state.room.id, 1, [("chat", {}, {})])
    assert _errors(metrics) == 0
    with pytest.raises(Exception, match=r"no_such_table"):
        async with services.engine.connect() as conn:
            await conn.execute(text("SELECT * FROM no_such_table"))
    assert _errors(metrics) == 1


def _errors(metrics: Metrics) -> float:
    return sum(
        sample.value
        for family in metrics.registry.collect()
        for sample in family.samples
        if sample.name == "spieltisch_database_errors_total"
    )


def test_alert_deliveries_have_a_counter_for_the_alert_sender() -> None:
    metrics = Metrics()
    metrics.alert_deliveries.labels(channel="email", outcome="sent").inc()
    exposed = generate_latest(metrics.registry)
    assert b'spieltisch_alert_deliveries_total{channel="email",outcome="sent"} 1.0' in exposed
