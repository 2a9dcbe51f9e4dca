(* rolling_max: element i is the largest of the first i + 1 inputs. *)
Definition spec (numbers : list Z) (result : list Z) : Prop :=
  length result = length numbers /\
  forall i, (i < length numbers)%nat ->
    In (nth i result 0) (firstn (S i) numbers) /\
    Forall (fun x => x <= nth i result 0) (firstn (S i) numbers).
