"""The seat budget: token buckets on an injected clock, so no test races real time."""

from __future__ import annotations

from app.live.budget import KEEP, Budget


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_of_size_passes_then_the_bucket_is_empty() -> None:
    budget = Budget(3, 30.0, now=FakeClock())
    assert [budget.take("seat") for _ in range(5)] == [True, True, True, False, False]


def test_the_bucket_refills_evenly_over_the_window_and_never_past_its_size() -> None:
    clock = FakeClock()
    budget = Budget(3, 30.0, now=clock)
    for _ in range(3):
        budget.take("seat")
    clock.now += 9.9
    assert not budget.take("seat")  # one message per 10 s: not yet
    clock.now += 0.2
    assert budget.take("seat")
    clock.now += 3600
    assert [budget.take("seat") for _ in range(4)] == [True, True, True, False]


def test_keys_have_their_own_buckets() -> None:
    budget = Budget(1, 60.0, now=FakeClock())
    assert budget.take(("room", 0))
    assert not budget.take(("room", 0))
    assert budget.take(("room", 1))
    assert budget.take(("other", 0))


def test_only_full_buckets_are_forgotten_when_many_keys_pile_up() -> None:
    clock = FakeClock()
    budget = Budget(2, 10.0, now=clock)
    for n in range(KEEP - 1):
        budget.take(n)
    clock.now += 5.0  # every numbered bucket is full again
    assert budget.take("spent") and budget.take("spent")
    assert budget.take("newcomer")  # one key past KEEP: the full buckets go
    assert len(budget._buckets) == 2
    assert not budget.take("spent")  # an emptied bucket is remembered
