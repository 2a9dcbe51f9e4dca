(* concatenate: the strings joined with nothing between them. *)
Definition spec (strings : list string) (result : string) : Prop :=
  result = String.concat "" strings.
