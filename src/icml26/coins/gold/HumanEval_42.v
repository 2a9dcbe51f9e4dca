(* incr_list: every element plus one. *)
Definition spec (l : list Z) (result : list Z) : Prop :=
  length result = length l /\
  forall i, (i < length l)%nat -> nth i result 0 = nth i l 0 + 1.
