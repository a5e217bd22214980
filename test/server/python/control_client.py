#!/usr/bin/env python3
"""A test in another language: drives a model-access-sim server over HTTP with the standard library.

Usage:
    python3 control_client.py BASE_URL CONTROL_URL
    MODEL_ACCESS_SIM_URL=... MODEL_ACCESS_SIM_CONTROL_URL=... python3 control_client.py

BASE_URL is where the service's operations live (http://127.0.0.1:4010/api/v1), CONTROL_URL the
control API (http://127.0.0.1:4010/__sim). The script sets up an organisation through the control
API, calls each of the six operations, moves the clock, injects a fault, reads the journal and
resets the simulator. It prints one "ok - ..." line per check and exits 0 only if every check
passed; on the first failure it prints "FAIL - ..." and exits 1 (2 when the server cannot be reached).

It expects a simulator on a virtual clock (the default) without a rate limit, whose clock it may
move and whose state it may reset; it clears faults, latency and the journal first, and assumes
nothing about the world loaded: everything it reads, it creates first.
"""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT_SECONDS = 10

# The server listens on loopback: never route these requests through an HTTP(S)_PROXY from the environment.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

CHECKS_PASSED = 0


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        # Header names in lower case, as HTTP treats them case-insensitively.
        self.headers = {name.lower(): value for name, value in headers.items()}
        self.body = body

    def json(self):
        assert self.body, "expected a JSON body, got an empty one (status %d)" % self.status
        return json.loads(self.body.decode("utf-8"))

    def describe(self):
        text = self.body.decode("utf-8", errors="replace")
        return "status %d, body %s" % (self.status, text[:500])


def request(method, url, body=None, secret=None, raw_body=None):
    """One HTTP request; an error status is an answer to check, not an exception."""
    data = None
    headers = {"accept": "application/json"}
    if raw_body is not None:
        data = raw_body
        headers["content-type"] = "application/json"
    elif body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["content-type"] = "application/json"
    if secret is not None:
        headers["authorization"] = "Bearer " + secret
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with OPENER.open(req, timeout=TIMEOUT_SECONDS) as res:
            return Response(res.status, res.headers, res.read())
    except urllib.error.HTTPError as error:
        with error:
            return Response(error.code, error.headers, error.read())


def passed(description):
    global CHECKS_PASSED
    CHECKS_PASSED += 1
    print("ok - " + description, flush=True)


def expect_status(res, status, what):
    assert res.status == status, "%s: expected status %d, got %s" % (what, status, res.describe())


def expect_error(res, status, what):
    """An error envelope {"error": {"code", "message", "metadata"?}} with this status."""
    expect_status(res, status, what)
    envelope = res.json()
    assert isinstance(envelope.get("error"), dict), "%s: expected an error envelope, got %r" % (what, envelope)
    assert envelope["error"].get("code") == status, "%s: expected error.code %d, got %r" % (what, status, envelope)
    assert isinstance(envelope["error"].get("message"), str) and envelope["error"]["message"], "%s: the error has no message: %r" % (what, envelope)
    return envelope["error"]


def urls():
    base = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MODEL_ACCESS_SIM_URL")
    control = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("MODEL_ACCESS_SIM_CONTROL_URL")
    if not base or not control:
        print(__doc__, file=sys.stderr)
        print("FAIL - give BASE_URL and CONTROL_URL as arguments or in MODEL_ACCESS_SIM_URL and MODEL_ACCESS_SIM_CONTROL_URL", file=sys.stderr)
        sys.exit(2)
    return base.rstrip("/"), control.rstrip("/")


