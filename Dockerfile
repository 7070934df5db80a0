# syntax=docker/dockerfile:1
# The bot as a container: `docker build -t argo-bot .`, then see docs/deploy.md (compose.yaml
# runs it with PostgreSQL). Secrets (DISCORD_TOKEN, DATABASE_URL) come from the environment at
# run time, never from this file.

# -- build: the exact dependencies, then the bot with the Argo engine compiled by mypyc ----------
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
RUN python -m venv /opt/venv
COPY requirements.txt ./
RUN /opt/venv/bin/pip install --no-cache-dir -r requirements.txt
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY _build ./_build
COPY bot ./bot
COPY cogs ./cogs
COPY render ./render
# ARGO_COMPILE=1: the build backend adds mypy to the (isolated) build requirements and setup.py
# compiles bot/engine/argo; the check fails the build if the engine came out uncompiled.
RUN ARGO_COMPILE=1 /opt/venv/bin/pip install --no-cache-dir --no-deps . \
    && cd / && /opt/venv/bin/python -c "import bot.engine.argo as a; assert a.COMPILED, 'not compiled'"

# -- run: no compiler, a non-root user, the SQLite file on a volume ---------------------------
FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/argo argo \
    && mkdir -p /data && chown argo:argo /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/games.db \
    METRICS_PORT=8080 \
    METRICS_HOST=0.0.0.0
# The SQLite database (when DATABASE_URL is not PostgreSQL) lives here: mount a volume on it.
VOLUME ["/data"]
WORKDIR /home/argo
USER argo
EXPOSE 8080
# /healthz (= /readyz): 200 while the gateway is up, the database answered its last background
# check and the tending loop ticks (/livez: the process and its event loop only; docs/deploy.md).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('METRICS_PORT', '8080'), timeout=4)"]
# SIGTERM: the bot finishes the replies in progress (SHUTDOWN_GRACE, default 10 s) and closes the
# database; give it a stop timeout above that (compose.yaml: stop_grace_period; docker run/stop: -t 30).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
