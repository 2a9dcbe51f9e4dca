"""The tools as real MCP servers (the official SDK's ``MCPServer``, FastMCP before mcp 2), reached through
in-memory client sessions.

One server per app (system, chat, shop, flight) over a shared :class:`~icml26.complex_mcp.apps.Sandbox`,
and one per distractor family; ``Toolbox`` holds a client session to each, lists their tools and routes a
call to the server that owns it. In-memory sessions need no socket; ``serve_http`` runs the same servers
over streamable HTTP on localhost for a user's own agent, and ``Toolbox.remote`` reaches servers by URL (the
reference's own sandbox: ``public``). Untrusted calls are checked before they reach a
server (unknown tool, arguments that are not an object or are too long) and MCP validates the argument
types; every problem comes back as an ``error`` result, never an exception. A server's tool schemas are untrusted
too: one that is not a JSON Schema object the client can check (a list, an unknown type) is refused in one line
when the session opens, and a ``pattern`` is matched with a time bound (a backtracking regex is exponential).
"""

from __future__ import annotations

import json
from contextlib import AsyncExitStack
from typing import Any, Self

import regex
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import SchemaError
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer

from .apps import TOOLS, Sandbox, error
from .distractors import distractor_tools
from .protocol import MAX_ARGUMENT_CHARS


def _tools(sandbox: Sandbox):
    """(server name, function, tool name, description) of every tool, apps first, in a fixed order."""
    for app, names in TOOLS.items():
        for name in names:
            method = getattr(sandbox, name)
            yield app, method, name, (method.__doc__ or name).strip().splitlines()[0]
    for tool in distractor_tools():
        yield tool.server, tool.function, tool.name, tool.description


def build_servers(sandbox: Sandbox, one_server: bool = False) -> dict[str, MCPServer]:
    """One server per app and per distractor family, or every tool on one server named ``complex_mcp`` (a
    single endpoint for a user's own agent over HTTP)."""
    servers: dict[str, MCPServer] = {}
    for server_name, function, name, description in _tools(sandbox):
        key = "complex_mcp" if one_server else server_name
        server = servers.setdefault(key, MCPServer(f"complex_mcp {key}".strip(), log_level="WARNING"))
        server.add_tool(function, name=name, description=description, structured_output=True)
    return servers


def combined_server(sandbox: Sandbox) -> MCPServer:
    return build_servers(sandbox, one_server=True)["complex_mcp"]


