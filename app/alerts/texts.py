"""What alerts say, in English, German and French, in the language each seat chose."""

from __future__ import annotations

LANGS = ("en", "de", "fr")
TITLED = (
    "turn",
    "reminder",
    "game_over",
    "bot_took_seat",
    "chat",
)  # kinds with a title of their own

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
        "confirm_subject": "Confirm your address for turn alerts",
        "confirm_asked": "Someone at {site} asked for turn alerts of a {game} table to be sent to this address.",
        "confirm_do": "If that was you, confirm the address here (the link works for 7 days):",
        "confirm_ignore": "If it wasn't you, ignore this mail: no other mail goes to this address for that table unless the link is used.",
        "confirm_stop": "Cancel the request right away:",
        "confirm_title": "Confirm turn alerts",
        "confirm_page": "Mails about your turn at this {game} table will go to the address this link was sent to.",
        "confirm_button": "Confirm the address",
        "confirmed_title": "Address confirmed",
        "confirmed": "From now on you get a mail when it is your turn at this table.",
        "confirm_unknown": "This link is not valid. Entering the address again sends a new one.",
        "confirm_used": "This address is already confirmed; there is nothing more to do.",
        "confirm_expired": 'This link has expired. Enter your address again under "Notify me" at the table to get a new one.',
        "hook_turn": "It is {name}'s turn in {game}.",
        "hook_reminder": "{name}, time is running out in {game}.",
        "open": "Open the table",
        "game_over": "Game over",
        "bot_took_seat": "A bot plays for you",
        "chat": "New in the chat",
        "push_game_over": "Open the table to see how it ended.",
        "push_bot_took_seat": "Open the table to take your seat back.",
        "chat_one": "{name}: {text}",
        "chat_more": "{count} new messages; the last from {name}: {text}",
        "mail_game_over": "the game of {game} at Spieltisch is over.",
        "mail_bot_took_seat": "a bot now plays your seat in {game} at Spieltisch; open the table to take it back.",
        "mail_chat": "there is something new in the chat of your {game} table at Spieltisch:",
        "hook_game_over": "The {game} game is over.",
        "hook_bot_took_seat": "A bot now plays for {name} in {game}.",
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
        "confirm_subject": "Bestätige deine Adresse für Zug-Benachrichtigungen",
        "confirm_asked": "Auf {site} hat jemand darum gebeten, Benachrichtigungen eines {game}-Tischs an diese Adresse zu schicken.",
        "confirm_do": "Warst du das, bestätige die Adresse hier (der Link gilt 7 Tage):",
        "confirm_ignore": "Warst du es nicht, beachte diese Mail nicht: Ohne den Link geht keine weitere Mail zu diesem Tisch an diese Adresse.",
        "confirm_stop": "Die Anfrage gleich zurückziehen:",
        "confirm_title": "Benachrichtigungen bestätigen",
        "confirm_page": "Mails zu deinem Zug an diesem {game}-Tisch gehen an die Adresse, an die dieser Link geschickt wurde.",
        "confirm_button": "Adresse bestätigen",
        "confirmed_title": "Adresse bestätigt",
        "confirmed": "Ab jetzt bekommst du eine Mail, wenn du an diesem Tisch am Zug bist.",
        "confirm_unknown": "Dieser Link gilt nicht. Gibst du die Adresse noch einmal ein, kommt ein neuer.",
        "confirm_used": "Diese Adresse ist schon bestätigt; es ist nichts mehr zu tun.",
        "confirm_expired": "Dieser Link ist abgelaufen. Gib deine Adresse am Tisch unter „Benachrichtigen“ noch einmal ein, dann kommt ein neuer.",
        "hook_turn": "{name} ist in {game} am Zug.",
        "hook_reminder": "{name}, in {game} wird die Zeit knapp.",
        "open": "Zum Tisch",
        "game_over": "Spiel vorbei",
        "bot_took_seat": "Ein Bot spielt für dich",
        "chat": "Neu im Chat",
        "push_game_over": "Öffne den Tisch und sieh, wie es ausging.",
        "push_bot_took_seat": "Öffne den Tisch, um deinen Platz zurückzunehmen.",
        "chat_one": "{name}: {text}",
        "chat_more": "{count} neue Nachrichten; die letzte von {name}: {text}",
        "mail_game_over": "die Partie {game} auf Spieltisch ist zu Ende.",
        "mail_bot_took_seat": "in {game} auf Spieltisch spielt jetzt ein Bot deinen Platz; öffne den Tisch, um ihn zurückzunehmen.",
        "mail_chat": "im Chat deines {game}-Tischs auf Spieltisch gibt es Neues:",
        "hook_game_over": "Die Partie {game} ist zu Ende.",
        "hook_bot_took_seat": "In {game} spielt jetzt ein Bot für {name}.",
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
        "confirm_subject": "Confirmez votre adresse pour les alertes de tour",
        "confirm_asked": "Quelqu'un sur {site} a demandé que les alertes d'une table de {game} soient envoyées à cette adresse.",
        "confirm_do": "Si c'était vous, confirmez l'adresse ici (le lien est valable 7 jours) :",
        "confirm_ignore": "Si ce n'était pas vous, ignorez ce mail : aucun autre mail ne part vers cette adresse pour cette table tant que le lien n'est pas utilisé.",
        "confirm_stop": "Annuler la demande tout de suite :",
        "confirm_title": "Confirmer les alertes",
        "confirm_page": "Les mails pour votre tour à cette table de {game} iront à l'adresse à laquelle ce lien a été envoyé.",
        "confirm_button": "Confirmer l'adresse",
        "confirmed_title": "Adresse confirmée",
        "confirmed": "Désormais, vous recevez un mail quand c'est à vous de jouer à cette table.",
        "confirm_unknown": "Ce lien n'est pas valable. Saisir l'adresse à nouveau en envoie un nouveau.",
        "confirm_used": "Cette adresse est déjà confirmée ; il n'y a plus rien à faire.",
        "confirm_expired": "Ce lien a expiré. Saisissez à nouveau votre adresse sous « Me prévenir » à la table pour en recevoir un nouveau.",
        "hook_turn": "C'est à {name} de jouer à {game}.",
        "hook_reminder": "{name}, le temps presse à {game}.",
        "open": "Ouvrir la table",
        "game_over": "Partie terminée",
        "bot_took_seat": "Un bot joue pour vous",
        "chat": "Nouveau dans le chat",
        "push_game_over": "Ouvrez la table pour voir comment la partie s'est terminée.",
        "push_bot_took_seat": "Ouvrez la table pour reprendre votre place.",
        "chat_one": "{name} : {text}",
        "chat_more": "{count} nouveaux messages ; le dernier de {name} : {text}",
        "mail_game_over": "la partie de {game} sur Spieltisch est terminée.",
        "mail_bot_took_seat": "un bot joue maintenant votre place à {game} sur Spieltisch ; ouvrez la table pour la reprendre.",
        "mail_chat": "il y a du nouveau dans le chat de votre table de {game} sur Spieltisch :",
        "hook_game_over": "La partie de {game} est terminée.",
        "hook_bot_took_seat": "Un bot joue maintenant pour {name} à {game}.",
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
    what = text(lang, kind if kind in TITLED else "turn")
    if others:
        return text(lang, "title_with", what=what, game=game, names=names_list(lang, others))
    return text(lang, "title", what=what, game=game)
