"""`make run`'s last step: serve the demo with Daphne, and say it is ready only once it is.

    python -m devtools.launch --host 127.0.0.1 --port 8000

Reads the demo's sign-in banner (devtools/demo.py `describe`) with the address it will serve,
starts Daphne (HTTP and WebSockets) on that host and port, waits until the port accepts
connections, then prints the banner. Ctrl-C (or SIGTERM) stops Daphne and waits for it. If the
port is taken or Daphne does not start, it says so and exits non-zero. Development only
(`config.settings.local` unless DJANGO_SETTINGS_MODULE says otherwise).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time

STARTUP_SECONDS = 90  # Daphne imports the whole project first
STOP_SECONDS = 10


def local_address(host: str) -> str:
    """Where this computer reaches a server bound to `host` (every address: the loopback)."""
    return {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


def url_for(host: str, port: int) -> str:
    address = local_address(host)
    return f"http://[{address}]:{port}" if ":" in address else f"http://{address}:{port}"


def accepting(host: str, port: int) -> bool:
    """True once something accepts connections on the port."""
    try:
        with socket.create_connection((local_address(host), port), timeout=0.5):
            return True
    except OSError:
        return False


def banner(url: str) -> str:
    """The demo's sign-in details with `url`; just the address if the demo is not loaded."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    from django.db import DatabaseError, connections

    from accounts.models import User
    from classroom.models import Classroom
    from classroom.selectors import students_of_class
    from devtools.demo import DEMO_CLASS_CODE, DEMO_EMAIL, DEMO_STUDENTS, describe

    plain = f"\nNumberdeck is ready at {url}\n"
    try:
        teacher = User.objects.filter(role=User.Role.TEACHER, email=DEMO_EMAIL).first()
        classroom = Classroom.objects.filter(join_code=DEMO_CLASS_CODE).first()
        if teacher is None or classroom is None:
            return plain
        by_name = {s.display_name: s for s in students_of_class(classroom=classroom)}
        students = [by_name[name] for name, _ in DEMO_STUDENTS if name in by_name]
        return describe(teacher, classroom, students, url=url)
    except DatabaseError:  # not migrated: the server will say what is missing
        return plain
    finally:
        connections.close_all()  # the server has the database to itself


def stop(server: subprocess.Popen) -> int:
    """Stop Daphne (it may have had the terminal's Ctrl-C already) and wait for it."""
    if server.poll() is None:
        server.terminate()  # SIGTERM: Twisted stops Daphne cleanly
    try:
        server.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    return 0


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args(argv)
    url = url_for(args.host, args.port)
    if accepting(args.host, args.port):
        print(f"Port {args.port} is already in use on {local_address(args.host)}: stop what uses it, "
              f"or choose another port, e.g. PORT={args.port + 1} make run", file=sys.stderr)
        return 1
    text = banner(url)
    print(f"Starting Numberdeck at {url} …", flush=True)
    signal.signal(signal.SIGTERM, _interrupted)
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", args.host, "-p", str(args.port),
                               "config.asgi:application"])
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not accepting(args.host, args.port):
            if server.poll() is not None:
                print(f"The server did not start (see above). Is port {args.port} free?", file=sys.stderr)
                return server.returncode or 1
            if time.monotonic() > deadline:
                print(f"The server did not answer on {url} within {STARTUP_SECONDS} s.", file=sys.stderr)
                stop(server)
                return 1
            time.sleep(0.2)
        print(text + "  Press Ctrl-C to stop it.\n", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        print("\nStopping Numberdeck…", flush=True)
        return stop(server)


if __name__ == "__main__":
    sys.exit(main())
