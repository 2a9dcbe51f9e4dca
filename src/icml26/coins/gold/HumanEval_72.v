(* will_it_fly: balanced (a palindrome) and its sum at most w. *)
Definition spec (q : list Z) (w : Z) (result : bool) : Prop :=
  result = true <-> q = rev q /\ fold_right Z.add 0 q <= w.
