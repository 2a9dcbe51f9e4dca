"""Agents: anything with ``act(observation) -> text`` in the tool protocol (``protocol``) is an agent, so an
LLM client plugs in at ``paper`` scale. The scripted agents here stand in for LLM behaviours (no LLM can
run here; a substitution stated in the docs), each isolating one of the paper's bottlenecks:

- ``oracle``: the careful program; on a network error it reconnects and retries (the upper bound);
- ``no_retry``: the careful program, but the first failed result ends the episode with an excuse
  ("strategic defeatism");
- ``skip_verification``: the program with ``careful=False``: no verification steps, assumptions instead
  ("over-confidence"); it still reconnects after network errors;
- ``retrieval``: the careful program with retries, but it knows only each step's intent in words: it picks
  the tool by BM25 (``rank_bm25``) over the names and descriptions of the tools it is shown, fills the
  arguments by name, and tries the next-ranked tool when a call is refused ("tool retrieval saturation");
- ``random``: random shown tools with arguments drawn from the task's values.
"""

from __future__ import annotations

import random
import re
from typing import Any

from rank_bm25 import BM25Okapi

from .protocol import END, call_text, read_response
from .tasks import Step, Task

MAX_RETRIES = 3  # per step, after a network error
TOOL_ATTEMPTS = 3  # retrieval agent: ranked tools tried when a call is refused


def is_network_error(result: Any) -> bool:
    return (
        isinstance(result, dict) and result.get("status") == "failed" and "network error" in str(result.get("output"))
    )


class ProgramAgent:
    """Drives a task program through the text protocol. Subclasses say what to do after a failure."""

    careful = True
    retry_network = True
    stop_on_failure = False

    def __init__(self, task: Task, tools: list[dict], seed: int = 0):
        self.program = task.program(task.params, self.careful)
        self.tools = {tool["name"]: tool for tool in tools}
        self.step: Step | None = None
        self.retries = 0
        self.reconnecting = False
        self.done = False

    def act(self, observation: str) -> str:
        if self.done:
            return END
        result = read_response(observation) if self.step is not None else None
        try:
            if self.step is None:
                return self._emit(next(self.program))
            if self.reconnecting:  # the reconnect's answer: retry the step
                self.reconnecting = False
                return self._emit(self.step)
            if (
                is_network_error(result)
                and self.retry_network
                and not self.stop_on_failure
                and self.retries < MAX_RETRIES
            ):
                self.retries += 1
                self.reconnecting = True
                return call_text("system_reconnect", {})
            if self.stop_on_failure and isinstance(result, dict) and result.get("status") != "ok":
                self.done = True
                return f"The service keeps failing ({result.get('output')}); this cannot be done right now. {END}"
            self.retries = 0
            return self._emit(self.program.send(result))
        except StopIteration:
            self.done = True
            return f"All done. {END}"

    def _emit(self, step: Step) -> str:
        self.step = step
        return call_text(step.tool, step.arguments)


class Oracle(ProgramAgent):
    pass


class NoRetry(ProgramAgent):
    stop_on_failure = True


class SkipVerification(ProgramAgent):
    careful = False


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("_", " "))


class Retrieval(ProgramAgent):
    """Picks each step's tool by BM25 over the shown tools, from the step's intent alone."""

    def __init__(self, task: Task, tools: list[dict], seed: int = 0):
        super().__init__(task, tools, seed)
        self.names = sorted(self.tools)
        self.index = BM25Okapi([_words(f"{name} {self.tools[name]['description']}") for name in self.names])
        self.candidates: list[str] = []

    def ranked(self, intent: str) -> list[str]:
        scores = self.index.get_scores(_words(intent))
        return [name for _, name in sorted(zip(-scores, self.names))][:TOOL_ATTEMPTS]

    def act(self, observation: str) -> str:
        result = read_response(observation) if self.step is not None else None
        refused = isinstance(result, dict) and result.get("status") == "error"
        if refused and self.candidates and not self.done:  # wrong tool for these arguments: try the next one
            return self._call(self.step, self.candidates.pop(0))
        return super().act(observation)

    def _emit(self, step: Step) -> str:
        self.step = step
        if step.tool == "system_reconnect":
            return call_text(step.tool, step.arguments)
        self.candidates = self.ranked(step.intent)
        return self._call(step, self.candidates.pop(0))

    def _call(self, step: Step, name: str) -> str:
        wanted = self.tools[name]["parameters"]
        values = list(step.arguments.values())
        arguments = {key: step.arguments.get(key, values[i] if i < len(values) else "") for i, key in enumerate(wanted)}
        return call_text(name, arguments)


