"""The SFT warm start, so that the second turn can use feedback (spec: "Tasks and model").

For every training problem: one first-turn example ``x0 -> y0`` with ``y0`` a *random well-formed* answer
(it teaches the answer format and nothing of the task), and one second-turn example ``x1 -> revision`` where
``x1 = [x0, y0, critique(y0)]`` and the revision is the right answer nearest to ``y0`` (:mod:`.tasks`).

Ours, where the spec is silent: the first turn learns the format only, so the warm-started policy is at
chance on single-turn accuracy and what it knows of the task sits behind the feedback; single-turn skill is
what the RL methods have to build, from the scalar reward alone or from the feedback as well.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import dialogue
from .tasks import Problem, Task


def examples(
    tok, task: Task, problems: Sequence[Problem], rng: np.random.Generator
) -> list[tuple[list[int], list[int]]]:
    """Two (prompt ids, answer ids) examples per problem: a random first answer, the revision after its critique."""
    found = []
    for problem in problems:
        guess = task.random_answer(rng)
        first = dialogue.answer_ids(tok, guess)
        found.append((dialogue.first_prompt(tok, problem), first))
        x1 = dialogue.second_prompt(tok, problem, first, task.critique(problem, guess))
        found.append((x1, dialogue.answer_ids(tok, task.revision(problem, guess))))
    return found
