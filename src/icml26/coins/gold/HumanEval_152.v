(* compare: the absolute difference between score and guess, match by match. *)
Definition spec (game guess : list Z) (result : list Z) : Prop :=
  length result = length game /\
  forall i, (i < length game)%nat -> nth i result 0 = Z.abs (nth i game 0 - nth i guess 0).
