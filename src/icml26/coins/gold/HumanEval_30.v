(* get_positive: the strictly positive elements, in their order. *)
Definition spec (l : list Z) (result : list Z) : Prop :=
  result = filter (fun x => 0 <? x) l.
