"""The agent protocol as text: ``<tool>{"name": ..., "arguments": {...}}</tool>`` calls, ``<response>``
results, ``[END]`` to stop (the reference's format). Agent text is untrusted: the parser never raises on
it, it returns what it found and what was wrong."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

END = "[END]"
MAX_ARGUMENT_CHARS = 4000  # an argument blob longer than this is refused (untrusted input)
_OPEN, _CLOSE = "<tool>", "</tool>"


@dataclass
class Call:
    name: str
    arguments: dict = field(default_factory=dict)


@dataclass
class Parsed:
    calls: list[Call]
    errors: list[str]
    end: bool


def parse(text: str) -> Parsed:
    """Every ``<tool>`` block of ``text``. A block without its closing tag runs to the next ``<tool>`` or
    the end of the text; bad JSON, a missing name or non-object arguments become errors, not calls."""
    calls, errors = [], []
    pieces = text.split(_OPEN)[1:]
    for piece in pieces:
        body = piece.split(_CLOSE, 1)[0].strip()
        if len(body) > MAX_ARGUMENT_CHARS:
            errors.append(f"tool call of {len(body)} characters is longer than the limit of {MAX_ARGUMENT_CHARS}")
            continue
        body = re.sub(r"^```(?:json)?|```$", "", body).strip()
        try:
            payload = json.loads(body)
        except json.JSONDecodeError as error:
            errors.append(f"tool call is not valid JSON ({error.msg} at character {error.pos})")
            continue
        if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
            errors.append("tool call must be a JSON object with a string 'name'")
            continue
        arguments = payload.get("arguments", {})
        if not isinstance(arguments, dict):
            errors.append(f"arguments of {payload['name']!r} must be a JSON object")
            continue
        calls.append(Call(payload["name"], arguments))
    outside = [text.split(_OPEN)[0], *(piece.split(_CLOSE, 1)[1] for piece in pieces if _CLOSE in piece)]
    return Parsed(calls, errors, any(END in part for part in outside))


def call_text(name: str, arguments: dict) -> str:
    return f"{_OPEN}{json.dumps({'name': name, 'arguments': arguments}, sort_keys=True)}{_CLOSE}"


def response_text(result: dict) -> str:
    return f"<response>{json.dumps(result, sort_keys=True, default=str)}</response>"


def read_response(observation: str) -> Any:
    """The first ``<response>`` payload of an observation (None if there is none or it is not JSON)."""
    match = re.search(r"<response>(.*?)</response>", observation, flags=re.DOTALL)
    if not match:
        return None
    try:
        return json.loads(match.group(1))
    except json.JSONDecodeError:
        return None
