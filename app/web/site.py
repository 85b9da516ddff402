"""What the browser needs to know about this site: the address its links should use."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

router = APIRouter(prefix="/api")


@router.get("/config", summary="Site settings the browser uses (the public address)")
async def site_config(request: Request) -> dict[str, Any]:
    public_url: str = request.app.state.services.settings.public_url
    return {"public_url": public_url.rstrip("/") or None}
