"""Through the real MCP servers: round trips, untrusted calls, the oracle on every task, the sandbox's
isolation from the host, and the agents' distinguishing behaviours."""

import asyncio
import builtins
import json
import socket

import pytest

from icml26.complex_mcp.apps import TOOLS, Sandbox
from icml26.complex_mcp.episodes import Limits, run_episode
from icml26.complex_mcp.servers import Toolbox
from icml26.complex_mcp.tasks import TEMPLATES, gold_state, make_task, prepare
from icml26.complex_mcp.world import build_world


def with_toolbox(body):
    async def main():
        async with Toolbox.for_sandbox(0) as toolbox:
            return await body(toolbox, toolbox.sandbox)

    return asyncio.run(main())


def test_hundreds_of_tools_and_structured_content_equals_the_text():
    async def body(toolbox, sandbox):
        assert len(toolbox.tools) > 200 and len({t["name"] for t in toolbox.tools}) == len(toolbox.tools)
        assert {t["name"] for t in toolbox.tools} >= {name for names in TOOLS.values() for name in names}
        session = toolbox.sessions["shop"]
        result = await session.call_tool("shop_list_shops", {"category": "books"})
        assert result.structured_content == json.loads(result.content[0].text)
        assert result.structured_content == sandbox.shop_list_shops("books")

    with_toolbox(body)


def test_the_distractors_shown_are_exactly_the_number_asked_for_never_clamped():
    from icml26.complex_mcp.episodes import exposed_tools

    async def body(toolbox, sandbox):
        gold = ["shop_list_shops"]
        others = len(toolbox.tools) - 1
        assert len(exposed_tools(toolbox, gold, 7, seed=0)) == 1 + 7
        assert len(exposed_tools(toolbox, gold, others, seed=0)) == len(toolbox.tools)
        with pytest.raises(ValueError, match=f"distractors: {others + 1} asked for, but only {others} tools"):
            exposed_tools(toolbox, gold, others + 1, seed=0)

    with_toolbox(body)


def test_untrusted_calls_get_error_results_never_exceptions():
    deep: list = []
    for _ in range(500):
        deep = [deep]

    async def body(toolbox, sandbox):
        bad = [
            await toolbox.call("no_such_tool", {}),
            await toolbox.call("shop_add_to_cart", {"sid": "x", "tid": "y", "count": "many"}),  # wrong type
            await toolbox.call("shop_add_to_cart", {"sid": "x"}),  # missing arguments
            await toolbox.call("chat_send_message", {"cid": "c", "content": "x" * 5000}),  # oversized
            await toolbox.call("math_divide", ["not", "an", "object"]),
            await toolbox.call("math_divide", {"a": deep, "b": 1}),  # 500 levels: an error result, not an exception
        ]
        assert [r["status"] for r in bad] == ["error"] * 6
        assert "nested deeper than" in bad[-1]["output"]
        assert (await toolbox.call("math_divide", {"a": 1, "b": 0}))["status"] == "failed"  # a tool's own refusal
        assert (await toolbox.call("units_celsius_to_fahrenheit", {"value": 100}))["output"] == 212

    with_toolbox(body)


def test_tool_arguments_are_checked_strictly_never_coerced_or_dropped():
    """pydantic's lax mode accepted ``count=True`` and ``count="2"`` and dropped unknown arguments; a user's agent
    gets an error result naming the argument instead, and the world is left unchanged (issue 52)."""

    async def body(toolbox, sandbox):
        shop = next(iter(sandbox.world.shops))
        item = next(iter(sandbox.world.shops[shop]["items"]))
        before = list(sandbox.world.cart)
        refused = {
            "bool": await toolbox.call("shop_add_to_cart", {"sid": shop, "tid": item, "count": True}),
            "string": await toolbox.call("shop_add_to_cart", {"sid": shop, "tid": item, "count": "2"}),
            "extra": await toolbox.call("shop_add_to_cart", {"sid": shop, "tid": item, "count": 1, "colour": "red"}),
        }
        assert all(r["status"] == "error" for r in refused.values()), refused
        assert "argument count: True is not of type 'integer'" in refused["bool"]["output"]
        assert "argument count: '2' is not of type 'integer'" in refused["string"]["output"]
        assert "unknown argument(s) 'colour'" in refused["extra"]["output"]
        assert sandbox.world.cart == before
        ok = await toolbox.call("shop_add_to_cart", {"sid": shop, "tid": item, "count": 1})
        assert ok["status"] == "ok" and len(sandbox.world.cart) == len(before) + 1

    with_toolbox(body)


