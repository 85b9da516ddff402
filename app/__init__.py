"""Spieltisch: the web service around the rule engines."""
