(* is_palindrome: character i equals character n - 1 - i for every i. *)
Definition spec (text : string) (result : bool) : Prop :=
  result = true <->
  forall i, (i < String.length text)%nat ->
    String.get i text = String.get (String.length text - 1 - i) text.
