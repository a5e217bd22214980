#!/usr/bin/env python3
"""Python's openai client, unchanged, against a model-access-sim server (decisions/0040).

Run by test/clients/python-openai.test.ts with the venv's python (scripts/python-clients-venv.sh):

    openai_client.py API_URL CONTROL_URL

Each case starts from the world as the server loaded it (POST /__sim/reset), sets up its keys and
scripted replies through the control API, as a test in Python would, and asserts with the client.
It prints one line per case ("@@client-case " and JSON, as test/clients/support/lines.ts reads it),
and the versions it loaded ("@@client-version ").
"""

import enum
import json
import sys
import time
import traceback
import urllib.request
from importlib.metadata import version
from typing import Literal, Optional

import openai
import pydantic

API, CONTROL = sys.argv[1], sys.argv[2]
MODELS = {"chat": "openai/gpt-4o-mini", "other": "anthropic/claude-haiku-4.5", "embedding": "openai/text-embedding-3-small"}
QUESTION = [{"role": "user", "content": "Where is my refund?"}]


def control(method, path, body=None):
    """A control API call: (status, parsed JSON or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(CONTROL + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        text = response.read()
        return response.status, (json.loads(text) if text else None)


def respond(rule):
    status, _ = control("POST", "/responders", rule)
    assert status == 201, f"POST /__sim/responders answered {status}"


class Target:
    """The world after a reset, with a key of its own, a key at its limit and one without credits."""

    def __init__(self):
        assert control("POST", "/reset")[0] == 204
        world = control("GET", "/world")[1]
        own = control("POST", "/keys", {"userId": world["userId"], "name": "client"})[1]
        spent = control("POST", "/keys", {"userId": world["userId"], "name": "spent", "limit": 0.5, "limitReset": "daily", "usage": {"daily": 0.5}})[1]
        broke = control("POST", "/users", {"name": "No credits"})[1]
        self.api_key = own["secret"]
        self.api_key_hash = own["hash"]
        self.user_id = world["userId"]
        self.management_key = world["managementKey"]
        self.spent_key = spent["secret"]
        self.broke_key = control("POST", "/keys", {"userId": broke["id"]})[1]["secret"]

    def client(self, api_key=None):
        return openai.OpenAI(api_key=api_key or self.api_key, base_url=API, max_retries=0)

    def spent(self):
        """What the key spent, as GET /key reports it."""
        request = urllib.request.Request(API + "/key", headers={"authorization": "Bearer " + self.api_key})
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())["data"]["usage"]

    def chats(self):
        """The request bodies of the chat completions answered 200, in order."""
        entries = control("GET", "/journal?operation=createChatCompletion")[1]["data"]
        return [json.loads(e["requestBody"]) for e in entries if e["status"] == 200]

    def schema_warnings(self):
        """What the default replies could not satisfy in the requests' schemas (decisions/0048): none, when all were valid."""
        entries = control("GET", "/journal?hasWarnings=true")[1]["data"]
        return [warning for e in entries for warning in e["warnings"]]


def failure(call):
    try:
        call()
    except Exception as error:  # noqa: BLE001 (the case checks what it is)
        return error
    raise AssertionError("the call succeeded")


def case_chat(t):
    respond({"match": {"lastUserMessage": {"regex": "refund"}}, "reply": {"content": "Refunds take 5 days."}})
    completion = t.client().chat.completions.create(model=MODELS["chat"], messages=QUESTION)
    assert completion.choices[0].message.content == "Refunds take 5 days.", completion
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage.total_tokens > 0


def case_stream(t):
    respond({"reply": {"content": "Refunds take five working days."}})
    stream = t.client().chat.completions.create(model=MODELS["chat"], messages=QUESTION, stream=True, stream_options={"include_usage": True})
    text, usage = "", None
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
        if chunk.usage is not None:
            usage = chunk.usage
    assert text == "Refunds take five working days.", text
    assert usage is not None, "a chunk carries usage"
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens
    assert usage.cost == t.spent(), (usage.cost, t.spent())


def lookup_order(id):  # noqa: A002 (the tool's own parameter name)
    return {"id": id, "status": "shipped"}