def episodes(agent, worlds=(0, 1), failure_rate=0.1, distractors=None):
    async def body(toolbox, sandbox):
        rows = []
        for seed in worlds:
            world = build_world(seed)
            for template in TEMPLATES:
                task = make_task(world, template, 0)
                rows.append(
                    await run_episode(
                        toolbox,
                        agent,
                        task,
                        world,
                        failure_rate=failure_rate,
                        failure_seed=1,
                        distractors=distractors,
                        limits=Limits(),
                    )
                )
        return rows

    return with_toolbox(body)


def test_the_oracle_solves_every_task_on_every_seed_despite_failures():
    rows = episodes("oracle", worlds=(0, 1, 2), failure_rate=0.2)
    assert all(r["success"] == 1 and r["misbehave"] == 0 for r in rows)
    assert sum(r["failed"] for r in rows) > 0  # failures did happen and were recovered from


def test_every_task_changes_something_on_most_worlds():
    changed = 0
    for seed in range(4):
        world = build_world(seed)
        for template in TEMPLATES:
            task = make_task(world, template, 0)
            start = prepare(world, task)
            changed += gold_state(task, start) != start.snapshot()
    assert changed >= 0.9 * 4 * len(TEMPLATES)


def test_no_retry_gives_up_and_skip_verification_assumes():
    assert sum(r["success"] for r in episodes("no_retry", failure_rate=0.0)) == 2 * len(TEMPLATES)  # nothing fails
    assert sum(r["success"] for r in episodes("no_retry", failure_rate=0.3)) < 2 * len(TEMPLATES)
    skip = episodes("skip_verification", worlds=(0, 1, 2, 3), failure_rate=0.0)
    assert sum(r["success"] for r in skip) < len(skip)
    assert all(r["success"] for r in skip if r["template"] == "message")  # nothing to verify there


def test_random_agent_and_retrieval_with_gold_tools_only():
    assert sum(r["success"] for r in episodes("random", failure_rate=0.0)) <= 2
    gold_only = episodes("retrieval", failure_rate=0.0, distractors=0)
    assert sum(r["success"] for r in gold_only) >= 0.8 * len(gold_only)


def test_episodes_never_touch_the_host_filesystem_or_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"the sandbox tried to reach the host: {args[:1]}")

    async def body(toolbox, sandbox):
        monkeypatch.setattr(builtins, "open", refuse)
        monkeypatch.setattr(socket, "socket", refuse)
        world = build_world(5)
        for agent in ("oracle", "random"):
            for template in TEMPLATES:
                await run_episode(
                    toolbox,
                    agent,
                    make_task(world, template, 1),
                    world,
                    failure_rate=0.2,
                    failure_seed=0,
                    distractors=None,
                    limits=Limits(max_turns=20),
                )
        await toolbox.call("security_get_password", {"site": "../../etc/passwd"})

    with_toolbox(body)


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_gold_state_is_deterministic(template):
    world = build_world(2)
    task = make_task(world, template, 0)
    assert gold_state(task, prepare(world, task)) == gold_state(make_task(world, template, 0), prepare(world, task))


def test_http_mode_serves_the_same_tools_on_localhost():
    from mcp.client.client import Client

    from icml26.complex_mcp.servers import combined_server, serve

    sandbox = Sandbox(build_world(0))
    server, url = serve(combined_server(sandbox))

    async def call():
        async with Client(url) as client:
            tools = (await client.list_tools()).tools
            result = await client.call_tool("shop_list_categories", {})
            return len(tools), result.structured_content

    try:
        count, content = asyncio.run(call())
    finally:
        server.should_exit = True
    assert count > 200 and content == sandbox.shop_list_categories()


