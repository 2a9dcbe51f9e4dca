(* intersperse: the inputs at even positions, the delimiter at odd ones. *)
Definition spec (numbers : list Z) (delimeter : Z) (result : list Z) : Prop :=
  length result = (2 * length numbers - 1)%nat /\
  (forall i, (i < length numbers)%nat -> nth (2 * i) result 0 = nth i numbers 0) /\
  (forall i, (S i < length numbers)%nat -> nth (2 * i + 1) result 0 = delimeter).
