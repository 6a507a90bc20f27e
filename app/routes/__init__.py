"""HTTP and WebSocket routes: `api` (JSON), `links` (capability links), `ws` (live boards),
`health`; the browser pages live in `pages`, the action panel and its moves in `panel`."""
