"""HTTP and WebSocket routes: `api` (JSON), `links` (capability links), `ws` (live boards),
`health`; the browser pages live in `pages`."""
