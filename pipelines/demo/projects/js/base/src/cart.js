export function add(a, b) {
  return a + b;
}

export function total(prices) {
  return prices.reduce(add, 0);
}
