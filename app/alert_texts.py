"""What alerts say, in English, German and French, in the language each seat chose."""

from __future__ import annotations

LANGS = ("en", "de", "fr")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "turn": "Your turn",
        "reminder": "Time is running out",
        "title_with": "{what} — {game} with {names}",
        "title": "{what} — {game}",
        "and": "and",
        "push_body": "Open the table to play your move.",
        "mail_hello": "Hello {name},",
        "mail_turn": "it is your turn in {game} at Spieltisch.",
        "mail_reminder": "it is still your turn in {game} at Spieltisch, and time is running out.",
        "mail_link": "Open your seat (this link is yours alone; it also works on another device):",
        "mail_stop": "No more mails for this table:",
        "stopped_title": "Mails stopped",
        "stopped": "You will get no more mails about this table.",
        "stop_unknown": "This link is no longer valid; no mails go out with it.",
        "hook_turn": "It is {name}'s turn in {game}.",
        "hook_reminder": "{name}, time is running out in {game}.",
        "open": "Open the table",
    },
    "de": {
        "turn": "Du bist dran",
        "reminder": "Die Zeit wird knapp",
        "title_with": "{what} — {game} mit {names}",
        "title": "{what} — {game}",
        "and": "und",
        "push_body": "Öffne den Tisch und mach deinen Zug.",
        "mail_hello": "Hallo {name},",
        "mail_turn": "du bist in {game} auf Spieltisch am Zug.",
        "mail_reminder": "du bist in {game} auf Spieltisch noch am Zug, und die Zeit wird knapp.",
        "mail_link": "Zu deinem Platz (der Link gehört nur dir; er wirkt auch auf einem anderen Gerät):",
        "mail_stop": "Keine Mails mehr zu diesem Tisch:",
        "stopped_title": "Mails abbestellt",
        "stopped": "Du bekommst keine Mails mehr zu diesem Tisch.",
        "stop_unknown": "Dieser Link gilt nicht mehr; mit ihm gehen keine Mails mehr hinaus.",
        "hook_turn": "{name} ist in {game} am Zug.",
        "hook_reminder": "{name}, in {game} wird die Zeit knapp.",
        "open": "Zum Tisch",
    },
    "fr": {
        "turn": "À vous de jouer",
        "reminder": "Le temps presse",
        "title_with": "{what} — {game} avec {names}",
        "title": "{what} — {game}",
        "and": "et",
        "push_body": "Ouvrez la table pour jouer votre coup.",
        "mail_hello": "Bonjour {name},",
        "mail_turn": "c'est à vous de jouer à {game} sur Spieltisch.",
        "mail_reminder": "c'est toujours à vous de jouer à {game} sur Spieltisch, et le temps presse.",
        "mail_link": "Retrouvez votre place (ce lien n'est qu'à vous ; il marche aussi sur un autre appareil) :",
        "mail_stop": "Ne plus recevoir de mails pour cette table :",
        "stopped_title": "Mails désactivés",
        "stopped": "Vous ne recevrez plus de mails pour cette table.",
        "stop_unknown": "Ce lien n'est plus valable ; aucun mail ne part avec lui.",
        "hook_turn": "C'est à {name} de jouer à {game}.",
        "hook_reminder": "{name}, le temps presse à {game}.",
        "open": "Ouvrir la table",
    },
}


def text(lang: str, key: str, **values: str) -> str:
    table = TEXTS.get(lang, TEXTS["en"])
    return table[key].format(**values)


def names_list(lang: str, names: list[str]) -> str:
    """``Anna``, ``Anna and Ben``, ``Anna, Ben and Cleo`` in the language's words."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {text(lang, 'and')} {names[-1]}"


def title(lang: str, kind: str, game: str, others: list[str]) -> str:
    """E.g. "Your turn — Blokus with Anna"."""
    what = text(lang, "reminder" if kind == "reminder" else "turn")
    if others:
        return text(lang, "title_with", what=what, game=game, names=names_list(lang, others))
    return text(lang, "title", what=what, game=game)
