(* strlen: the number of characters. *)
Definition spec (s : string) (result : Z) : Prop :=
  result = Z.of_nat (String.length s).
