"""The edge: what every request and socket meets before the routes (headers, Origin guards, limits, cookies, the header deadline, HEAD, capability tokens and links)."""
