(* right_angle_triangle: one side squared is the sum of the other two squared. *)
Definition spec (a b c : Z) (result : bool) : Prop :=
  result = true <-> a * a + b * b = c * c \/ a * a + c * c = b * b \/ b * b + c * c = a * a.
