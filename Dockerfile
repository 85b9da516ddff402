# Spieltisch: one image, the app on port 8000; migrations run before the server starts.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATA_DIR=/data

WORKDIR /srv/spieltisch

COPY pyproject.toml README.md ./
COPY app ./app
COPY engines ./engines
RUN pip install --no-compile .

COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static

RUN useradd --system --home /srv/spieltisch spieltisch \
    && mkdir -p /data && chown spieltisch /data
USER spieltisch
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"

CMD ["sh", "-c", "alembic upgrade head && exec python -m app --host 0.0.0.0 --port 8000 --no-migrate"]
