(* below_threshold: every element is strictly below t. *)
Definition spec (l : list Z) (t : Z) (result : bool) : Prop :=
  result = true <-> Forall (fun x => x < t) l.
