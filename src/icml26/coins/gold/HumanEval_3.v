(* below_zero: the balance, starting at 0, falls below zero after some operation. *)
Fixpoint balances (start : Z) (ops : list Z) : list Z :=
  match ops with
  | [] => []
  | x :: rest => (start + x) :: balances (start + x) rest
  end.

Definition spec (operations : list Z) (result : bool) : Prop :=
  result = true <-> Exists (fun b => b < 0) (balances 0 operations).
