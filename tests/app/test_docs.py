"""The docs stay true: every setting is in the README, every public path in the protocol."""

from __future__ import annotations

from app.core.config import Settings
from tests.server import ROOT

README = (ROOT / "README.md").read_text()
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()


def test_readme_opens_with_the_two_commands() -> None:
    commands = [
        line.split("#")[0].strip() for line in README.splitlines() if line.startswith("make ")
    ]
    assert commands[:2] == ["make run", "make test"]


def test_every_setting_is_documented_in_the_readme() -> None:
    for name in Settings.model_fields:
        assert f"`{name.upper()}`" in README, name


def test_every_public_path_and_message_is_in_the_protocol_doc() -> None:
    for text in [
        "GET /api/games",
        "POST /api/rooms",
        "GET /api/rooms/{room}",
        "POST /api/rooms/{room}/seats/{seat}",
        "POST /api/rooms/{room}/start",
        "GET /api/rooms/{room}/state",
        "POST /api/rooms/{room}/moves",
        "GET /api/rooms/{room}/events",
        "WS /api/rooms/{room}/ws",
        "GET /api/rooms/{room}/alerts",
        "GET /api/rooms/{room}/games",
        "GET /api/rooms/{room}/games/{game_no}",
        "GET /api/rooms/{room}/games/{game_no}/steps/{step}",
        "GET /api/rooms/{room}/games/{game_no}/record",
        "GET /api/rooms/{room}/games/{game_no}/record.{format}",
        "POST /api/records",
        "POST /api/records/{format}",
        "POST /api/records/verify",
        "GET /api/rooms/{room}/alerts/vapid-key",
        "POST /api/rooms/{room}/alerts/push",
        "DELETE /api/rooms/{room}/alerts/push",
        "PUT /api/rooms/{room}/alerts/email",
        "DELETE /api/rooms/{room}/alerts/email",
        "GET /api/rooms/{room}/alerts/stop",
        "GET /api/rooms/{room}/alerts/confirm",
        "PUT /api/rooms/{room}/alerts/webhook",
        "DELETE /api/rooms/{room}/alerts/webhook",
        "PUT /api/rooms/{room}/alerts/lang",
        "PUT /api/rooms/{room}/alerts/kinds",
        "POST /api/rooms/{room}/leave",
        "POST /api/rooms/{room}/seats/{seat}/take-back",
        "POST /api/rooms/{room}/seats/{seat}/hand-over",
        "POST /api/rooms/{room}/seats/{seat}/free",
        "GET /api/rooms/{room}/deadlines",
        "POST /api/rooms/{room}/away",
        "DELETE /api/rooms/{room}/away",
        "POST /api/away",
        "DELETE /api/away",
        '"type": "hello"',
        '"type": "move"',
        '"type": "chat"',
        '"type": "ping"',
        '"type": "state"',
        '"type": "presence"',
        '"type": "ack"',
        '"type": "error"',
        '"type": "pong"',
    ]:
        assert text in PROTOCOL, text