def serve_http(seed: int, failure_rate: float = 0.0, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve world ``seed`` over streamable HTTP at ``http://host:port/mcp`` (blocks until interrupted)."""
    from .world import build_world

    combined_server(Sandbox(build_world(seed), failure_rate)).run(transport="streamable-http", host=host, port=port)


class Toolbox:
    """Client sessions to every server: ``await toolbox.call(name, arguments) -> result dict``.

    ``async with Toolbox.for_sandbox(world_seed) as toolbox`` serves a fresh sandbox (``toolbox.sandbox``),
    which episodes then reset to each task's world."""

    def __init__(self, servers: dict[str, MCPServer | str], sandbox: Sandbox | None = None):
        self.servers, self.sandbox = servers, sandbox
        self.urls = {name: s for name, s in servers.items() if isinstance(s, str)}
        self.sessions: dict[str, Any] = {}
        self.owner: dict[str, str] = {}
        self.tools: list[dict] = []
        self.validators: dict[str, Any] = {}
        self._stack = AsyncExitStack()

    @classmethod
    def for_sandbox(cls, world_seed: int) -> Toolbox:
        from .world import build_world

        sandbox = Sandbox(build_world(world_seed))
        return cls(build_servers(sandbox), sandbox)

    @classmethod
    def remote(cls, urls: dict[str, str]) -> Toolbox:
        """Sessions to servers by URL (Streamable HTTP): a server that does not answer fails naming its URL."""
        return cls(dict(urls))

    async def __aenter__(self) -> Self:
        for name, server in self.servers.items():
            try:
                session = await self._stack.enter_async_context(Client(server))
            except Exception as problem:  # the SDK raises transport-specific errors; the user needs the URL
                if not isinstance(server, str):
                    raise
                await self._stack.aclose()
                from ..common.sources import fail

                fail(server, f"no MCP server of {name} answers there ({type(problem).__name__}): is the sandbox up?")
            self.sessions[name] = session
            label = server if isinstance(server, str) else f"MCP server {name}"
            try:
                listed = (await session.list_tools()).tools
            except Exception as problem:  # the SDK's own validation of the listing (an ExceptionGroup from its tasks)
                await self._stack.aclose()
                from ..common.sources import fail

                fail(label, f"its tool list is not valid MCP ({_first_line(problem)})")
            for tool in listed:
                self.owner[tool.name] = name
                self.validators[tool.name] = checked_validator(label, tool.name, tool.input_schema)
                self.tools.append(
                    {
                        "name": tool.name,
                        "description": tool.description or "",
                        "server": name,
                        "parameters": list(tool.input_schema.get("properties", {})),
                    }
                )
        return self

    async def __aexit__(self, *exc) -> None:
        await self._stack.aclose()

    async def call(self, name: str, arguments: Any) -> dict:
        if name not in self.owner:
            return error(f"unknown tool {name!r}")
        if not isinstance(arguments, dict):
            return error("arguments must be a JSON object")
        if _depth(arguments) > MAX_ARGUMENT_DEPTH:
            return error(f"arguments nested deeper than {MAX_ARGUMENT_DEPTH} levels")
        if len(json.dumps(arguments, default=str)) > MAX_ARGUMENT_CHARS:
            return error(f"arguments longer than {MAX_ARGUMENT_CHARS} characters")
        if problem := argument_problem(self.validators[name], arguments):
            return error(f"{name}: {problem}")
        return await self.call_on(self.owner[name], name, arguments)

    async def call_on(self, server: str, name: str, arguments: dict) -> dict:
        """``name`` on ``server`` (tools of the same name on several servers, as the reference's ``login``)."""
        result = await self.sessions[server].call_tool(name, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        if result.is_error:
            return error(text.strip() or "tool error")
        if isinstance(result.structured_content, dict) and "status" in result.structured_content:
            return result.structured_content
        try:  # a server that answers in text (the reference's FastMCP apps may): the same dict as JSON
            found = json.loads(text)
        except json.JSONDecodeError:
            found = None
        if isinstance(found, dict) and "status" in found:
            return found
        return error(f"tool {name!r} returned an unexpected result")


PATTERN_SECONDS = 0.1  # a tool's pattern gets this long per argument; a crafted one could take hours otherwise


def _bounded_pattern(validator: Any, pattern: str, instance: Any, schema: dict):
    """jsonschema's ``pattern`` keyword through the ``regex`` module with a time bound (``re`` has none)."""
    if not validator.is_type(instance, "string"):
        return
    try:
        found = regex.search(pattern, instance, timeout=PATTERN_SECONDS)
    except TimeoutError:
        yield ValidationError(f"pattern {pattern!r} took over {PATTERN_SECONDS:g} s on this value; refused")
        return
    if found is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _bounded_pattern_properties(validator: Any, patterns: dict, instance: Any, schema: dict):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                hit = regex.search(pattern, key, timeout=PATTERN_SECONDS)
            except TimeoutError:
                yield ValidationError(f"pattern {pattern!r} took over {PATTERN_SECONDS:g} s on key {key!r}; refused")
                continue
            if hit:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


BoundedValidator = validators.extend(
    Draft202012Validator, {"pattern": _bounded_pattern, "patternProperties": _bounded_pattern_properties}
)


def checked_validator(server: str, tool: str, schema: Any) -> Any:
    """A strict validator for ``tool``'s input schema, or one line naming the server and tool: the schema must be a
    JSON Schema (draft 2020-12) of an object, its types the schema language's own and its patterns compilable."""
    from ..common.sources import fail

    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        fail(server, f"tool {tool!r}: its input schema must be a JSON Schema of an object, got {_kind(schema)}")
    try:
        BoundedValidator.check_schema(schema)
    except SchemaError as problem:
        where = "/".join(map(str, problem.path))
        fail(
            server,
            f"tool {tool!r}: its input schema cannot be checked ({where + ': ' if where else ''}"
            f"{_first_line(problem.message)})",
        )
    for pattern in _patterns(schema):
        try:
            regex.compile(pattern)
        except regex.error as problem:
            fail(server, f"tool {tool!r}: its input schema's pattern {pattern!r} does not compile ({problem})")
    return BoundedValidator(schema)


def _patterns(schema: Any) -> list[str]:
    """Every ``pattern`` and ``patternProperties`` key in a schema, at any depth."""
    found, stack = [], [schema]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("pattern"), str):
                found.append(item["pattern"])
            if isinstance(item.get("patternProperties"), dict):
                found += list(item["patternProperties"])
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return found


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return f"type {value.get('type')!r}"
    return f"a JSON {type(value).__name__}"


def _first_line(problem: BaseException | str) -> str:
    """A one-line description; an ExceptionGroup's first leaf."""
    while isinstance(problem, BaseExceptionGroup) and problem.exceptions:
        problem = problem.exceptions[0]
    text = str(problem).strip().splitlines()
    return (text[0] if text else type(problem).__name__)[:200]


def argument_problem(validator: Any, arguments: dict) -> str | None:
    """Why ``arguments`` do not fit the tool's input schema, strictly, or None. The servers' own validation
    (pydantic's lax mode) would coerce ``"2"`` or ``True`` to a count and drop unknown arguments silently: harmless
    for the scripted agents, misleading for a user's agent, whose mistakes must come back as errors."""
    known = set(validator.schema.get("properties", {}))
    unknown = sorted(set(arguments) - known)
    if unknown:
        return (
            f"unknown argument(s) {', '.join(map(repr, unknown))}; this tool takes {', '.join(sorted(known)) or 'none'}"
        )
    error = next(iter(sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))), None)
    if error is None:
        return None
    where = ".".join(str(p) for p in error.path)
    return f"argument {where}: {error.message}" if where else error.message


MAX_ARGUMENT_DEPTH = 16  # no tool takes more than two levels; deeper JSON is refused before serialisation


def _depth(value: Any) -> int:
    """Nesting depth of a JSON value, without recursion (an untrusted value may be thousands deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_ARGUMENT_DEPTH:
                return level
            stack += [(child, level + 1) for child in (item.values() if isinstance(item, dict) else item)]
    return deepest


if __name__ == "__main__":  # python -m icml26.complex_mcp.servers --seed 0 --port 8000
    import argparse

    parser = argparse.ArgumentParser(description="Serve a ComplexMCP sandbox world over streamable HTTP.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--failure-rate", type=float, default=0.0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    serve_http(args.seed, args.failure_rate, args.host, args.port)


def serve(server):
    """``server`` over Streamable HTTP on a free localhost port, in a thread: (the uvicorn server, its URL)."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    running = uvicorn.Server(
        uvicorn.Config(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=running.run, daemon=True).start()
    deadline = time.time() + 60  # a guard against a hang, not a time limit
    while not running.started and time.time() < deadline:
        time.sleep(0.05)
    if not running.started:
        raise RuntimeError(f"the replica sandbox's server did not start on 127.0.0.1:{port}")
    return running, f"http://127.0.0.1:{port}/mcp"
