(* add: the sum of the even elements at odd indices. *)
Definition spec (lst : list Z) (result : Z) : Prop :=
  result = fold_right Z.add 0
    (map (fun i => if Nat.odd i && Z.even (nth i lst 0) then nth i lst 0 else 0)
         (seq 0 (length lst))).
