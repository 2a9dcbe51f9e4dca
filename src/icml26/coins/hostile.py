"""Hostile candidate specs: the tricks an untrusted spec could try, each of which must be rejected
before Coq runs or contained while it runs.

Each entry is ``(name, trick, text, expected)`` with ``expected`` what the harness must do:
``rejected`` (screening refuses it, with the reason) or ``contained`` (it runs, and the limits stop
it: every search times out, or coqc is stopped by the time or memory limit). All are written for the signature
``list Z -> Z -> Prop`` (HumanEval/35, max_element).
"""

from __future__ import annotations

_SPEC = "Definition spec (l : list Z) (result : Z) : Prop := In result l.\n"

HOSTILE: tuple[tuple[str, str, str, str], ...] = (
    ("admitted", "a lemma closed with Admitted", _SPEC + "Lemma cheat : False.\nProof. Admitted.\n", "rejected"),
    (
        "admit_in_proof_mode",
        "a definition built in proof mode with admit",
        "Definition spec (l : list Z) (result : Z) : Prop.\nProof. admit. Defined.\n",
        "rejected",
    ),
    ("axiom", "an axiom that proves anything", "Axiom anything : forall P : Prop, P.\n" + _SPEC, "rejected"),
    (
        "parameter",
        "an opaque constant the obligations cannot compute",
        "Parameter magic : Z.\nDefinition spec (l : list Z) (result : Z) : Prop := result = magic.\n",
        "rejected",
    ),
    ("abort", "an Abort after an opened goal", _SPEC + "Goal False.\nAbort.\n", "rejected"),
    (
        "require_classical",
        "a non-standard Require (classical logic)",
        "Require Import Coq.Logic.Classical.\n" + _SPEC,
        "rejected",
    ),
    (
        "unset_guard",
        "turning off the termination checker",
        "Unset Guard Checking.\nFixpoint forever (n : nat) : nat := forever n.\n" + _SPEC,
        "rejected",
    ),
    (
        "attribute_bypass",
        "an attribute that bypasses a kernel check",
        "#[bypass_check(guard)] Fixpoint forever (n : nat) : nat := forever n.\n" + _SPEC,
        "rejected",
    ),
    ("notation", "redefining equality as True", 'Notation "x = y" := True.\n' + _SPEC, "rejected"),
    (
        "ltac_in_term",
        "running a tactic inside a term",
        "Definition spec (l : list Z) (result : Z) : Prop := ltac:(exact True).\n",
        "rejected",
    ),
    (
        "harness_name",
        "using the harness's own names",
        "Definition spec (l : list Z) (result : Z) : Prop := coins_verdict True.\n",
        "rejected",
    ),
    ("write_file", "writing a file with Redirect", 'Redirect "coins_pwned" Print nat.\n' + _SPEC, "rejected"),
    ("read_file", "reading a file with Load", 'Load "/etc/passwd".\n' + _SPEC, "rejected"),
    (
        "hidden_after_comment",
        "an Axiom after a comment whose string holds a comment end",
        '(* "*)" *) Axiom anything : False.\n' + _SPEC,
        "rejected",
    ),
    (
        "hidden_after_string",
        "an Axiom after a string that holds a comment start",
        'Definition opener : string := "(*".\nAxiom anything : False.\n' + _SPEC,
        "rejected",
    ),
    (
        "slow_loop",
        "a spec whose evaluation takes 2^60 steps in little memory",
        (
            "Fixpoint slow (n : nat) : nat := match n with O => O | S m => slow m + slow m end.\n"
            "Definition spec (l : list Z) (result : Z) : Prop := slow 60 = O /\\ In result l.\n"
        ),
        "contained",
    ),
    (
        "memory_bomb",
        "a spec whose evaluation builds a huge unary number",
        "Definition spec (l : list Z) (result : Z) : Prop :=\n  Nat.pow 10 9 = Nat.pow 10 9 /\\ In result l.\n",
        "contained",
    ),
)
"""The tricks, in the order the table lists them."""
