"""What pages, the API, the sockets and the computer read: queries, the game log, positions, views."""
