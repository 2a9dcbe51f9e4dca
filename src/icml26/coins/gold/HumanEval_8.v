(* sum_product: (sum, product), with the empty sum 0 and the empty product 1. *)
Definition spec (numbers : list Z) (result : Z * Z) : Prop :=
  fst result = fold_right Z.add 0 numbers /\ snd result = fold_right Z.mul 1 numbers.
