"""A real PostgreSQL server for the tests: started once per test session, stopped at its end.

The server binaries come from the system (``.ci/run`` installs them on a fresh machine):
``PG_BIN`` if set, else the newest ``/usr/lib/postgresql/*/bin``, else ``initdb`` on the PATH.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` OS user.
If no server can be started, :func:`start` raises :class:`NoServer` with the reason: the tests
that need it then fail (they are never skipped).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path


class NoServer(RuntimeError):
    """No PostgreSQL server could be started for the tests."""


def _bin_dir() -> Path:
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise NoServer(
        "no PostgreSQL server binaries found (looked at $PG_BIN, /usr/lib/postgresql/*/bin and "
        "the PATH): install them with `apt-get install -y postgresql` (.ci/run does)"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A running throw-away server; :meth:`database` makes a fresh empty database on it."""

    folder: Path
    port: int
    bin_dir: Path
    user: str | None

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    def database(self) -> str:
        """The URL of a new, empty database."""
        name = "t_" + uuid.uuid4().hex[:12]
        done = self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        if done.returncode != 0:
            raise NoServer(f"createdb failed: {done.stderr.strip()}")
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- outages: the same server stopped and started again, or frozen ---------------------------

    def halt(self) -> None:
        """Stop the server, keeping its data for :meth:`resume`: every session is ended at once
        (a fast shutdown; not "immediate", which would lose commits with synchronous_commit=off)."""
        done = self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")
        if done.returncode != 0:
            raise NoServer(f"pg_ctl stop failed: {done.stderr.strip()}")

    def resume(self) -> None:
        """Start the server halted by :meth:`halt` again: same data, port and options."""
        import shlex

        data = self.folder / "data"
        # postmaster.opts holds the server's last command line: the binary, then its arguments.
        options = shlex.split((data / "postmaster.opts").read_text())[1:]
        at = options.index("-D")
        del options[at : at + 2]
        log = str(self.folder / "log")
        done = self._run("pg_ctl", "-D", str(data), "-l", log, "-o", shlex.join(options), "-w", "start")
        if done.returncode != 0:
            raise NoServer(f"the PostgreSQL server did not start again: {done.stderr.strip()}")

    def _processes(self) -> list[int]:
        """The postmaster's pid, then those of its children (backends and helpers)."""
        postmaster = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                    children.append(int(stat.parent.name))
        return [postmaster, *children]

    def freeze(self) -> None:
        """SIGSTOP the whole server (postmaster and backends): connections stay open, nothing answers."""
        import signal

        for pid in self._processes():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT what :meth:`freeze` stopped."""
        import signal

        for pid in reversed(self._processes()):
            os.kill(pid, signal.SIGCONT)


def start() -> Server:
    """Initialise and start a server in a temporary folder (trust auth, 127.0.0.1, a free port)."""
    bin_dir = _bin_dir()
    user = None
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        user = "postgres"
        if shutil.which("runuser") is None:
            raise NoServer("running as root, and runuser is missing to start PostgreSQL as 'postgres'")
    folder = Path(tempfile.mkdtemp(prefix="pgtest-"))
    if user is not None:
        shutil.chown(folder, user=user)
        folder.chmod(0o700)
    server = Server(folder, _free_port(), bin_dir, user)
    done = server._run(
        "initdb", "-D", str(folder / "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"
    )
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"initdb failed: {(done.stderr or done.stdout).strip()[-500:]}")
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={server.port} -k {folder} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    done = server._run(
        "pg_ctl",
        "-D",
        str(folder / "data"),
        "-l",
        str(folder / "log"),
        "-o",
        options,
        "-w",
        "-t",
        "60",
        "start",
    )
    if done.returncode != 0:
        log = ""
        with contextlib.suppress(OSError):
            log = (folder / "log").read_text()[-800:]
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"the PostgreSQL server did not start: {done.stderr.strip()} {log}".strip())
    return server
