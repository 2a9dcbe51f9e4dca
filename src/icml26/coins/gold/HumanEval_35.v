(* max_element: an element of l that no element exceeds. *)
Definition spec (l : list Z) (result : Z) : Prop :=
  In result l /\ Forall (fun x => x <= result) l.
