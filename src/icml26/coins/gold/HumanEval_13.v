(* greatest_common_divisor: a positive common divisor whose cofactors are coprime. *)
Definition pre (a b : Z) : Prop := 0 < a /\ 0 < b.

Definition spec (a b : Z) (result : Z) : Prop :=
  0 < result /\ a mod result = 0 /\ b mod result = 0 /\ Z.gcd (a / result) (b / result) = 1.
