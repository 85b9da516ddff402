"""Shuffles anyone can check: a commitment to the seed when a game starts.

``game_started`` keeps the seed and a random salt private and publishes
``sha256("<seed>:<salt>")``. Once the game is over the seed and salt become part
of the game's record, and anyone can recompute the commitment, deal again from
the seed and replay every move to the same result (``app/history/verify.py``).
"""

from __future__ import annotations

import hashlib
import secrets

# the start of the salt of a game whose seed came from an imported record: the
# commitment binds it, so a record can't pass such a game off as one a server dealt
IMPORTED_SALT = "imported-"


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (hex) of ``"<seed>:<salt>"``; it binds the deal before it happens."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()