def run(base, control):
    def api(path, secret=None):
        return request("GET", base + path, secret=secret)

    def ctl(method, path, body=None, raw_body=None):
        return request(method, control + path, body=body, raw_body=raw_body)

    # --- Setup through the control API --------------------------------------------------------
    res = ctl("GET", "/health")
    expect_status(res, 200, "GET /__sim/health")
    assert res.json() == {"status": "ok"}, "GET /__sim/health: expected {'status': 'ok'}, got %r" % res.json()
    passed("health answers ok")

    # Faults, latency and earlier requests would change the answers checked below: start without them.
    for path in ("/faults", "/latency", "/journal"):
        res = ctl("DELETE", path)
        expect_status(res, 204, "DELETE /__sim" + path)
    res = ctl("GET", "/journal")
    expect_status(res, 200, "GET /__sim/journal")
    assert res.json() == {"data": []}, "GET /__sim/journal: expected an empty journal after DELETE, got %r" % res.json()
    passed("faults, latency and journal cleared")

    res = ctl("GET", "/clock")
    expect_status(res, 200, "GET /__sim/clock")
    initial_now = res.json()["now"]
    assert isinstance(initial_now, str) and initial_now.endswith("Z"), "GET /__sim/clock: expected an ISO instant, got %r" % initial_now

    res = ctl("PUT", "/clock", {"now": "2026-03-04T23:30:00Z"})
    expect_status(res, 200, "PUT /__sim/clock")
    assert res.json()["now"] == "2026-03-04T23:30:00.000Z", "PUT /__sim/clock: expected now 2026-03-04T23:30:00.000Z, got %r" % res.json()
    passed("clock set to 2026-03-04T23:30:00.000Z")

    res = ctl("POST", "/users", {"name": "Python Org"})
    expect_status(res, 201, "POST /__sim/users")
    org = res.json()
    assert org["id"].startswith("user_"), "POST /__sim/users: expected an id starting with user_, got %r" % org
    assert org["name"] == "Python Org", "POST /__sim/users: expected name 'Python Org', got %r" % org
    assert org["defaultWorkspaceId"], "POST /__sim/users: expected a defaultWorkspaceId, got %r" % org
    passed("organisation created")

    res = ctl("POST", "/keys", {"userId": org["id"], "management": True, "name": "py-admin"})
    expect_status(res, 201, "POST /__sim/keys (management)")
    admin = res.json()
    assert admin["secret"].startswith("sk-or-v1-"), "POST /__sim/keys: expected a sk-or-v1- secret, got %r" % admin
    assert admin["name"] == "py-admin", "POST /__sim/keys: expected the key named py-admin, got %r" % admin
    res = ctl("POST", "/keys", {"userId": org["id"], "name": "py-app"})
    expect_status(res, 201, "POST /__sim/keys (regular)")
    app = res.json()
    app_hash = app["hash"]
    assert app["workspaceId"] == org["defaultWorkspaceId"], "POST /__sim/keys: expected the default workspace, got %r" % app
    assert app["createdAt"] == "2026-03-04T23:30:00.000Z", "POST /__sim/keys: expected createdAt at the clock's now, got %r" % app
    passed("management key and regular key created")

    res = ctl("POST", "/workspaces", {"userId": org["id"], "name": "Python Staging", "slug": "python-staging"})
    expect_status(res, 201, "POST /__sim/workspaces")
    workspace = res.json()
    assert workspace["slug"] == "python-staging", "POST /__sim/workspaces: expected slug python-staging, got %r" % workspace

    text = "r\u00e9sum\u00e9 from python \u2713\n"
    res = ctl("POST", "/files", {"userId": org["id"], "id": "file_py_1", "origin": "server", "filename": "report.txt", "text": text})
    expect_status(res, 201, "POST /__sim/files")
    stored = res.json()
    assert stored["filename"] == "report.txt", "POST /__sim/files: expected filename report.txt, got %r" % stored
    assert "text" not in stored and "base64" not in stored, "POST /__sim/files: expected metadata without the content, got %r" % stored

    pricing = {"prompt": "0.000001", "completion": "0.000002"}
    res = ctl("POST", "/models", {"id": "pyorg/fast-1", "endpoints": [{"provider_name": "Together", "pricing": pricing}]})
    expect_status(res, 201, "POST /__sim/models")
    res = ctl("POST", "/video-models", {"id": "pyorg/video-1"})
    expect_status(res, 201, "POST /__sim/video-models")
    passed("workspace, file, model and video model created")

    # --- The six operations -------------------------------------------------------------------
    res = api("/keys", admin["secret"])
    expect_status(res, 200, "GET /keys as the management key")
    listed = [key["hash"] for key in res.json()["data"]]
    assert listed == [app_hash], "GET /keys: expected exactly the regular key %s, got %r" % (app_hash, listed)
    passed("listKeys lists the regular key for the management key")

    error = expect_error(api("/keys", app["secret"]), 403, "GET /keys as the regular key")
    passed("listKeys answers 403 to a regular key")

    error = expect_error(api("/keys"), 401, "GET /keys without a key")
    passed("listKeys answers 401 without a key")

    res = api("/keys/" + app_hash, admin["secret"])
    expect_status(res, 200, "GET /keys/{hash}")
    key = res.json()["data"]
    assert key["hash"] == app_hash and key["name"] == "py-app", "GET /keys/{hash}: expected the regular key, got %r" % key
    assert key["usage"] == 0 and key["usage_daily"] == 0, "GET /keys/{hash}: expected no usage yet, got %r" % key
    passed("getKey reads the regular key")

    res = api("/models/pyorg/fast-1/endpoints")
    expect_status(res, 200, "GET /models/pyorg/fast-1/endpoints anonymously")
    model = res.json()["data"]
    assert model["id"] == "pyorg/fast-1", "listEndpoints: expected model pyorg/fast-1, got %r" % model["id"]
    assert len(model["endpoints"]) == 1, "listEndpoints: expected one endpoint, got %r" % model["endpoints"]
    endpoint = model["endpoints"][0]
    assert endpoint["provider_name"] == "Together", "listEndpoints: expected provider Together, got %r" % endpoint
    assert endpoint["pricing"] == pricing, "listEndpoints: expected pricing %r, got %r" % (pricing, endpoint["pricing"])
    assert "latency_last_30m" in endpoint and endpoint["latency_last_30m"] is None, "listEndpoints: expected latency_last_30m null anonymously, got %r" % endpoint
    res = api("/models/pyorg/fast-1/endpoints", app["secret"])
    expect_status(res, 200, "GET /models/pyorg/fast-1/endpoints with a key")
    latency = res.json()["data"]["endpoints"][0]["latency_last_30m"]
    assert isinstance(latency, dict) and isinstance(latency.get("p50"), (int, float)), "listEndpoints: expected latency figures with a key, got %r" % latency
    passed("listEndpoints hides latency_last_30m from anonymous callers only")

    res = api("/files/file_py_1/content", admin["secret"])
    expect_status(res, 200, "GET /files/file_py_1/content")
    assert res.body == text.encode("utf-8"), "getFileContent: expected the bytes %r, got %r" % (text.encode("utf-8"), res.body)
    assert res.headers.get("content-type") == "application/octet-stream", "getFileContent: expected application/octet-stream, got %r" % res.headers
    assert 'filename="report.txt"' in res.headers.get("content-disposition", ""), "getFileContent: expected filename report.txt, got %r" % res.headers
    passed("getFileContent returns the file's exact bytes")

    res = api("/workspaces/python-staging", admin["secret"])
    expect_status(res, 200, "GET /workspaces/python-staging")
    found = res.json()["data"]
    assert found["id"] == workspace["id"] and found["name"] == "Python Staging", "getWorkspace: expected %r, got %r" % (workspace, found)
    passed("getWorkspace finds the workspace by slug")

    res = api("/videos/models")
    expect_status(res, 200, "GET /videos/models")
    ids = [video["id"] for video in res.json()["data"]]
    assert "pyorg/video-1" in ids, "listVideoModels: expected pyorg/video-1 among %r" % ids
    passed("listVideoModels lists the video model")

    # --- Usage and the clock ------------------------------------------------------------------
    res = ctl("POST", "/usage", {"keyHash": app_hash, "cost": 1.25})
    expect_status(res, 200, "POST /__sim/usage")
    assert [record["cost"] for record in res.json()["usage"]] == [1.25], "POST /__sim/usage: expected one record of 1.25, got %r" % res.json()
    res = api("/keys/" + app_hash, admin["secret"])
    expect_status(res, 200, "GET /keys/{hash} after usage")
    key = res.json()["data"]
    assert key["usage_daily"] == 1.25 and key["usage"] == 1.25, "GET /keys/{hash}: expected usage and usage_daily 1.25, got %r" % key
    passed("recorded usage shows as usage_daily 1.25")

    res = ctl("POST", "/clock/advance", {"ms": 31 * 60 * 1000})
    expect_status(res, 200, "POST /__sim/clock/advance")
    assert res.json()["now"] == "2026-03-05T00:01:00.000Z", "POST /__sim/clock/advance: expected 2026-03-05T00:01:00.000Z, got %r" % res.json()
    res = api("/keys/" + app_hash, admin["secret"])
    expect_status(res, 200, "GET /keys/{hash} after midnight")
    key = res.json()["data"]
    figures = (key["usage_daily"], key["usage_weekly"], key["usage_monthly"], key["usage"])
    assert figures == (0, 1.25, 1.25, 1.25), "GET /keys/{hash} after midnight: expected daily 0, weekly/monthly/total 1.25, got %r" % (figures,)
    passed("after midnight usage_daily is 0 and usage stays 1.25")

    # --- A fault, the fault list and the journal ----------------------------------------------
    rule = {"name": "py-outage", "operation": "listVideoModels", "respond": {"status": 503, "headers": {"retry-after": "5"}}, "once": True}
    res = ctl("POST", "/faults", rule)
    expect_status(res, 201, "POST /__sim/faults")
    assert res.json() == {"name": "py-outage"}, "POST /__sim/faults: expected {'name': 'py-outage'}, got %r" % res.json()
    res = api("/videos/models")
    expect_error(res, 503, "GET /videos/models under the fault")
    assert res.headers.get("retry-after") == "5", "the 503 should carry retry-after 5, got headers %r" % res.headers
    res = api("/videos/models")
    expect_status(res, 200, "GET /videos/models after the fault fired once")
    passed("a once fault answers 503 with retry-after once, then 200")

    res = ctl("GET", "/faults")
    expect_status(res, 200, "GET /__sim/faults")
    faults = res.json()["data"]
    assert faults == [{"name": "py-outage", "matched": 2, "fired": 1}], "GET /__sim/faults: expected py-outage matched 2 fired 1, got %r" % faults
    passed("the fault list shows it fired once")

    res = ctl("GET", "/journal?status=503")
    expect_status(res, 200, "GET /__sim/journal?status=503")
    entries = res.json()["data"]
    assert len(entries) == 1, "GET /__sim/journal?status=503: expected exactly one entry, got %r" % entries
    entry = entries[0]
    assert (entry["operation"], entry["fault"], entry["path"], entry["status"]) == ("listVideoModels", "py-outage", "/videos/models", 503), "journal: unexpected entry %r" % entry
    res = ctl("GET", "/journal?" + urllib.parse.urlencode({"operation": "listVideoModels"}))
    expect_status(res, 200, "GET /__sim/journal?operation=listVideoModels")
    statuses = [e["status"] for e in res.json()["data"]]
    assert statuses == [200, 503, 200], "journal of listVideoModels: expected statuses [200, 503, 200], got %r" % statuses
    passed("the journal has exactly one 503")

    # --- Bad bodies -----------------------------------------------------------------------------
    error = expect_error(ctl("POST", "/keys", {"userId": org["id"], "limit": -5}), 400, "POST /__sim/keys with a negative limit")
    assert error.get("metadata", {}).get("argument") == "limit", "POST /__sim/keys: expected metadata.argument 'limit', got %r" % error
    passed("a negative limit answers 400 naming limit")

    error = expect_error(ctl("POST", "/usage", raw_body=b"{not json"), 400, "POST /__sim/usage with malformed JSON")
    assert error.get("metadata", {}).get("argument") == "body", "POST /__sim/usage: expected metadata.argument 'body', got %r" % error
    passed("malformed JSON answers 400 naming body")

    # --- Reset ----------------------------------------------------------------------------------
    res = ctl("POST", "/reset")
    expect_status(res, 204, "POST /__sim/reset")
    assert res.body == b"", "POST /__sim/reset: expected no body, got %r" % res.body
    error = expect_error(api("/keys", admin["secret"]), 401, "GET /keys with the management key after reset")
    assert error.get("metadata", {}).get("reason") == "unknown", "after reset: expected reason 'unknown', got %r" % error
    res = ctl("GET", "/clock")
    expect_status(res, 200, "GET /__sim/clock after reset")
    assert res.json()["now"] == initial_now, "after reset: expected the clock back at %s, got %r" % (initial_now, res.json())
    res = ctl("GET", "/faults")
    expect_status(res, 200, "GET /__sim/faults after reset")
    assert res.json()["data"] == [], "after reset: expected no faults, got %r" % res.json()
    passed("after reset the organisation is gone and its management key gets 401")


def main():
    if not __debug__:
        print("FAIL - run without -O (and without PYTHONOPTIMIZE): the checks are assert statements", file=sys.stderr)
        sys.exit(2)
    base, control = urls()
    try:
        run(base, control)
    except AssertionError as failure:
        print("FAIL - %s" % failure, flush=True)
        print("FAIL - %s" % failure, file=sys.stderr)
        sys.exit(1)
    except (urllib.error.URLError, OSError) as failure:
        print("FAIL - cannot reach the simulator at %s / %s: %s" % (base, control, failure), file=sys.stderr)
        sys.exit(2)
    print("passed %d checks" % CHECKS_PASSED, flush=True)


if __name__ == "__main__":
    main()
