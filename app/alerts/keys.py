"""The server's own secrets for alerts: the VAPID key pair and the resume-token key.

Both are made on first start and kept in the database (table ``alert_keys``), so
every process on one database signs and decrypts alike; settings may supply them
instead (``VAPID_PRIVATE_KEY``, ``ALERT_SECRET``).

Why a resume key: a mail carries the seat's resume link, and the link must hold
the seat token itself, which the server otherwise keeps only hashed. When someone
leaves an address, the browser's request carries the token (as its bearer); the
server keeps it encrypted with this key beside the address, decrypts it only to
write a mail, and never logs it. With ``ALERT_SECRET`` set, a copy of the database
alone does not yield any token.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid

from app.alerts import store as alert_store
from app.core.config import Settings
from app.play.store import Store


@dataclass(frozen=True)
class AlertKeys:
    vapid: Vapid
    fernet: Fernet

    @property
    def vapid_public_key(self) -> str:
        """The application server key a browser subscribes with (base64url, no padding)."""
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    def seal(self, token: str) -> str:
        return self.fernet.encrypt(token.encode()).decode()

    def open(self, sealed: str) -> str | None:
        try:
            return self.fernet.decrypt(sealed.encode()).decode()
        except (InvalidToken, ValueError):
            return None


async def load_keys(db: Store, settings: Settings) -> AlertKeys:
    """The keys from the settings, else from the database (made there on first start)."""
    async with db.transaction() as session:
        if settings.vapid_private_key:
            pem = settings.vapid_private_key
        else:
            fresh = Vapid()
            fresh.generate_keys()
            pem = await alert_store.key(session, "vapid_private", fresh.private_pem().decode())
        secret = settings.alert_secret or await alert_store.key(
            session, "resume_secret", Fernet.generate_key().decode()
        )
    vapid = Vapid.from_pem(pem.encode()) if "BEGIN" in pem else Vapid.from_string(pem)
    return AlertKeys(vapid=vapid, fernet=Fernet(secret.encode()))
