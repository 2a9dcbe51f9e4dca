(* filter_by_prefix: the strings that start with the prefix, in their order. *)
Definition spec (strings : list string) (prefix : string) (result : list string) : Prop :=
  result = filter (fun s => String.prefix prefix s) strings.
