def add(a, b):
    return a - b


def total(prices):
    result = 0
    for price in prices:
        result = add(result, price)
    return result


def discount(amount):
    if amount >= 100:
        return amount - amount / 10
    return amount
