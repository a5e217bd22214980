#!/usr/bin/env python3
"""A Python test suite (standard library unittest) against a model-access-sim server it starts itself.

Copy it into a project that has model-access-sim installed, and run:

    python3 -m unittest -v test_with_server

setUpModule starts `model-access-sim serve --port 0 --log json` in a process group of its own, reads
the first line of its output (a JSON object with the URL, the control URL and the keys), and keeps
reading the rest (one JSON object per request) so that the server never blocks on a full pipe.
tearDownModule sends SIGTERM to the whole group (npx and npm do not pass signals on; the group
reaches the server itself) and waits for it to exit. POSIX only (os.killpg).

MODEL_ACCESS_SIM_COMMAND overrides the command that starts it (default: npx --no model-access-sim).
"""

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import unittest
import urllib.error
import urllib.request

START_TIMEOUT_SECONDS = 60
REQUEST_TIMEOUT_SECONDS = 10

# The server is on loopback: never send these requests through an HTTP(S)_PROXY of the environment.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

SERVER = None  # the subprocess
READY = None  # the ready object: url, controlUrl, managementKey, regularKey, handles, ...
LOG = []  # the request log, one dict per request


def start_server():
    global SERVER, READY
    command = shlex.split(os.environ.get("MODEL_ACCESS_SIM_COMMAND", "npx --no model-access-sim"))
    SERVER = subprocess.Popen(
        command + ["serve", "--port", "0", "--log", "json"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own process group, for the stop below
    )
    lines = queue.Queue()

    def read_output():
        for line in SERVER.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read_output, daemon=True).start()
    try:
        first = lines.get(timeout=START_TIMEOUT_SECONDS)
    except queue.Empty:
        stop_server()
        raise RuntimeError("model-access-sim printed no ready line within %d s" % START_TIMEOUT_SECONDS)
    if first is None:
        raise RuntimeError("model-access-sim exited with %s before it was ready" % SERVER.wait())
    READY = json.loads(first)
    assert READY["event"] == "ready", first

    def keep_log():
        while True:
            line = lines.get()
            if line is None:
                return
            LOG.append(json.loads(line))

    threading.Thread(target=keep_log, daemon=True).start()


def stop_server():
    if SERVER is None or SERVER.poll() is not None:
        return
    os.killpg(SERVER.pid, signal.SIGTERM)
    try:
        SERVER.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(SERVER.pid, signal.SIGKILL)
        SERVER.wait()


def setUpModule():
    start_server()


def tearDownModule():
    stop_server()


def call(method, url, body=None, secret=None, content_type="application/json"):
    """One request; returns (status, parsed JSON or None). An error status is an answer, not an exception."""
    headers = {}
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        headers["content-type"] = content_type
    if secret is not None:
        headers["authorization"] = "Bearer " + secret
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with OPENER.open(req, timeout=REQUEST_TIMEOUT_SECONDS) as res:
            status, text = res.status, res.read()
    except urllib.error.HTTPError as error:
        with error:
            status, text = error.code, error.read()
    return status, (json.loads(text) if text else None)


def api(path, secret=None):
    return call("GET", READY["url"] + path, secret=secret)


def control(method, path, body=None, **options):
    return call(method, READY["controlUrl"] + path, body=body, **options)


class SimulatorTest(unittest.TestCase):
    def setUp(self):
        # Each test starts from the world the server loaded, at its clock, with no faults.
        self.assertEqual(control("POST", "/reset")[0], 204)

    def test_the_ready_line_names_working_keys(self):
        status, body = api("/keys", READY["managementKey"])
        self.assertEqual(status, 200)
        self.assertGreater(len(body["data"]), 0)
        self.assertEqual(api("/keys", READY["regularKey"])[0], 403)
        self.assertEqual(READY["handles"]["managementKey"], READY["managementKey"])

    def test_a_once_fault_answers_503_then_the_service_recovers(self):
        status, _ = control("POST", "/faults", {"operation": "listKeys", "respond": {"status": 503}, "once": True})
        self.assertEqual(status, 201)
        self.assertEqual(api("/keys", READY["managementKey"])[0], 503)
        self.assertEqual(api("/keys", READY["managementKey"])[0], 200)

    def test_moving_the_clock_a_day_on(self):
        status, body = control("POST", "/clock/advance", {"ms": 86_400_000})
        self.assertEqual(status, 200)
        self.assertEqual(body["now"], "2026-03-03T10:00:00.000Z")

    def test_the_control_api_refuses_a_body_that_is_not_declared_json(self):
        status, body = control("POST", "/clock/advance", b'{"ms": 1000}', content_type="text/plain")
        self.assertEqual(status, 415)
        self.assertEqual(body["error"]["metadata"]["argument"], "content-type")

    def test_the_log_has_a_line_per_request(self):
        api("/videos/models")
        for _ in range(100):
            if any(entry["path"] == "/api/v1/videos/models" for entry in LOG):
                break
            threading.Event().wait(0.05)
        entry = next(entry for entry in LOG if entry["path"] == "/api/v1/videos/models")
        self.assertEqual((entry["status"], entry["operation"]), (200, "listVideoModels"))


if __name__ == "__main__":
    unittest.main()
