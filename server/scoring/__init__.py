"""Scoring: the field's scores and standings, the results the director writes, adjusted scores,
penalties, a Swiss's pairing and victory points, and the double-dummy analysis of released
boards."""
