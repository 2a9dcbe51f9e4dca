(* derivative: coefficient i of the derivative is (i + 1) * xs[i + 1]. *)
Definition spec (xs : list Z) (result : list Z) : Prop :=
  length result = (length xs - 1)%nat /\
  forall i, (i < length result)%nat -> nth i result 0 = Z.of_nat (S i) * nth (S i) xs 0.
