(* pairs_sum_to_zero: two elements at different positions sum to zero. *)
Definition spec (l : list Z) (result : bool) : Prop :=
  result = true <->
  exists i j, (i < j)%nat /\ (j < length l)%nat /\ nth i l 0 + nth j l 0 = 0.
