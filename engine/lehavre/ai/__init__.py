"""The computer player for Le Havre (docs/le-havre/ai.md)."""
