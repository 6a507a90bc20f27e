"""Inland Port's web server: rooms, seats and moves over HTTP, JSON and WebSockets."""