class RandomAgent:
    """Calls random shown tools with arguments drawn from the task's own values."""

    def __init__(self, task: Task, tools: list[dict], seed: int = 0):
        self.rng = random.Random(f"random/{seed}/{task.instruction}")
        self.tools = tools
        self.values = [v for v in task.params.values() if isinstance(v, (str, int, float))]

    def act(self, observation: str) -> str:
        tool = self.rng.choice(self.tools)
        arguments = {key: self.rng.choice(self.values) if self.values else "" for key in tool["parameters"]}
        return call_text(tool["name"], arguments)


SCRIPTED = {
    "oracle": Oracle,
    "no_retry": NoRetry,
    "skip_verification": SkipVerification,
    "retrieval": Retrieval,
    "random": RandomAgent,
}


class LanguageModelAgent:
    """A causal LM from a local Hugging Face checkpoint folder as the agent (``paper`` scale: the user's model).

    Its prompt is the transcript (the harness's introduction, its own replies, the responses) as plain text;
    it answers by greedy decoding (or sampling at ``temperature``) through the shared LM toolkit. When the
    transcript outgrows the model's context, the oldest exchanges are dropped and the introduction kept; if
    the introduction alone does not fit, the toolkit's error names both lengths (expose fewer tools).
    """

    def __init__(
        self,
        task: Task,
        tools: list[dict],
        seed: int = 0,
        *,
        checkpoint: str,
        max_new_tokens: int = 128,
        temperature: float = 0.0,
        device: str = "cpu",
    ):
        from ..common.device import resolve_device
        from ..common.lm.model import context_length, load_model
        from ..common.lm.tokenizer import load_tokenizer

        self.tokenizer = load_tokenizer(checkpoint)
        self.model = load_model(checkpoint, resolve_device(device))
        self.context, self.max_new_tokens, self.temperature, self.seed = (
            context_length(self.model),
            max_new_tokens,
            temperature,
            seed,
        )
        self.turns: list[str] = []

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def act(self, observation: str) -> str:
        from ..common.lm.sampling import generate
        from ..common.lm.tokenizer import pad_id

        self.turns.append(observation)
        room = self.context - self.max_new_tokens
        while len(self.turns) > 1 and len(self._ids("\n".join(self.turns))) > room:
            del self.turns[1:3]  # the oldest reply and response after the introduction
        prompt = self._ids("\n".join(self.turns) + "\n")
        if self.tokenizer.bos_token_id is not None:
            prompt = [self.tokenizer.bos_token_id, *prompt]
        samples = generate(
            self.model,
            [prompt],
            max_new_tokens=self.max_new_tokens,
            stop_ids=[self.tokenizer.eos_token_id],
            pad_id=pad_id(self.tokenizer),
            greedy=self.temperature == 0,
            temperature=self.temperature or 1.0,
            seed=self.seed,
        )
        reply = self.tokenizer.decode(samples.continuations()[0], skip_special_tokens=True)
        self.turns.append(reply)
        self.seed += 1
        return reply


AGENTS = {**SCRIPTED, "llm": LanguageModelAgent}  # llm needs checkpoint=... (the config's llm.checkpoint)
