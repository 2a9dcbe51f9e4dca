(* generate_integers: the even digits between a and b (either order), ascending. *)
Definition spec (a b : Z) (result : list Z) : Prop :=
  result = filter (fun d => (Z.min a b <=? d) && (d <=? Z.max a b)) [2; 4; 6; 8].
