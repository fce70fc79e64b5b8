export function add(a, b) {
  return a + b;
}

export function total(prices) {
  return prices.reduce(add, 0);
}

export function discount(amount) {
  if (amount >= 100) {
    return amount - amount / 10;
  }
  return amount;
}
