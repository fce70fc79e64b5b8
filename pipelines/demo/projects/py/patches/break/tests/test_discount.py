from shop import discount


def test_discount_from_100():
    assert discount(100) == 90
    assert discount(200) == 180


def test_no_discount_below_100():
    assert discount(99) == 99
    assert discount(0) == 0
