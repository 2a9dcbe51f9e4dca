(* unique: strictly increasing, every element of result is in l and every element of l is in result. *)
Definition spec (l : list Z) (result : list Z) : Prop :=
  (forall i, (S i < length result)%nat -> nth i result 0 < nth (S i) result 0) /\
  Forall (fun x => In x l) result /\ Forall (fun x => In x result) l.
