"""A browser's side of Web Push, made by the test: subscription keys and decryption."""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class PushKeys:
    """The key pair and auth secret a browser makes for one subscription."""

    private: ec.EllipticCurvePrivateKey
    auth: bytes

    @classmethod
    def make(cls) -> PushKeys:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> Any:
        """The JSON payload of an ``aes128gcm`` push body (fails if it isn't encrypted to us)."""
        plain = http_ece.decrypt(
            body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)