def case_tool_loop(t):
    # Newest rule first: the tool call answers the first turn once, then the final answer.
    respond({"match": {"tools": True}, "reply": {"content": "Order 42 has shipped."}})
    respond({"match": {"tools": True}, "reply": {"toolCalls": [{"name": "lookup_order", "arguments": '{"id":42}'}]}, "times": 1})
    tools = [{"type": "function", "function": {"name": "lookup_order", "parameters": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}}]
    messages = [{"role": "user", "content": "Where is order 42?"}]
    client = t.client()
    for _ in range(3):
        message = client.chat.completions.create(model=MODELS["chat"], messages=messages, tools=tools).choices[0].message
        if not message.tool_calls:
            break
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            result = {"lookup_order": lookup_order}[call.function.name](**json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
    assert message.content == "Order 42 has shipped.", message
    sent = t.chats()
    assert len(sent) == 2, len(sent)
    tool_messages = [m for m in sent[1]["messages"] if m["role"] == "tool"]
    assert [json.loads(m["content"]) for m in tool_messages] == [{"id": 42, "status": "shipped"}]


class Order(pydantic.BaseModel):
    id: int
    status: str


def case_structured(t):
    respond({"reply": {"content": '{"id":42,"status":"shipped"}'}})
    completion = t.client().chat.completions.parse(model=MODELS["other"], messages=QUESTION, response_format=Order)
    assert completion.choices[0].message.parsed == Order(id=42, status="shipped"), completion


# With no responder rule (decisions/0048) the reply follows the request: these ask what apps ask,
# with Pydantic models whose JSON Schemas hold $defs and $ref, enums, Literal, Optional and lists.
class Priority(str, enum.Enum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Person(pydantic.BaseModel):
    name: str
    email: Optional[str]


class Step(pydantic.BaseModel):
    order: int
    action: str


class Ticket(pydantic.BaseModel):
    title: str
    priority: Priority
    channel: Literal["email", "chat", "phone"]
    tags: list[str]
    assignee: Optional[Person]
    steps: list[Step]
    due: Optional[str] = None


class LookupOrder(pydantic.BaseModel):
    id: int
    include: list[Literal["items", "shipping", "payment"]]


class CreateTicket(pydantic.BaseModel):
    subject: str
    urgent: bool
    customer: Person


TOOLS = [openai.pydantic_function_tool(CreateTicket, name="create_ticket"), openai.pydantic_function_tool(LookupOrder, name="lookup_order")]
LOOKUP_ASK = [{"role": "user", "content": "Can you lookup order 42 for me?"}]
TICKET_ASK = [{"role": "user", "content": "Open a ticket: my parcel is late."}]


def case_parse_no_rule(t):
    completion = t.client().chat.completions.parse(model=MODELS["chat"], messages=QUESTION, response_format=Ticket)
    message = completion.choices[0].message
    assert completion.choices[0].finish_reason == "stop", completion
    assert isinstance(message.parsed, Ticket), message
    assert message.parsed == Ticket.model_validate_json(message.content)
    assert t.schema_warnings() == [], t.schema_warnings()


def case_beta_parse_no_rule(t):
    completion = t.client().beta.chat.completions.parse(model=MODELS["other"], messages=TICKET_ASK, response_format=Ticket)
    assert isinstance(completion.choices[0].message.parsed, Ticket), completion
    assert t.schema_warnings() == [], t.schema_warnings()


def case_required_tool_no_rule(t):
    completion = t.client().chat.completions.parse(model=MODELS["chat"], messages=LOOKUP_ASK, tools=TOOLS, tool_choice="required")
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls", choice
    assert len(choice.message.tool_calls) == 1, choice.message
    call = choice.message.tool_calls[0]
    assert call.function.name == "lookup_order", call
    assert isinstance(call.function.parsed_arguments, LookupOrder), call
    assert call.function.parsed_arguments == LookupOrder.model_validate_json(call.function.arguments)
    assert t.schema_warnings() == [], t.schema_warnings()


def case_streamed_tool_no_rule(t):
    pieces = []
    with t.client().chat.completions.stream(model=MODELS["chat"], messages=TICKET_ASK, tools=TOOLS, tool_choice="required") as stream:
        for event in stream:
            if event.type == "tool_calls.function.arguments.delta":
                pieces.append(event.arguments_delta)
        final = stream.get_final_completion()
    assert len(pieces) > 1, pieces
    call = final.choices[0].message.tool_calls[0]
    assert call.function.name == "create_ticket", call
    assert call.function.arguments == "".join(pieces)
    assert isinstance(call.function.parsed_arguments, CreateTicket), call
    assert t.schema_warnings() == [], t.schema_warnings()


def case_tool_loop_no_rule(t):
    tools = [openai.pydantic_function_tool(LookupOrder, name="lookup_order")]
    messages = [{"role": "user", "content": "Where is order 42?"}]
    client, seen = t.client(), []
    for _ in range(5):
        message = client.chat.completions.parse(model=MODELS["chat"], messages=messages, tools=tools).choices[0].message
        if not message.tool_calls:
            break
        messages.append(message.model_dump(exclude_none=True, exclude={"parsed"}))
        for call in message.tool_calls:
            seen.append(call.function.parsed_arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(lookup_order(call.function.parsed_arguments.id))})
    assert len(seen) == 1 and isinstance(seen[0], LookupOrder), seen
    assert message.content, message
    assert len(t.chats()) == 2
    assert t.schema_warnings() == [], t.schema_warnings()


def case_responses_parse_no_rule(t):
    response = t.client().responses.parse(model=MODELS["chat"], input="Open a ticket: my parcel is late.", text_format=Ticket)
    assert response.status == "completed", response
    assert isinstance(response.output_parsed, Ticket), response
    assert t.schema_warnings() == [], t.schema_warnings()


def case_embeddings(t):
    answer = t.client().embeddings.create(model=MODELS["embedding"], input=["refund policy", "shipping times"])
    assert len(answer.data) == 2
    vector = answer.data[0].embedding
    assert len(vector) == 1536, len(vector)
    assert abs(sum(x * x for x in vector) - 1) < 1e-5, "a unit vector"
    assert answer.usage.prompt_tokens > 0
    assert answer.usage.cost == t.spent(), (answer.usage.cost, t.spent())


def case_cost(t):
    completion = t.client().chat.completions.create(model=MODELS["chat"], messages=QUESTION)
    cost = completion.usage.cost  # a field the client keeps from the raw usage
    assert cost > 0
    assert cost == t.spent(), (cost, t.spent())


def case_400(t):
    error = failure(lambda: t.client().chat.completions.create(model=MODELS["chat"], messages=QUESTION, temperature=3))
    assert isinstance(error, openai.BadRequestError), repr(error)
    assert error.status_code == 400
    assert "temperature" in error.message, error.message


def case_402(t):
    error = failure(lambda: t.client(t.broke_key).chat.completions.create(model=MODELS["chat"], messages=QUESTION))
    assert isinstance(error, openai.APIStatusError), repr(error)
    assert error.status_code == 402, error.status_code
    assert "credits" in error.message.lower(), error.message


def case_403(t):
    error = failure(lambda: t.client(t.spent_key).chat.completions.create(model=MODELS["chat"], messages=QUESTION))
    assert isinstance(error, openai.PermissionDeniedError), repr(error)
    assert "Key limit exceeded" in error.message, error.message


def case_guardrail_403(t):
    # A guardrail made through the control API, assigned to the key with the management API, as a Python test would.
    status, guardrail = control("POST", "/guardrails", {"userId": t.user_id, "rules": {"name": "Support plan", "allowed_models": [MODELS["other"]]}})
    assert status == 201, f"POST /__sim/guardrails answered {status}"
    assign = urllib.request.Request(
        API + f"/guardrails/{guardrail['id']}/assignments/keys",
        data=json.dumps({"key_hashes": [t.api_key_hash]}).encode(),
        method="POST",
        headers={"authorization": "Bearer " + t.management_key, "content-type": "application/json"},
    )
    with urllib.request.urlopen(assign) as response:
        assert response.status == 200, response.status
    error = failure(lambda: t.client().chat.completions.create(model=MODELS["chat"], messages=QUESTION))
    assert isinstance(error, openai.PermissionDeniedError), repr(error)
    expected = f'Guardrail "Support plan" ({guardrail["id"]}) refused the request: allowed_models does not list {MODELS["chat"]}'
    assert expected in error.message, error.message
    assert error.body["metadata"]["reason"] == "guardrail_refused", error.body
    assert t.spent() == 0


CASES = {
    "chat": case_chat,
    "stream with its usage (stream_options.include_usage)": case_stream,
    "a manual tool loop with a scripted tool call": case_tool_loop,
    "structured output with parse and Pydantic": case_structured,
    "parse with a nested Pydantic model and no rule: message.parsed an instance": case_parse_no_rule,
    "beta.chat.completions.parse and no rule: message.parsed an instance": case_beta_parse_no_rule,
    'tool_choice="required" with pydantic_function_tool and no rule: the named tool, arguments the model validates': case_required_tool_no_rule,
    "a streamed tool call with no rule: arguments in pieces, parsed to the model": case_streamed_tool_no_rule,
    "a manual tool loop with no rule: one call, then text": case_tool_loop_no_rule,
    "responses.parse with text_format and no rule: output_parsed an instance": case_responses_parse_no_rule,
    "embeddings": case_embeddings,
    "usage.cost in the raw usage, charged to the key": case_cost,
    "400 as BadRequestError naming the field": case_400,
    "402 as an APIStatusError with status 402": case_402,
    "403 as PermissionDeniedError": case_403,
    "a guardrail's 403 as PermissionDeniedError naming the guardrail, nothing charged": case_guardrail_403,
}


def main():
    for name in ("openai", "pydantic"):
        print("@@client-version " + json.dumps({"name": name, "version": version(name)}), flush=True)
    for name, run in CASES.items():
        started = time.monotonic()
        result = {"target": "server", "case": name, "ok": True}
        try:
            run(Target())
        except Exception as error:  # noqa: BLE001 (every failure is reported, then the next case runs)
            result = {"target": "server", "case": name, "ok": False, "error": f"{type(error).__name__}: {error}\n{traceback.format_exc()}"}
        result["ms"] = round((time.monotonic() - started) * 1000)
        print("@@client-case " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
