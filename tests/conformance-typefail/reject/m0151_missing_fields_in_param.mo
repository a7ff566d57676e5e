func total(o : { qty : Nat; price : Nat }) : Nat { o.qty * o.price };
total({ qty = 2 })
