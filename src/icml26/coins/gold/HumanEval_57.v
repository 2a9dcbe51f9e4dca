(* monotonic: non-decreasing or non-increasing. *)
Definition spec (l : list Z) (result : bool) : Prop :=
  result = true <->
  (forall i, (S i < length l)%nat -> nth i l 0 <= nth (S i) l 0) \/
  (forall i, (S i < length l)%nat -> nth i l 0 >= nth (S i) l 0).
