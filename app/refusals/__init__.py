"""Refusals: each code, its HTTP status and its sentence in each language."""
