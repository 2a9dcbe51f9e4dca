(* largest_divisor: the largest proper divisor of n. *)
Definition pre (n : Z) : Prop := 1 < n.

Definition spec (n : Z) (result : Z) : Prop :=
  1 <= result < n /\ n mod result = 0 /\
  Forall (fun d => n mod d <> 0) (map (fun k => result + 1 + Z.of_nat k) (seq 0 (Z.to_nat (n - result - 1)))).