def test_a_math_tool_never_answers_ok_with_a_number_that_is_not_finite():
    """`add(1e308, 1e308)` overflows to inf, which JSON carries as null: it was `ok` with null (issue 67)."""
    from icml26.complex_mcp.distractors import _math_tools

    tools = {tool.name.split("_", 1)[1]: tool.function for tool in _math_tools()}
    assert tools["add"](a=1.0, b=2.0) == {"status": "ok", "output": 3.0}
    overflow = tools["add"](a=1e308, b=1e308)
    assert overflow["status"] == "failed" and "not a finite number (inf)" in overflow["output"]
    assert tools["multiply"](a=-1e308, b=10.0)["status"] == "failed"
    assert tools["sqrt"](x=-1.0)["status"] == "failed"  # a domain error, as before
    assert tools["mean"](values=[float("nan"), 1.0])["status"] == "failed"


def _hostile_toolbox(schema):
    """A Toolbox over one server whose only tool declares ``schema`` as its input schema (what a hostile or broken
    server may list)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("hostile", log_level="WARNING")

    def echo(text: str) -> str:
        """Echo the text."""
        return json.dumps({"status": "ok", "output": text})

    server.add_tool(echo, name="echo", description="echo")
    server._tool_manager._tools["echo"].parameters = schema  # the SDK builds it from the signature; replace it
    return Toolbox({"hostile": server})


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(a|a)*$"])
def test_a_backtracking_pattern_in_a_tool_schema_is_cut_off_not_run_for_ever(pattern):
    """Under ``re`` both take exponential time on 40 a's and a '!' (the first took 14 s on 29 characters); the
    ``regex`` module matches the first at once, and the time bound stops the second with an error result."""
    from icml26.complex_mcp import servers

    schema = {"type": "object", "properties": {"text": {"type": "string", "pattern": pattern}}}

    async def main():
        async with _hostile_toolbox(schema) as toolbox:
            return [await toolbox.call("echo", {"text": text}) for text in ("a" * 40 + "!", "aaa", "b")]

    slow, fine, mismatch = asyncio.run(main())
    assert slow["status"] == "error", slow
    assert f"took over {servers.PATTERN_SECONDS:g} s" in slow["output"] or "does not match" in slow["output"]
    assert fine["status"] == "ok"
    assert mismatch["status"] == "error" and "'b' does not match" in mismatch["output"]
    if pattern == "^(a|a)*$":
        assert "took over" in slow["output"]


@pytest.mark.parametrize(
    "schema, says",
    [
        ({"type": "object", "properties": {"text": {"type": "frobnicate"}}}, "cannot be checked (properties/text/type"),
        ({"type": "object", "properties": {"text": {"type": "string", "pattern": "(unclosed"}}}, "is not a 'regex'"),
        ({"type": "array", "items": {"type": "string"}}, "its tool list is not valid MCP"),  # the SDK refuses it
        (["not", "a", "schema"], "its tool list is not valid MCP"),
    ],
)
def test_a_tool_schema_the_client_cannot_check_is_refused_in_one_line(schema, says):
    from icml26.common.sources import SourceError

    async def main():
        async with _hostile_toolbox(schema):
            pass

    with pytest.raises(SourceError) as refused:
        asyncio.run(main())
    message = str(refused.value)
    assert message.startswith("MCP server hostile: ") and says in message and "\n" not in message


def test_a_schema_not_of_an_object_is_refused_even_where_the_sdk_lets_it_through():
    from icml26.common.sources import SourceError
    from icml26.complex_mcp.servers import checked_validator

    with pytest.raises(SourceError, match=r"^http://h/mcp: tool 't': .* of an object, got type 'array'$"):
        checked_validator("http://h/mcp", "t", {"type": "array"})
    assert checked_validator("s", "t", {"type": "object", "properties": {"n": {"type": "integer"}}}).is_valid({"n": 1})
