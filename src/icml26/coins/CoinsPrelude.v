(* Coins proof-automation portfolio: the fixed tactics every obligation is tried with.
   Trusted harness code (not a candidate spec). An obligation about a proposition P is the goal
   `coins_verdict P`, closed by a proof of P, a proof of ~ P, or (search failed) nothing: no axiom
   is ever needed, so `Print Assumptions` of all obligations must say "Closed". *)
From Coq Require Import ZArith String List Bool Lia.
Import ListNotations.
Open Scope Z_scope.

Inductive coins_verdict (P : Prop) : Prop :=
| coins_proved : P -> coins_verdict P
| coins_refuted : ~ P -> coins_verdict P
| coins_unknown : coins_verdict P.

Ltac coins_leaf :=
  solve [ reflexivity | cbn; lia | vm_compute; reflexivity | cbn; congruence
        | vm_compute; intros; discriminate | cbn; discriminate ].

(* a comparison of closed integers: drop it when true, close the goal when false (the boolean
   test computes only when both sides are closed, so comparisons with variables are left to lia) *)
Ltac coins_decide H test spec :=
  let v := eval vm_compute in test in
  lazymatch v with
  | true => clear H
  | false => exfalso; apply (proj2 (spec _ _)) in H; vm_compute in H; discriminate H
  end.

(* replace a computed list (map, filter, seq, ...) by its literal value; fails when it already is
   one or does not compute to one (it mentions variables) *)
Ltac coins_list_literal l :=
  lazymatch l with
  | _ :: _ => fail
  | [] => fail
  | _ => let v := eval vm_compute in l in
         lazymatch v with
         | _ :: _ => change l with v
         | [] => change l with v
         end
  end.

(* a closed comparison, by computation (lia would translate every hypothesis in the context) *)
Ltac coins_arith :=
  first [ apply Nat.ltb_lt; vm_compute; reflexivity | apply Nat.leb_le; vm_compute; reflexivity
        | apply Z.ltb_lt; vm_compute; reflexivity | apply Z.leb_le; vm_compute; reflexivity
        | apply Nat.eqb_eq; vm_compute; reflexivity | apply Z.eqb_eq; vm_compute; reflexivity ].

(* instantiate a hypothesis `forall i : nat, C1 i -> ... -> P i` at every i <= 40 whose premises
   compute to true (comparisons of concrete indices); instances with any other premise are dropped *)
Ltac coins_discharge Hk :=
  repeat match type of Hk with
         | ?A -> _ => let HA := fresh "HA" in assert (HA : A) by coins_arith; specialize (Hk HA)
         end.

Ltac coins_inst_nat H :=
  let rec go k := match k with
    | O => idtac
    | S ?k' => try (let Hk := fresh "Hk" in pose proof (H k') as Hk; coins_discharge Hk;
                    lazymatch type of Hk with ?A -> _ => clear Hk | _ => idtac end); go k'
    end in go 41%nat; clear H.

(* refute a disjunction case by case with cheap closers only (false closed equalities and
   comparisons), so a hypothesis like `In 101 [3; 2; 100]` closes the goal before other disjunctions
   multiply the cases *)
Ltac coins_kill H :=
  cbn in H;
  first [ contradiction
        | discriminate H
        | lazymatch type of H with
          | ?a < ?b => coins_decide H (Z.ltb a b) Z.ltb_lt
          | ?a <= ?b => coins_decide H (Z.leb a b) Z.leb_le
          | (?a < ?b)%nat => coins_decide H (Nat.ltb a b) Nat.ltb_lt
          | (?a <= ?b)%nat => coins_decide H (Nat.leb a b) Nat.leb_le
          end ].

Ltac coins_refute_cases H :=
  lazymatch type of H with
  | _ \/ _ => destruct H as [H | H]; [ coins_kill H | coins_refute_cases H ]
  | _ => coins_kill H
  end.

(* drop every hypothesis that is a proposition (variables stay): a premise is proved on its own,
   so proving it cannot recurse into the implication it came from *)
Ltac coins_forget := repeat match goal with H : ?T |- _ => lazymatch type of T with Prop => clear H end end.

(* coins_hyps takes the hypotheses apart (contradictions first, then conjunctions, witnesses,
   finite list quantifiers, disjunctions, nat variables with a concrete bound -- one case per
   value; a bound written j > i or j >= i reads as i < j or i <= j, as Z's does -- and last
   bounded nat quantifiers and implications whose premise coins_solve proves);
   coins_solve then works on the goal: split, choose, enumerate, close. *)
