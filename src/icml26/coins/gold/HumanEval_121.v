(* solution: the sum of the odd elements at even positions. *)
Definition spec (lst : list Z) (result : Z) : Prop :=
  result = fold_right Z.add 0
    (map (fun i => if Nat.even i && Z.odd (nth i lst 0) then nth i lst 0 else 0)
         (seq 0 (length lst))).
