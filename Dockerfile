# Inland Port: one image for the app; `docker compose up` adds PostgreSQL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    WS_DEFLATE_WINDOW_BITS=15 \
    WS_DEFLATE_MEM_LEVEL=5 \
    WS_DEFLATE_KEEP_CONTEXT=false

WORKDIR /srv
# The app reads templates/, static/ and migrations/ beside its package: install it in place.
# The runtime dependencies from the lock file first (every version pinned, every file hashed), in
# a layer of their own that a change to the code does not invalidate.
COPY requirements/runtime.txt ./requirements/
RUN pip install --no-cache-dir --require-hashes -r requirements/runtime.txt
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install --no-cache-dir --no-deps -e .

RUN useradd --system --home /srv inland && mkdir -p /data && chown inland /data
USER inland
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"

# Applies the migrations, then serves.
CMD ["python", "-m", "app"]
