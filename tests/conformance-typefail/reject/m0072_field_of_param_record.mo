func total(order : { qty : Nat; price : Nat }) : Nat {
  order.qty * order.cost
};
total({ qty = 2; price = 5 })
