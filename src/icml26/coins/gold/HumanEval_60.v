(* sum_to_n: 1 + 2 + ... + n, stated through Gauss's identity. *)
Definition pre (n : Z) : Prop := 1 <= n.

Definition spec (n : Z) (result : Z) : Prop :=
  2 * result = n * (n + 1).
