"""`oc doctor --online` fetches only a URL the user chose, within one deadline, and
shows nothing of the answer but a commit id. Servers run on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time

import pytest
from conftest import SCRIPTS, Reply, git, git_init, script_env
from oc_data import oc

SECRET = "internal-token-do-not-echo"


@pytest.fixture
def repo(tmp_path, isolated_home):
    root = git_init(tmp_path / "proj")
    os.makedirs(os.path.join(root, ".checkpoints"))
    git(root, "commit", "-q", "--allow-empty", "--no-verify", "-m", "one")
    return root


def head(root) -> str:
    return git(root, "rev-parse", "HEAD").stdout.strip()


def committed(repo, url: str, extra: str = "") -> None:
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "w", encoding="utf-8") as fh:
        fh.write(f"oc:\n  health-url: {json.dumps(url)}\n{extra}")


def test_a_committed_url_is_not_fetched_without_confirmation(repo, health_server):
    url, health = health_server.url, health_server
    health.answers["/internal"] = Reply(200, json.dumps({"commit": head(repo)}).encode())
    committed(repo, url + "/internal")
    proc = oc(repo, "doctor", "--online")
    assert health.hits == []  # nothing was fetched
    (line,) = [x for x in proc.stdout.splitlines() if "deployed-commit" in x]
    assert "not fetched" in line and "--allow-committed-url" in line, line
    assert proc.returncode == 0
    for fmt in ("json", "sarif", "github"):
        proc = oc(repo, "doctor", "--online", "--format", fmt)
        assert "--allow-committed-url" in proc.stdout and health.hits == []
    proc = oc(repo, "doctor", "--online", "--allow-committed-url", "--strict")
    assert health.hits == ["/internal"] and proc.returncode == 0, proc.stdout


def test_the_users_own_url_needs_no_confirmation(repo, health_server):
    """`git config asimov-hooks.healthUrl` is the user's (a git config is never
    committed), and it wins over a committed one; --url wins over both."""
    url, health = health_server.url, health_server
    health.answers["/mine"] = Reply(200, head(repo).encode())
    committed(repo, url + "/theirs")
    git(repo, "config", "asimov-hooks.healthUrl", url + "/mine")
    proc = oc(repo, "doctor", "--online", "--strict")
    assert proc.returncode == 0 and health.hits == ["/mine"], proc.stdout
    proc = oc(repo, "doctor", "--online", "--url", url + "/given")
    assert health.hits == ["/mine", "/given"]


def test_allow_committed_url_needs_online(repo):
    proc = oc(repo, "doctor", "--allow-committed-url")
    assert proc.returncode == 2 and "--online" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"status": SECRET},
        {"commit": SECRET, "sha": "zz"},
        {"build": {"token": SECRET}},
    ],
)
def test_only_a_commit_id_is_ever_echoed(repo, health_server, body):
    """Whatever health-commit-keys names, a value that is not a commit id is not shown."""
    url, health = health_server.url, health_server
    health.answers["/h"] = Reply(200, json.dumps(body).encode())
    committed(repo, url + "/h", "  health-commit-keys: [status, token, commit]\n")
    proc = oc(repo, "doctor", "--online", "--allow-committed-url", "--format", "json")
    assert health.hits == ["/h"]
    assert SECRET not in proc.stdout + proc.stderr
    assert "names no commit" in proc.stdout


def test_the_servers_own_words_are_not_shown(repo, health_server):
    url, health = health_server.url, health_server
    health.answers["/h"] = Reply(503, b"down", reason="::error::forged\x1b[31m")
    proc = oc(repo, "doctor", "--online", "--url", url + "/h")
    assert "forged" not in proc.stdout + proc.stderr and "\x1b" not in proc.stdout
    assert "answered HTTP 503 Service Unavailable" in proc.stdout


def test_one_deadline_covers_the_whole_request(repo):
    """A server that trickles a byte every 0.2 s never lets a socket timeout fire; the
    command still gives up at its deadline (here 1 s; the server would take a minute)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    stop = threading.Event()

    def trickle() -> None:
        conn, _ = listener.accept()
        conn.recv(4096)
        answer = b"HTTP/1.1 200 OK\r\nContent-Length: 300\r\n\r\n" + b" " * 300
        for byte in answer:
            if stop.is_set():
                break
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.2)
        conn.close()

    threading.Thread(target=trickle, daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/"
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "w", encoding="utf-8") as fh:
        fh.write("oc:\n  health-timeout: 1\n")
    exe = os.path.join(SCRIPTS, "asimov-hooks")
    try:
        proc = subprocess.run(
            [exe, "oc", "doctor", "--online", "--url", url],
            cwd=repo,
            capture_output=True,
            text=True,
            env=script_env(),
            timeout=30,  # the server's answer takes over 60 s
            check=False,
        )
    finally:
        stop.set()
        listener.close()
    assert "no answer within 1 s" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats_without_checkpoints_stay_machine_readable(tmp_path, isolated_home, fmt):
    root = git_init(tmp_path / "empty")
    proc = oc(root, "doctor", "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    assert "no checkpoints" not in proc.stdout
    if fmt in ("json", "sarif"):
        json.loads(proc.stdout)
    else:  # what validate's github format prints for no findings: the summary alone
        assert proc.stdout.startswith("0 files checked") and len(proc.stdout.splitlines()) == 1


def test_a_committed_url_reads_only_the_documented_fields(repo, health_server):
    """With --allow-committed-url the repository chose the server; it does not also
    choose which field of the answer is printed: a hex secret under a committed
    `health-commit-keys` name is never read as the commit."""
    url, health = health_server.url, health_server
    token = "ab" * 20  # commit-shaped, and no commit of this clone
    health.answers["/h"] = Reply(200, json.dumps({"api_token": token}).encode())
    committed(repo, url + "/h", "  health-commit-keys: [api_token]\n")
    proc = oc(repo, "doctor", "--online", "--allow-committed-url")
    assert health.hits == ["/h"]
    assert token not in proc.stdout + proc.stderr
    assert "names no commit" in proc.stdout
    health.answers["/h"] = Reply(200, json.dumps({"api_token": token, "sha": head(repo)}).encode())
    proc = oc(repo, "doctor", "--online", "--allow-committed-url", "--strict")
    assert token not in proc.stdout + proc.stderr and proc.returncode == 0, proc.stdout


def test_a_committed_config_does_not_choose_the_field_of_the_users_url(repo, health_server):
    """The user's own URL (--url, or their git config) is fetched; the repository's
    `health-commit-keys` still does not pick which field of its answer is printed: a
    hex secret under a field the config names is not read, and the finding says how
    the user would read that field themselves."""
    url, health = health_server.url, health_server
    token = "cd" * 20  # commit-shaped, and no commit of this clone
    health.answers["/mine"] = Reply(200, json.dumps({"api_token": token}).encode())
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "w", encoding="utf-8") as fh:
        fh.write("oc:\n  health-commit-keys: [api_token]\n")
    proc = oc(repo, "doctor", "--online", "--url", url + "/mine")
    assert health.hits == ["/mine"]
    assert token[:7] not in proc.stdout + proc.stderr  # a commit is shown by its first 12
    (line,) = [x for x in proc.stdout.splitlines() if "deployed-commit" in x]
    assert "names no commit" in line and "api_token" in line and "--commit-key" in line, line
    git(repo, "config", "asimov-hooks.healthUrl", url + "/mine")
    for fmt in ("text", "json", "sarif", "github"):
        proc = oc(repo, "doctor", "--online", "--format", fmt)
        assert token[:7] not in proc.stdout + proc.stderr and "names no commit" in proc.stdout
    assert health.hits == ["/mine"] * 5


