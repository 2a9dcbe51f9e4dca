(* add: the sum. *)
Definition spec (x y : Z) (result : Z) : Prop :=
  result = x + y.
