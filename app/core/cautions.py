"""Settings that start a server but leave something off or open: said at start-up, as a
warning in the log, and by ``python -m app check``.

Each caution is a fault (the operator asked for something that can't work: mail
without the address its links need) or a warning (it works, but less is protected
than the operator may think: metrics without a token).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.core.config import Settings

log = logging.getLogger("spieltisch.settings")


@dataclass(frozen=True)
class Caution:
    fault: bool
    text: str


def cautions(settings: Settings) -> list[Caution]:
    found: list[Caution] = []
    if settings.smtp_host and not settings.link_base:
        found.append(
            Caution(
                True,
                "mail: SMTP_HOST is set but PUBLIC_URL is not (or is no http(s) address): "
                "no mail goes out and the e-mail option is hidden, because every link in a "
                "mail is built from PUBLIC_URL and never from a request. Set PUBLIC_URL to "
                "the address people reach the site at.",
            )
        )
    if settings.metrics_enabled and not settings.metrics_token:
        found.append(
            Caution(
                False,
                "metrics: METRICS_ENABLED without METRICS_TOKEN: /metrics answers only "
                "clients on this machine's loopback (and, behind a proxy, only with "
                "TRUST_PROXY_HEADERS and the forwarded address on loopback). Set "
                "METRICS_TOKEN to scrape from anywhere else.",
            )
        )
    return found


def warn_at_start(settings: Settings) -> None:
    for caution in cautions(settings):
        log.warning("%s %s", "NOT WORKING:" if caution.fault else "CAUTION:", caution.text)