def test_a_committed_config_narrows_the_documented_fields(repo, health_server):
    """A config may keep to some of the documented fields (a `sha` that is the image's
    digest, not the commit), not add one."""
    url, health = health_server.url, health_server
    body = {"sha": "0123abcd" * 8, "revision": head(repo)}
    health.answers["/h"] = Reply(200, json.dumps(body).encode())
    proc = oc(repo, "doctor", "--online", "--url", url + "/h", "--strict")
    assert proc.returncode == 1 and "deploys 0123abcd0123" in proc.stdout, proc.stdout
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "w", encoding="utf-8") as fh:
        fh.write("oc:\n  health-commit-keys: [revision, build_token]\n")
    proc = oc(repo, "doctor", "--online", "--url", url + "/h", "--strict")
    assert proc.returncode == 0, proc.stdout


def test_the_user_names_the_field_on_the_command_line_or_in_git_config(repo, health_server):
    """Fields the user names are read as named: `--commit-key` (repeatable), else
    `git config asimov-hooks.healthCommitKeys`; the repository's keys play no part."""
    url, health = health_server.url, health_server
    body = {"sha": "ef" * 20, "build": {"deployed_sha": head(repo)}}
    health.answers["/h"] = Reply(200, json.dumps(body).encode())
    with open(os.path.join(repo, ".asimov-hooks.yaml"), "w", encoding="utf-8") as fh:
        fh.write("oc:\n  health-commit-keys: [sha]\n")
    given = ("doctor", "--online", "--url", url + "/h", "--strict")
    assert oc(repo, *given).returncode == 1  # the documented `sha` is no commit of HEAD
    proc = oc(repo, *given, "--commit-key", "nothing", "--commit-key", "deployed_sha")
    assert proc.returncode == 0, proc.stdout
    git(repo, "config", "asimov-hooks.healthCommitKeys", "nothing, deployed_sha")
    proc = oc(repo, *given)
    assert proc.returncode == 0, proc.stdout
    proc = oc(repo, *given, "--commit-key", "sha")  # the command line wins
    assert proc.returncode == 1 and "deploys efefefefefef" in proc.stdout, proc.stdout
    proc = oc(repo, "doctor", "--commit-key", "sha")
    assert proc.returncode == 2 and "--online" in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