Ltac coins_hyps := repeat (cbn in *; match goal with
   | H : False |- _ => contradiction
   | H : ?a = ?b |- _ => discriminate H
   | H : (?a < ?b)%nat |- _ => coins_decide H (Nat.ltb a b) Nat.ltb_lt
   | H : (?a <= ?b)%nat |- _ => coins_decide H (Nat.leb a b) Nat.leb_le
   | H : (?a > ?b)%nat |- _ => unfold gt in H
   | H : (?a >= ?b)%nat |- _ => unfold ge in H
   | H : ?a = ?a |- _ => clear H
   | H : ?a < ?b |- _ => coins_decide H (Z.ltb a b) Z.ltb_lt
   | H : ?a <= ?b |- _ => coins_decide H (Z.leb a b) Z.leb_le
   | H : ?a > ?b |- _ => apply Z.gt_lt in H
   | H : ?a >= ?b |- _ => apply Z.ge_le in H
   | H : ?a = ?b |- _ => first [ subst a | subst b ]
   | H : True |- _ => clear H
   | H : _ /\ _ |- _ => destruct H
   | H : exists _, _ |- _ => destruct H
   | H : _ <-> _ |- _ => destruct H
   | H : Forall _ (_ :: _) |- _ => apply Forall_cons_iff in H
   | H : Exists _ (_ :: _) |- _ => apply Exists_cons in H
   | H : Forall _ [] |- _ => clear H
   | H : Forall _ ?l |- _ => coins_list_literal l
   | H : Exists _ ?l |- _ => coins_list_literal l
   | H : Exists _ [] |- _ => apply Exists_nil in H; contradiction
   | H : _ -> ?a = ?a |- _ => clear H
   | H : _ -> True |- _ => clear H
   | H : forall i : nat, _ -> _ |- _ => coins_inst_nat H
   | H : _ \/ _ |- _ => solve [ coins_refute_cases H ]
   | H : _ \/ _ |- _ => destruct H
   | H : (?e < ?n)%nat |- _ =>
       let n' := eval vm_compute in n in
       lazymatch n' with S _ => idtac end;
       match e with context [?i] => is_var i; lazymatch type of i with nat => destruct i end end
   | H : ?A -> ?B |- _ =>
       first [ let HA := fresh "HA" in assert (HA : A) by (coins_forget; coins_solve); specialize (H HA)
             | clear H ]
   end)

with coins_solve :=
  intros; coins_hyps; cbn in *;
  match goal with
  | |- True => exact I
  | |- _ /\ _ => split; coins_solve
  | |- _ <-> _ => split; coins_solve
  | |- _ \/ _ => first [ left; coins_solve | right; coins_solve ]
  | |- Forall ?P ?l => coins_list_literal l; constructor; coins_solve
  | |- Exists ?P ?l => coins_list_literal l; coins_solve
  | |- Forall _ [] => constructor
  | |- Forall _ (_ :: _) => constructor; coins_solve
  | |- Exists _ (_ :: _) => first [ apply Exists_cons_hd; coins_solve | apply Exists_cons_tl; coins_solve ]
  | |- exists i : nat, _ =>
      let rec from k := lazymatch k with
        | 12%nat => fail
        | _ => first [ exists k; coins_solve | from (S k) ] end in from O
  | |- ~ _ => let H := fresh "H" in intro H; coins_solve
  | |- forall _, _ => intro; coins_solve
  | _ => first [ coins_leaf | exfalso; coins_leaf ]
  end.

Ltac coins_portfolio :=
  first [ solve [ vm_compute; reflexivity ]
        | solve [ vm_compute; intros; discriminate ]
        | solve [ cbn; lia ]
        | solve [ intros; apply iff_refl ]
        | solve [ intros; tauto ]
        | solve [ coins_solve ] ].

(* the comparison method's goals are universal equivalences between two specs: structural tactics
   first (computation on open terms can spend the whole timeout), then the portfolio *)
Ltac coins_equivalence :=
  first [ solve [ intros; apply iff_refl ]
        | solve [ intros; tauto ]
        | solve [ intros; split; intros; intuition lia ]
        | coins_portfolio ].

