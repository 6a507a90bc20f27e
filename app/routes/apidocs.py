"""`/docs`: the JSON API's interactive documentation (Swagger UI), served from this origin.

Swagger UI is vendored under `static/vendor/swagger-ui/` and started by `static/js/api-docs.js`,
so the page loads nothing from another site and needs no inline script (docs/security.md).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Inland Port API</title>
<link rel="icon" href="/static/img/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi="/openapi.json"></div>
<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/static/js/api-docs.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
def api_docs() -> HTMLResponse:
    return HTMLResponse(PAGE)
