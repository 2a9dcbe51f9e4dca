(* modp: 2^n modulo p. *)
Definition pre (n p : Z) : Prop := 0 <= n /\ 0 < p.

Definition spec (n p : Z) (result : Z) : Prop :=
  result = 2 ^ n mod p.
