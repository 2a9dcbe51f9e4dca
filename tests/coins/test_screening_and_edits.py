"""Screening of untrusted specs, and the mutation operators and equivalent rewrites (no coqc needed)."""

import pytest

from icml26.coins import candidates, equivalents, mutants
from icml26.coins.edits import rename, split, top_level_conjuncts
from icml26.coins.hostile import HOSTILE
from icml26.coins.problems import catalogue
from icml26.coins.specs import screen, sentences, strip_comments

SPEC = (
    "Definition spec (l : list Z) (t : Z) (result : bool) : Prop :=\n  result = true <-> Forall (fun x => x < t) l.\n"
)


def test_every_gold_spec_passes_the_screening_and_defines_spec():
    for number in catalogue():
        screened = screen(candidates.gold_text(number))
        assert screened.reason == "" and "spec" in screened.definitions


@pytest.mark.parametrize("name, trick, text, expected", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_each_hostile_trick_is_refused_before_coq_runs_unless_it_needs_running_to_be_caught(
    name, trick, text, expected
):
    reason = screen(text).reason
    assert reason.startswith("rejected:") if expected == "rejected" else reason == "", (name, reason)


def test_comments_and_strings_are_read_as_coq_reads_them():
    assert strip_comments('a (* b (* c *) "*)" d *) e') == "a   e"
    hidden = '(* "*)" *) Axiom x : False.\nDefinition spec (l : list Z) (r : Z) : Prop := True.\n'
    assert screen(hidden).reason == "rejected: uses Axiom"
    inert = 'Definition spec (l : list Z) (r : Z) : Prop := "Admitted. Axiom" = "x"%string.\n'
    assert screen(inert).reason == ""  # a string is data, not a command
    assert sentences('Definition a := String.length "x. y".\nDefinition b := 1.\n') == [
        'Definition a := String.length "x. y"',
        "Definition b := 1",
    ]
    assert screen("Definition spec (x : Z) (r : Z) : Prop := True").reason.startswith("ill-formed: the last sentence")
    assert screen("Definition other (x : Z) : Prop := True.").reason == "ill-formed: no Definition of spec"


def test_spec_parts_and_renaming():
    parts = split(SPEC)
    assert parts.arg_names == ["l", "t"] and parts.result_name == "result"
    assert parts.body == "result = true <-> Forall (fun x => x < t) l"
    assert rename('t < tt /\\ "t" = t', {"t": "u"}) == 'u < tt /\\ "t" = u'
    assert top_level_conjuncts("a = 1 /\\ (b /\\ c) /\\ d") == ["a = 1", "(b /\\ c)", "d"]
    assert top_level_conjuncts("forall i, p i /\\ q i") == ["forall i, p i /\\ q i"]  # dropping q would unbind i


def test_each_operator_makes_its_edit():
    parts = split(SPEC)
    edited = {
        op: [mutants.apply(parts, op, site).body for site in mutants.sites(parts, op)] for op in mutants.OPERATORS
    }
    assert edited["relation"] == [
        "result <> true <-> Forall (fun x => x < t) l",
        "result = true <-> Forall (fun x => x <= t) l",
    ]
    assert edited["quantifier"] == ["result = true <-> Exists (fun x => x < t) l"]
    assert edited["drop_conjunct"] == [] and edited["constant"] == [] and edited["swap_args"] == []
    assert edited["add_conjunct"] == ["(result = true <-> Forall (fun x => x < t) l) /\\ result = true"]
    assert edited["negation"] == ["~ (result = true <-> Forall (fun x => x < t) l)"]
    assert edited["true"] == ["True"] and edited["false"] == ["False"]
    gcd = split(candidates.gold_text(13))
    assert mutants.sites(gcd, "swap_args") == ["a-b"]
    assert "b mod result = 0 /\\ a mod result = 0" in mutants.apply(gcd, "swap_args", "a-b").body
    assert mutants.apply(gcd, "constant", "0").body.startswith("1 < result")


def test_mutants_are_distinct_seeded_and_leveled():
    gold = candidates.gold_text(35)
    found = mutants.mutants(gold, list(mutants.OPERATORS), 2, 3, seed=0)
    assert found == mutants.mutants(gold, list(mutants.OPERATORS), 2, 3, seed=0)
    texts = [m.text for m in found]
    assert len(set(texts)) == len(texts) and split(gold).text() not in texts
    assert {m.level for m in found} == {1, 2} and sum(m.level == 2 for m in found) == 3


def test_rewrites_keep_the_meaning_visible_in_the_text():
    found = dict(equivalents.rewrites(candidates.gold_text(35), list(equivalents.REWRITES)))
    assert "In out v0 /\\ Forall (fun x => x <= out) v0" in found["rename"]
    assert "Forall (fun x => x <= result) l /\\ In result l" in found["commute"]
    assert "Forall (fun x => result >= x) l" in found["mirror"]
    assert "Definition spec_body" in found["helper"] and found["helper"].rstrip().endswith("spec_body l result.")
    assert (
        "a mod result" in dict(equivalents.rewrites(candidates.gold_text(13), ["mirror"]))["mirror"]
    )  # not an operand
