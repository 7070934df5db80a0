"""The container files say what a deployment needs (read, not built: the tests run without a
Docker engine): Dockerfile, compose.yaml, and the deployment guide's advice on secrets."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", dockerfile)
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def stages(dockerfile: str) -> list[list[tuple[str, str]]]:
    """The instructions of each build stage."""
    result: list[list[tuple[str, str]]] = []
    for word, rest in instructions(dockerfile):
        if word == "FROM":
            result.append([])
        if result:
            result[-1].append((word, rest))
    return result


def test_the_dockerfile_builds_the_compiled_engine_and_runs_it_as_a_user_with_a_volume_and_healthcheck():
    build, run = stages((ROOT / "Dockerfile").read_text())
    assert build[0] == ("FROM", "python:3.11-slim AS build")
    build_runs = " ".join(rest for word, rest in build if word == "RUN")
    assert "gcc" in build_runs and "pip install --no-cache-dir -r requirements.txt" in build_runs
    assert "ARGO_COMPILE=1 /opt/venv/bin/pip install" in build_runs and "assert a.COMPILED" in build_runs

    assert run[0][1].startswith("python:3.11-slim") and "gcc" not in str(run)
    assert ("COPY", "--from=build /opt/venv /opt/venv") in run
    env = " ".join(rest for word, rest in run if word == "ENV")
    assert "DATABASE_PATH=/data/games.db" in env and "METRICS_PORT=8080" in env
    assert ("VOLUME", '["/data"]') in run
    users = [rest for word, rest in run if word == "USER"]
    assert users == ["argo"], users  # not root
    assert any(word == "RUN" and "useradd" in rest and "chown argo:argo /data" in rest for word, rest in run)
    health = [rest for word, rest in run if word == "HEALTHCHECK"]
    assert len(health) == 1 and "/healthz" in health[0] and "--interval=" in health[0]
    assert run[-1] == ("CMD", '["python", "-m", "bot"]')
    # No secret is baked into the image.
    assert "DISCORD_TOKEN" not in env and "DATABASE_URL" not in env and "ARG" not in [w for w, _ in run]


def test_the_dockerignore_keeps_secrets_and_local_builds_out():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".env", ".venv", "data", "**/*.so", ".git"):
        assert entry in ignored


def service(compose: str, name: str) -> str:
    """The text of one service of compose.yaml (its indented block)."""
    found = re.search(rf"^  {name}:\n((?:    .*\n|\s*\n)+)", compose, re.MULTILINE)
    assert found, f"no service {name}"
    return found.group(1)


def test_compose_runs_the_bot_on_postgres_with_a_named_volume_waiting_for_a_healthy_database():
    compose = (ROOT / "compose.yaml").read_text()
    db, bot = service(compose, "db"), service(compose, "bot")
    assert re.search(r"image: postgres:\d+", db)
    assert "- pgdata:/var/lib/postgresql/data" in db
    assert re.search(r"^volumes:\n  pgdata:", compose, re.MULTILINE)
    assert "healthcheck:" in db and "pg_isready" in db
    assert "build: ." in bot
    assert "DATABASE_URL: postgresql://argo:${POSTGRES_PASSWORD}@db:5432/argo" in bot
    assert re.search(r"depends_on:\n\s+db:\n\s+condition: service_healthy", bot)
    grace = re.search(r"stop_grace_period: (\d+)s", bot)
    assert grace and int(grace[1]) > 10  # above SHUTDOWN_GRACE
    # Secrets only by reference to the environment, each required.
    assert "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?" in db and "DISCORD_TOKEN: ${DISCORD_TOKEN:?" in bot
    assert not re.search(r"(PASSWORD|TOKEN): (?!\$\{)", compose)


def test_the_deploy_guide_covers_each_way_and_never_puts_a_secret_inline():
    guide = (ROOT / "docs" / "deploy.md").read_text()
    for heading in ("Docker", "compose", "systemd", "Fly", "Railway"):
        assert heading in guide, heading
    assert "EnvironmentFile=" in guide and "fly volumes create" in guide
    procfile = (ROOT / "Procfile").read_text()
    assert procfile.strip() == "worker: python -m bot"
    # A Procfile or unit line never carries a password or a token.
    for line in guide.splitlines():
        if line.startswith(("worker:", "web:", "ExecStart=", "Environment=")):
            assert not re.search(r"postgres(ql)?://[^:/\s]+:[^@\s$]+@|DISCORD_TOKEN=\S", line), line
