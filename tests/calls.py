"""Small steps every REST test takes: a seat token as the header the routes read, and
a refusal checked for its status, its stable code and a sentence for people."""

from __future__ import annotations

from typing import Any


def auth(token: str) -> dict[str, str]:
    """The header that carries a seat token (never the URL)."""
    return {"Authorization": f"Bearer {token}"}


def refused(response: Any, status: int, code: str) -> None:
    """``response`` is the error ``status`` with ``code`` and a message to show."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and body["message"], body
