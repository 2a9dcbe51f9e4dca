"""The spec's oracles for the synthetic programming world: the two interpreters agree on translated
programs, the variant invariants hold, no seed algorithm leaks into pretraining, pass@k is unbiased."""

from __future__ import annotations

import re
from itertools import combinations

import numpy as np
import pytest

from icml26.generalization_spectrum import narratives, variants, world
from icml26.generalization_spectrum.passk import pass_at_k
from icml26.generalization_spectrum.world import Program, ProgramError, Step


def test_both_interpreters_agree_with_the_reference_semantics_on_every_translated_program():
    rng = np.random.default_rng(0)
    inputs = [[int(v) for v in rng.integers(0, 10, n)] for n in (0, 1, 3, 5, 7)]
    for program in variants.every_program((1, 2, 3)):
        a, b = program.render("A"), program.render("B")
        for xs in inputs:
            assert world.run_a(a, xs) == world.run_b(b, xs) == program(xs)


def test_the_primitives_by_hand():
    xs = [3, 8, 3, 2, 5]
    program = Program((Step("evens"), Step("add", 1), Step("reverse")))
    assert program(xs) == [3, 9] and program.category == "evens"
    assert world.apply("rotate", 2, xs) == [3, 2, 5, 3, 8] and world.apply("cumsum", None, xs) == [3, 11, 14, 16, 21]
    assert world.apply("dedupe", None, xs) == [3, 8, 2, 5] and world.apply("take", 3, xs) == [3, 8, 3]
    assert program.render("A") == "( reverse ( add 1 ( evens x ) ) )" and program.render("B") == "x evens 1 add reverse"


@pytest.mark.parametrize(
    "dsl,text,problem",
    [
        ("A", "( sort x", "missing ')'"),
        ("A", "( sort x ) )", "trailing tokens"),
        ("A", "( add 7 x )", "argument"),
        ("A", "( fly x )", "expected 'x'"),
        ("B", "x sort add", "needs a number"),
        ("B", "2 take", "needs a list"),
        ("B", "x x sort", "leaves 2 values"),
        ("B", "x hello", "unknown token"),
        ("A", "", "empty program"),
        ("B", " ".join(["x"] + ["sort"] * 9), "more than 8 operations"),
        ("A", "x " * 65, "65 tokens"),
    ],
)
def test_a_malformed_or_overlong_program_is_refused_and_fails_its_tests(dsl, text, problem):
    with pytest.raises(ProgramError, match=re.escape(problem)):
        world.RUN[dsl](text, [1, 2, 3])
    assert world.passes(text, dsl, [([1, 2, 3], [1, 2, 3])]) is False


def test_hidden_tests_pass_the_program_in_either_dsl_and_fail_another_algorithm():
    rng = np.random.default_rng(1)
    program, other = Program((Step("sort"), Step("take", 2))), Program((Step("sort"), Step("take", 3)))
    tests = world.hidden_tests(program, 8, rng)
    assert all(3 <= len(xs) <= 7 for xs, _ in tests)
    assert world.passes(program.render("A"), "A", tests) and world.passes(program.render("B"), "B", tests)
    assert not world.passes(other.render("A"), "A", tests) and not world.passes(program.render("B"), "A", tests)


def test_the_narratives_share_no_word_and_show_every_example():
    assert narratives.vocabulary("A").isdisjoint(narratives.vocabulary("B"))
    examples = [([3, 1, 4], [4]), ([5, 9], [])]
    for narrative in ("A", "B"):
        text = narratives.statement(examples, narrative)
        assert {w for w in text.split() if not w.isdigit()} <= narratives.vocabulary(narrative)
        assert [w for w in text.split() if w.isdigit()] == (
            ["3", "1", "4", "4", "5", "9"] if narrative == "A" else ["5", "9", "3", "1", "4", "4"]
        )


def test_max_value_bounds_every_output_on_inputs_of_the_hidden_tests_range():
    worst = max(max(p([9] * 7), default=0) for p in variants.every_program())
    assert worst == world.MAX_VALUE


def test_variant_invariants_hold_for_every_seed():
    rng = np.random.default_rng(2)
    for seed in variants.seeds(24, rng):
        suite = variants.suite(seed, 3, rng)
        d0, d1, d2, d3, d4 = (suite[v] for v in variants.VARIANTS)
        assert d1.statement == d0.statement and d1.program == d0.program and (d0.dsl, d1.dsl) == ("A", "B")
        assert d2.program == d0.program and d2.inputs == d0.inputs and d2.dsl == "A"
        assert d3.inputs != d0.inputs and d4.inputs != d0.inputs
        narrative_words = [{w for w in p.statement.split() if not w.isdigit()} for p in (d0, d2)]
        assert narrative_words[0].isdisjoint(narrative_words[1])  # zero narrative-token overlap
        assert d3.program.category == seed.category and variants.algorithm(d3.program) != variants.algorithm(seed)
        assert d4.program.category != seed.category and variants.algorithm(d4.program) != variants.algorithm(seed)


def test_no_seed_or_variant_algorithm_is_in_the_pretraining_corpus():
    rng = np.random.default_rng(3)
    reserved = [p.program for seed in variants.seeds(16, rng) for p in variants.suite(seed, 3, rng).values()]
    corpus = variants.pretraining(reserved, 3, rng)
    banned = {variants.algorithm(p) for p in reserved}
    assert corpus and not any(variants.algorithm(p.program) in banned for p in corpus)
    assert {(p.narrative, p.dsl) for p in corpus} == {("A", "A"), ("A", "B"), ("B", "A"), ("B", "B")}
    assert len(variants.pretraining([], 3, rng)) > len(corpus)  # the exclusion removed something


def test_no_far_variant_computes_any_seeds_algorithm():
    seeds = variants.seeds(24, np.random.default_rng(5))
    taken = {variants.algorithm(s) for s in seeds}
    far = [su[v].program for su in variants.suites(seeds, 3, np.random.default_rng(6)) for v in ("D3", "D4")]
    assert not any(variants.algorithm(p) in taken for p in far)


def test_seed_categories_cover_every_primitive_and_algorithms_are_distinct():
    seeds = variants.seeds(16, np.random.default_rng(4))
    assert {s.category for s in seeds} == set(world.PRIMITIVES)
    assert len({variants.algorithm(s) for s in seeds}) == 16


@pytest.mark.parametrize("n,c,k", [(5, 0, 1), (5, 2, 1), (5, 2, 3), (6, 1, 6), (7, 3, 2), (4, 4, 2)])
def test_pass_at_k_equals_the_share_of_k_subsets_with_a_correct_sample(n, c, k):
    samples = [True] * c + [False] * (n - c)
    subsets = list(combinations(samples, k))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets), abs=1e-12)


def test_pass_at_k_rejects_impossible_counts():
    for n, c, k in ((5, 6, 1), (5, 2, 0), (5, 2, 6), (3, -1, 1)):
        with pytest.raises(ValueError, match="need 0 <= c <= n"):
            pass_at_k(n, c, k)
