"""`make run` says where the demo is, and that it is ready, only once the server answers there
(devtools/launch.py), on the HOST and PORT it was given (README.md, "Two commands")."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from accounts.models import User
from classroom.models import Classroom
from classroom.selectors import students_of_class
from devtools import launch
from devtools.demo import DEMO_CLASS_CODE, DEMO_EMAIL, describe

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_address_comes_from_host_and_port():
    assert launch.url_for("127.0.0.1", 8301) == "http://127.0.0.1:8301"
    assert launch.url_for("0.0.0.0", 8000) == "http://127.0.0.1:8000"  # every address: this computer's
    assert launch.url_for("::", 8000) == "http://[::1]:8000"
    assert launch.url_for("localhost", 9000) == "http://localhost:9000"


@pytest.mark.django_db
def test_the_banner_says_ready_only_with_the_address_it_was_given(capsys):
    call_command("load_demo", "--brief")  # what `make run` does before the server starts
    brief = capsys.readouterr().out
    assert "is loaded" in brief and "ready" not in brief and len(brief.strip().splitlines()) == 1
    teacher = User.objects.get(email=DEMO_EMAIL)
    classroom = Classroom.objects.get(join_code=DEMO_CLASS_CODE)
    students = list(students_of_class(classroom=classroom).order_by("id"))
    ready = describe(teacher, classroom, students, url="http://127.0.0.1:8301")
    assert "Numberdeck demo is ready at http://127.0.0.1:8301" in ready and ":8000" not in ready
    loaded = describe(teacher, classroom, students)  # `make demo`: no server yet
    assert "ready" not in loaded and "8000" not in loaded and "Ann    Cat - Sun - Tree" in loaded


def test_the_launcher_prints_the_banner_once_the_port_answers_and_stops_daphne(tmp_path):
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}", "PYTHONUNBUFFERED": "1"}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "devtools.launch", "--host", "127.0.0.1",
                               "--port", str(port)], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    try:
        for line in server.stdout:
            lines.append(line)
            if "ready at" in line:
                # Said only now: the port accepts connections at the moment the banner appears.
                assert launch.accepting("127.0.0.1", port), "".join(lines)
                break
        else:
            pytest.fail("the launcher ended without a banner:\n" + "".join(lines))
        assert lines[0].startswith(f"Starting Numberdeck at http://127.0.0.1:{port}")
        assert lines[-1].strip() == f"Numberdeck is ready at http://127.0.0.1:{port}"  # no demo loaded
        assert not any("8000" in line for line in lines)
    finally:
        server.send_signal(signal.SIGTERM)
        rest, _ = server.communicate(timeout=30)
    assert server.returncode == 0, rest
    assert "Stopping Numberdeck" in rest
    deadline = time.monotonic() + 5
    while launch.accepting("127.0.0.1", port) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not launch.accepting("127.0.0.1", port)  # Daphne stopped with it


def test_the_launcher_says_when_the_port_is_taken(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "devtools.launch", "--port", str(port)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"Port {port} is already in use" in done.stderr and "ready" not in done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_says_what_it_is_doing_and_serves_on_host_and_port():
    plan = subprocess.run(["make", "-n", "run", "HOST=0.0.0.0", "PORT=8301"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    assert "Loading the demo class and its games" in plan
    assert "-m devtools.launch --host 0.0.0.0 --port 8301" in plan
    assert "exec .venv/bin/daphne" not in plan
    makefile = (ROOT / "Makefile").read_text()
    install = makefile[makefile.index("$(STAMP): requirements.txt"):]
    assert install.index("Installing Python packages") < install.index("pip install")
