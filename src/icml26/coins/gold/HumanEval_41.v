(* car_race_collision: every left-moving car meets every right-moving car. *)
Definition spec (n : Z) (result : Z) : Prop :=
  result = n * n.
