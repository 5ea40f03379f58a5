"""Retries and errors against a small local server (no API needed)."""

import http.server
import json
import threading

import pytest

from covid_mpox_client import ApiError, Client


class Script(http.server.BaseHTTPRequestHandler):
    """Answers the statuses of ``answers`` in turn, then 200 with one row."""

    answers = []
    seen = []
    retry_after = "0"

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.seen.append(self.path)
        status = self.answers.pop(0) if self.answers else 200
        body = {"error": "Trop de requêtes."} if status != 200 else [{"country": "Namibia"}]
        data = json.dumps(body).encode()
        self.send_response(status)
        if status in (429, 503):
            self.send_header("Retry-After", self.retry_after)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    Script.answers, Script.seen, Script.retry_after = [], [], "0"
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Script)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/api"
    httpd.shutdown()
    httpd.server_close()


def test_429_and_503_are_asked_again(server):
    Script.answers = [429, 503, 429]
    frame = Client(server, "t", retries=3).population()
    assert list(frame["country"]) == ["Namibia"]
    assert len(Script.seen) == 4


def test_waits_retry_after_capped_at_max_wait(server):
    Script.answers, Script.retry_after = [429, 503], "30"
    client = Client(server, "t", max_wait=0.01)
    waits = []
    client._http.sleep = waits.append
    assert list(client.population()["country"]) == ["Namibia"]
    assert waits == [0.01, 0.01]
    Script.answers, Script.retry_after = [429], "2"
    client = Client(server, "t")
    client._http.sleep = waits.append
    client.population()
    assert waits[-1] == 2.0


def test_retries_are_bounded(server):
    Script.answers = [503] * 10
    with pytest.raises(ApiError) as error:
        Client(server, "t", retries=2).population()
    assert (error.value.status, error.value.message) == (503, "Trop de requêtes.")
    assert len(Script.seen) == 3


def test_unreachable_is_the_same_error():
    with pytest.raises(ApiError) as error:
        Client("http://127.0.0.1:9/api", "t", retries=0, timeout=2).population()
    assert error.value.status is None


def test_url_and_token_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("COVID_API_URL", server)
    monkeypatch.setenv("COVID_API_TOKEN", "from-env")
    client = Client()
    assert client._http.token == "from-env"
    assert list(client.population()["country"]) == ["Namibia"]
