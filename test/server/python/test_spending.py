#!/usr/bin/env python3
"""Testing code that spends, from Python (standard library unittest) against a model-access-sim server.

It uses the server that test_with_server.py starts (copy both files side by side) and the default
world's handles from the server's ready line: a priced completion whose usage.cost is what the key
and the generation show, a key refused at its limit (403), an organisation out of credits (402).

    python3 -m unittest -v test_spending
"""

import unittest

import test_with_server as server
from test_with_server import setUpModule, tearDownModule  # noqa: F401 (start and stop the server)

# example: test_spending.py
QUESTION = [{"role": "user", "content": "Where is my refund?"}]


def chat(secret, body):
    return server.call("POST", server.READY["url"] + "/chat/completions", body=body, secret=secret)


class SpendingTest(unittest.TestCase):
    def setUp(self):
        # The world as the server loaded it: keys, credits and clock as the handles describe them.
        self.assertEqual(server.control("POST", "/reset")[0], 204)
        self.world = server.READY["handles"]

    def test_a_completion_charges_its_exact_cost_to_the_key(self):
        key = self.world["apiKey"]
        before = server.api("/key", key)[1]["data"]["usage"]
        status, answer = chat(key, {"model": self.world["models"]["paid"], "messages": QUESTION, "max_tokens": 200})
        self.assertEqual(status, 200)
        cost = answer["usage"]["cost"]
        self.assertGreater(cost, 0)
        # The generation and the key's usage say the same.
        status, generation = server.api("/generation?id=" + answer["id"], key)
        self.assertEqual((status, generation["data"]["total_cost"]), (200, cost))
        after = server.api("/key", key)[1]["data"]["usage"]
        self.assertAlmostEqual(after - before, cost, places=9)

    def test_a_scripted_reply_is_priced_from_its_tokens(self):
        rule = {"match": {"lastUserMessage": {"regex": "refund", "flags": "i"}}, "reply": {"content": "Refunds take 5 days."}}
        self.assertEqual(server.control("POST", "/responders", rule)[0], 201)
        status, answer = chat(self.world["apiKey"], {"model": self.world["models"]["paid"], "messages": QUESTION})
        self.assertEqual(answer["choices"][0]["message"]["content"], "Refunds take 5 days.")
        # A token per 4 characters: 4 + 5 for the message, 5 for the reply.
        self.assertEqual((answer["usage"]["prompt_tokens"], answer["usage"]["completion_tokens"]), (9, 5))

    def test_a_key_at_its_limit_is_refused_with_403(self):
        key = self.world["nearLimitKey"]  # 0.000001 USD left of 1 USD a day
        body = {"model": self.world["models"]["paid"], "messages": QUESTION}
        self.assertEqual(chat(key, body)[0], 200)  # admitted while any limit remains, charged in full
        status, refused = chat(key, body)
        self.assertEqual(status, 403)
        self.assertTrue(refused["error"]["message"].startswith("Key limit exceeded (daily limit)"))
        self.assertEqual(server.api("/key", key)[1]["data"]["limit_remaining"], 0)
        # A new UTC day: the daily limit is whole again.
        server.control("POST", "/clock/advance", {"ms": 86_400_000})
        self.assertEqual(chat(key, body)[0], 200)

    def test_an_organisation_out_of_credits_gets_402(self):
        key = self.world["lowCredits"]["apiKey"]  # a cent of credits left
        body = {"model": self.world["models"]["longContext"], "messages": QUESTION}
        status, refused = chat(key, body)
        self.assertEqual(status, 402)
        self.assertIn("can only afford", refused["error"]["message"])
        self.assertEqual(chat(key, dict(body, max_tokens=100))[0], 200)
