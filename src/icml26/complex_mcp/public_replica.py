"""A tiny stand-in of the reference's sandbox and task file, in exactly their protocol and format, for tests.

Two apps as MCP servers: ``LightSystem`` (``login(seed)``, ``logout``, the internal ``_step``, ``now``) and a chat
app ``LightTalk`` (``login(seed, os_cfg)``, ``logout``, ``get_uid_from_name``, ``mark_as_read``, ``send_message``),
each keeping its sessions by id and answering ``{"status", "output"}`` as JSON text (no structured output, so the
client's text path is what the tests run); its contacts and unread messages
are drawn from the seed. ``write_tasks`` writes a ``data.parquet`` with the reference's seven columns: two tasks
whose gold states come from running their recorded solutions here. Ours, written from the reference's protocol (its
client's calls), not from its apps; the real sandbox is the reference's Docker image.
"""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path

from mcp.server.mcpserver import MCPServer

from .protocol import call_text

NAMES = ("Sean Baker", "Hayden Parker", "Mia Chen", "Omar Diaz")


def _ok(output) -> dict:
    return {"status": "ok", "output": output}


def _failed(output: str) -> dict:
    return {"status": "failed", "output": output}


def system_server() -> MCPServer:
    server, sessions = MCPServer("LightSystem", log_level="WARNING"), {}

    def login(seed: int) -> dict:
        sid = f"os_{uuid.uuid4().hex[:12]}"
        sessions[sid] = {"clock": 1_700_000_000 + seed}
        return {"status": "ok", "session_id": sid, "session_info": _ok(dict(sessions[sid]))}

    def logout(session_id: str) -> dict:
        return _ok(sessions.pop(session_id)) if session_id in sessions else _failed("session not found")

    def _step(session_id: str) -> dict:
        sessions[session_id]["clock"] += 1
        return _ok(sessions[session_id]["clock"])

    def now(session_id: str) -> dict:
        """The system clock."""
        return _ok(sessions[session_id]["clock"]) if session_id in sessions else _failed("session not found")

    for function in (login, logout, _step, now):
        server.add_tool(function, name=function.__name__, description=function.__doc__ or "", structured_output=False)
    return server


def talk_server() -> MCPServer:
    server, sessions = MCPServer("LightTalk", log_level="WARNING"), {}

    def login(seed: int, os_cfg: dict) -> dict:
        rng = random.Random(seed)
        contacts = {
            f"user_{rng.getrandbits(32):08x}": {"name": name, "chat_history": [{"text": "hi", "read": False}]}
            for name in NAMES
        }
        sid = f"talk_{uuid.uuid4().hex[:12]}"
        sessions[sid] = {"contacts": contacts, "os": os_cfg["session_id"]}
        return {"status": "ok", "session_id": sid, "session_info": _ok({"contacts": contacts})}

    def logout(session_id: str) -> dict:
        if session_id not in sessions:
            return _failed("session not found")
        return _ok({"contacts": sessions.pop(session_id)["contacts"]})

    def get_uid_from_name(name: str, session_id: str) -> dict:
        """The uid of a contact by name."""
        found = [uid for uid, c in sessions[session_id]["contacts"].items() if c["name"] == name]
        return _ok(found[0]) if found else _failed(f"no contact named {name}")

    def mark_as_read(uid: str, session_id: str) -> dict:
        """Mark a contact's messages as read."""
        contact = sessions[session_id]["contacts"].get(uid)
        if contact is None:
            return _failed(f"no contact {uid}")
        for message in contact["chat_history"]:
            message["read"] = True
        return _ok("done")

    def send_message(uid: str, text: str, session_id: str) -> dict:
        """Send a message to a contact."""
        contact = sessions[session_id]["contacts"].get(uid)
        if contact is None:
            return _failed(f"no contact {uid}")
        contact["chat_history"].append({"text": text, "read": True})
        return _ok("sent")

    for function in (login, logout, get_uid_from_name, mark_as_read, send_message):
        server.add_tool(function, name=function.__name__, description=function.__doc__ or "", structured_output=False)
    return server


def uid(seed: int, name: str) -> str:
    """The uid ``talk_server`` draws for ``name`` under ``seed``."""
    rng = random.Random(seed)
    return {n: f"user_{rng.getrandbits(32):08x}" for n in NAMES}[name]


def solutions() -> list[dict]:
    """The replica's tasks with their recorded solutions and gold final states (computed, not typed in)."""
    found = []
    for seed, name, level, reply in ((42, "Sean Baker", 1, None), (7, "Mia Chen", 2, "see you at 5")):
        who = uid(seed, name)
        calls = [("get_uid_from_name", {"name": name}), ("mark_as_read", {"uid": who})]
        if reply:
            calls.append(("send_message", {"uid": who, "text": reply}))
        rng = random.Random(seed)
        contacts = {
            f"user_{rng.getrandbits(32):08x}": {"name": n, "chat_history": [{"text": "hi", "read": False}]}
            for n in NAMES
        }
        contacts[who]["chat_history"][0]["read"] = True
        if reply:
            contacts[who]["chat_history"].append({"text": reply, "read": True})
        query = f"Mark the messages from {name} as read" + (f" and reply '{reply}'." if reply else ".")
        found.append(
            {
                "seed": seed,
                "query": query + "\nAfter you finish the task, output an [END] in the final.",
                "apps": json.dumps(["LightTalk"]),
                "level": level,
                "output": json.dumps("".join(f"{call_text(n, a)}\n<response>{{}}</response>\n" for n, a in calls)),
                "tool_cnt": json.dumps({n: {"ok": 1} for n, _ in calls}),
                "gt_env": json.dumps(
                    {
                        "LightSystem": _ok({"clock": 1_700_000_000 + seed}),
                        "LightTalk": _ok({"contacts": contacts}),
                    }
                ),
            }
        )
    return found


def write_tasks(path: str | Path) -> Path:
    import pandas as pd

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(solutions()).to_parquet(path, index=False)
    return path


def write_replica(folder: str | Path) -> Path:
    """The fetched folder's replica: ``data.parquet`` in it."""
    return write_tasks(Path(folder) / "data.parquet")


class Sandbox:
    """The replica sandbox (``LightSystem`` and ``LightTalk``) on localhost for as long as the ``with`` block:
    ``public.servers`` for a run of the replica tasks (the tests, ``make gpu-check``)."""

    def __enter__(self) -> dict[str, str]:
        from .servers import serve

        (self.system, system_url), (self.talk, talk_url) = serve(system_server()), serve(talk_server())
        return {"LightSystem": system_url, "LightTalk": talk_url}

    def __exit__(self, *exc) -> None:
        self.system.should_exit = self.talk.should_exit = True
