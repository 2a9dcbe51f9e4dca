(* can_arrange: the largest index i with arr[i] < arr[i - 1], or -1 when there is none. *)
Definition spec (arr : list Z) (result : Z) : Prop :=
  (result = -1 /\ forall i, (S i < length arr)%nat -> nth i arr 0 <= nth (S i) arr 0) \/
  (0 < result < Z.of_nat (length arr) /\
   nth (Z.to_nat result) arr 0 < nth (Z.to_nat result - 1) arr 0 /\
   forall i, (Z.to_nat result <= i)%nat -> (S i < length arr)%nat -> nth i arr 0 <= nth (S i) arr 0).
