(* common: strictly increasing, with exactly the elements that are in both lists. *)
Definition spec (l1 l2 : list Z) (result : list Z) : Prop :=
  (forall i, (S i < length result)%nat -> nth i result 0 < nth (S i) result 0) /\
  Forall (fun x => In x l1 /\ In x l2) result /\
  Forall (fun x => In x l2 -> In x result) l1.
