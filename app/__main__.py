"""``python -m app``: serve (migrating first), or one of the verbs in ``app.cli``."""

from __future__ import annotations

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
