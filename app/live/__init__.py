"""Live boards: the room hub, its sockets, board frames and patches, and the notifications between processes."""
