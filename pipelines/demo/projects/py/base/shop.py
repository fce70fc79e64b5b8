def add(a, b):
    return a + b


def total(prices):
    result = 0
    for price in prices:
        result = add(result, price)
    return result
