(* fib: fib 0 = 0, fib 1 = 1, fib (n + 2) = fib (n + 1) + fib n. *)
Fixpoint fib_nat (n : nat) : Z :=
  match n with
  | O => 0
  | S m => match m with O => 1 | S k => fib_nat m + fib_nat k end
  end.

Definition pre (n : Z) : Prop := 0 <= n.

Definition spec (n : Z) (result : Z) : Prop :=
  result = fib_nat (Z.to_nat n).
