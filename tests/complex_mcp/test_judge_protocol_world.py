"""The judge on hand-made states, the text protocol's parser, and the seeded world and failures."""

import copy

import pytest

from icml26.complex_mcp.apps import Sandbox
from icml26.complex_mcp.judge import (
    INTENDED_EXCLUDE_KEYS,
    REFERENCE_EXCLUDE_KEYS,
    RELEASED_EXCLUDE_KEYS,
    content_match,
    fuzzy_match,
    judge,
)
from icml26.complex_mcp.protocol import MAX_ARGUMENT_CHARS, call_text, parse
from icml26.complex_mcp.world import build_world

OLD = {
    "shop": {"apple": {"price": 1.0, "stock": 5}, "pear": {"price": 2.0, "stock": 3}},
    "messages": [{"mid": "m1", "content": "hello there"}],
}


def test_judge_counts_fields_to_change_recalled_and_misbehaving_on_a_hand_made_case():
    gold = copy.deepcopy(OLD)
    gold["shop"]["apple"]["stock"] = 4  # to change
    gold["messages"].append({"mid": "m2", "content": "The apple cost 1.00."})  # to add: content (mid excluded)
    new = copy.deepcopy(gold)
    new["messages"][1]["content"] = "the apple cost 1.00"  # fuzzy: same text up to case and final dot
    new["shop"]["pear"]["price"] = 2.5  # should have stayed
    new["messages"][1]["mid"] = "m9"  # excluded id
    score = judge(OLD, new, gold, frozenset({"mid"}))
    assert (score.total, score.recall, score.misbehave) == (2, 2, 1)
    assert not score.success and score.completion == 1.0
    assert judge(OLD, gold, gold, frozenset({"mid"})).success
    assert judge(OLD, OLD, gold, frozenset({"mid"})).recall == 0
    extra = copy.deepcopy(gold)
    extra["messages"].append({"mid": "m3", "content": "spam"})  # an extra action: one misbehaving field
    assert judge(OLD, extra, gold, frozenset({"mid"})).misbehave == 1


def test_fuzzy_match_is_the_references_rule():
    assert fuzzy_match("  Hello World ", "hello world")
    assert fuzzy_match("I booked flight fid_0042 for you.", "booked flight fid_0042")  # gold inside a long text
    assert not fuzzy_match("short", "a completely different text")
    assert fuzzy_match(None, None) and not fuzzy_match(None, "x")


@pytest.mark.parametrize(
    "sent, gold",
    [
        ("Booked FL124.", "Booked FL123."),  # another flight
        ("The apple cost 1.10.", "The apple cost 1.00."),  # another price
        ("See you at the station at noon, Bob.", "See you at the station at noon, Alice."),  # another person
        ("Do NOT: Can you call me back tonight?", "Can you call me back tonight?"),  # the gold, negated
    ],
)
def test_near_misses_the_reference_rule_accepts_fail_the_judge(sent, gold):
    assert fuzzy_match(sent, gold)  # the reference's rule alone: a success
    assert not content_match(sent, gold)


@pytest.mark.parametrize(
    "sent, gold",
    [
        ("the apple cost 1.00", "The apple cost 1.00."),  # case and the final dot
        ("I booked FL123 for you, Alice.", "Booked FL123 for you, Alice."),  # close wording, same anchors
        ("  Running ten minutes late, sorry! ", "Running ten minutes late, sorry!"),
        ("Paid 12.50. Thanks!", "Paid 12.50."),  # the gold inside a longer text
    ],
)
def test_free_text_with_the_same_ids_numbers_and_names_still_matches(sent, gold):
    assert content_match(sent, gold)


def test_released_exclude_keys_lose_rid_and_oid_to_the_missing_commas():
    assert RELEASED_EXCLUDE_KEYS == (REFERENCE_EXCLUDE_KEYS - {"rid", "oid"}) | {"ridoid"}
    old = {"orders": []}
    gold = {"orders": [{"oid": "oid_0001", "total": 3.0}]}
    new = {"orders": [{"oid": "oid_0007", "total": 3.0}]}  # right order, another generated id
    assert judge(old, new, gold, INTENDED_EXCLUDE_KEYS).success
    released = judge(old, new, gold, RELEASED_EXCLUDE_KEYS)
    assert (released.total, released.recall) == (2, 1) and not released.success


def test_parser_handles_missing_close_tags_bad_json_and_end():
    text = 'thinking <tool>{"name": "a", "arguments": {"x": 1}}</tool> then <tool>{"name": "b"} [END]'
    parsed = parse(text)
    assert [(c.name, c.arguments) for c in parsed.calls] == [("a", {"x": 1})]  # b's block runs to the end: bad JSON
    assert len(parsed.errors) == 1 and "not valid JSON" in parsed.errors[0]
    assert parse('<tool>{"name": "b"}').calls[0].name == "b"  # unclosed, valid
    assert parse("<tool>{not json}</tool>").errors[0].startswith("tool call is not valid JSON")
    assert parse('<tool>["a"]</tool>').errors == ["tool call must be a JSON object with a string 'name'"]
    assert parse('<tool>{"name": "a", "arguments": [1]}</tool>').errors == ["arguments of 'a' must be a JSON object"]
    assert "longer than the limit" in parse("<tool>" + "x" * (MAX_ARGUMENT_CHARS + 1) + "</tool>").errors[0]
    assert parse("All done. [END]").end and not parse(call_text("a", {"t": "[END]"})).end
    assert parse(call_text("a", {"k": [1, 2]})).calls[0].arguments == {"k": [1, 2]}


def test_same_seed_and_call_sequence_give_identical_state_and_failures():
    def session(seed):
        sandbox = Sandbox(build_world(seed), failure_rate=0.3, failure_seed=4)
        results = []
        for _ in range(20):
            results.append(sandbox.chat_send_message(next(iter(sandbox.world.contacts)), "hi"))
            if results[-1]["status"] == "failed":
                results.append(sandbox.system_reconnect())
        return results, sandbox.world.snapshot()

    assert session(3) == session(3)
    results, _ = session(3)
    assert any(r["status"] == "failed" for r in results) and any(r["status"] == "ok" for r in results)
    assert session(3) != session(5)
    assert build_world(7).snapshot() == build_world(7).snapshot() != build_world(8).snapshot()


def test_a_network_failure_changes_nothing_and_lasts_until_reconnect():
    sandbox = Sandbox(build_world(0), failure_rate=0.0)
    sandbox.world.online = False
    before = sandbox.world.snapshot()
    cid = next(iter(sandbox.world.contacts))
    assert "offline" in sandbox.chat_send_message(cid, "x")["output"] and sandbox.world.snapshot() == before
    sandbox.system_reconnect()
    assert sandbox.chat_send_message(cid, "x")["status"] == "ok"
