"""Hidden and public cases for function answers.

Every generator returns a list of kwargs dicts of plain lists, floats and ints (JSON
values), so a grader can send them into a student's kernel. Each list mixes fixed edge
cases (one class, all tied, heavy imbalance, the smallest inputs) with random ones whose
scores have ties (rounded to one decimal).

The ``*_PUBLIC`` tuples are public cases (``FunctionSpec.public``): a student's copy shows
them with their expected outputs, and the grader runs them with the hidden ones. They
cover the failure classes the hidden cases test, each in its smallest form: the order of
a pair both ways, all scores tied, one class missing, several pairs of unequal classes
with ties across them (and, with weights, unequal weights on both classes), so that an
answer right on all of them is rarely wrong on the hidden ones (``tests/test_self_checks.py``
holds the typical wrong answers to that). None holds the data of a value exercise.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BINARY_PUBLIC", "INCOME_PUBLIC", "PRECISION_AT_K_PUBLIC", "UNIFORM_PUBLIC",
           "WEIGHTED_PUBLIC", "binary_cases", "income_cases", "precision_at_k_cases",
           "uniform_cases"]

#: Labels and scores: a pair in order, the same pair reversed, all tied, one class, and
#: five objects with ties across the classes (2 positives, 3 negatives).
BINARY_PUBLIC: tuple[dict, ...] = (
    {"y_true": [1, 0], "y_score": [0.9, 0.1]},
    {"y_true": [0, 1], "y_score": [0.9, 0.1]},
    {"y_true": [1, 0, 1, 0], "y_score": [0.3, 0.3, 0.3, 0.3]},
    {"y_true": [1, 1, 1], "y_score": [0.2, 0.5, 0.7]},
    {"y_true": [0, 1, 0, 0, 1], "y_score": [0.4, 0.4, 0.1, 0.4, 0.8]},
)

#: The same with integer weights, unequal within each class.
WEIGHTED_PUBLIC: tuple[dict, ...] = tuple(
    {**case, "sample_weight": weights} for case, weights in zip(
        BINARY_PUBLIC, ([2, 1], [1, 3], [1, 2, 3, 1], [1, 2, 1], [1, 2, 3, 1, 1])))

#: Incomes: one person, two equal, all with one, unsorted, and zeros before a rich one.
INCOME_PUBLIC: tuple[dict, ...] = (
    {"incomes": [5]}, {"incomes": [3, 3]}, {"incomes": [0, 10]},
    {"incomes": [2, 4, 1, 3]}, {"incomes": [0, 0, 0, 7]},
)

#: A cut-off inside and across a group of ties, k = n, and one class.
PRECISION_AT_K_PUBLIC: tuple[dict, ...] = (
    {"y_true": [1, 0], "y_score": [0.9, 0.1], "k": 1},
    {"y_true": [1, 0], "y_score": [0.5, 0.5], "k": 1},
    {"y_true": [0, 1, 0, 0, 1], "y_score": [0.4, 0.4, 0.1, 0.4, 0.8], "k": 3},
    {"y_true": [1, 0, 1, 0], "y_score": [0.3, 0.3, 0.3, 0.3], "k": 4},
    {"y_true": [1, 1, 1], "y_score": [0.2, 0.5, 0.7], "k": 2},
)

#: The ends, one inner value, and several unsorted values.
UNIFORM_PUBLIC: tuple[dict, ...] = (
    {"u": [0.0]}, {"u": [1.0]}, {"u": [0.25]}, {"u": [0.81, 0.04, 0.49]},
)


def _random_binary(rng: np.random.Generator, n: int, share: float) -> tuple[list, list]:
    y = (rng.random(n) < share).astype(int)
    y[0], y[-1] = 1, 0  # both classes
    rng.shuffle(y)
    scores = np.round(rng.random(n) * 0.6 + 0.4 * y * rng.random(n), 1)
    return y.tolist(), [float(s) for s in scores]


def binary_cases(seed: int, *, weights: bool = False, n_random: int = 10) -> list[dict]:
    """Labels and scores (and integer weights if ``weights``): edge cases and random.

    >>> cases = binary_cases(0)
    >>> sorted(cases[0])
    ['y_score', 'y_true']
    >>> any(len(set(c["y_true"])) == 1 for c in cases)  # one class is among them
    True
    """
    rng = np.random.default_rng(seed)
    cases: list[tuple[list, list]] = [
        ([1, 0], [0.9, 0.1]),
        ([1, 0], [0.5, 0.5]),
        ([0, 1], [0.9, 0.1]),
        ([1, 0, 1, 0], [0.3, 0.3, 0.3, 0.3]),
        ([1, 1, 1], [0.2, 0.5, 0.7]),
        ([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]),
        ([0, 1, 0, 0, 1], [0.4, 0.4, 0.1, 0.4, 0.8]),
    ]
    heavy_y = [0] * 60
    heavy_y[int(rng.integers(60))] = 1
    cases.append((heavy_y, [float(v) for v in np.round(rng.random(60), 1)]))
    for _ in range(n_random):
        n = int(rng.integers(3, 40))
        cases.append(_random_binary(rng, n, float(rng.uniform(0.1, 0.9))))
    out = []
    for y, s in cases:
        case: dict = {"y_true": list(y), "y_score": list(s)}
        if weights:
            case["sample_weight"] = [int(w) for w in rng.integers(1, 4, len(y))]
        out.append(case)
    return out


def income_cases(seed: int, *, n_random: int = 10) -> list[dict]:
    """Non-negative integer incomes with a positive total.

    >>> income_cases(1)[0]
    {'incomes': [5]}
    """
    rng = np.random.default_rng(seed)
    cases = [[5], [3, 3], [0, 10], [10, 0], [1, 2, 3, 4], [0, 0, 0, 7], [4, 4, 4, 4, 4]]
    for _ in range(n_random):
        n = int(rng.integers(2, 30))
        v = rng.integers(0, 50, n)
        if v.sum() == 0:
            v[0] = 1
        cases.append([int(x) for x in v])
    return [{"incomes": c} for c in cases]


def precision_at_k_cases(seed: int, *, n_random: int = 10) -> list[dict]:
    """Labels, scores and a cut-off ``k`` in 1..n, ties at the cut included."""
    out: list[dict] = []
    for case in binary_cases(seed, n_random=n_random):
        n = len(case["y_true"])
        rng = np.random.default_rng([seed, n, len(out)])
        ks = {1, n, int(rng.integers(1, n + 1))}
        for k in sorted(ks):
            out.append({**case, "k": int(k)})
    return out


def uniform_cases(seed: int, *, n_random: int = 8) -> list[dict]:
    """Lists of numbers in [0, 1], with the ends 0 and 1."""
    rng = np.random.default_rng(seed)
    cases = [[0.0], [1.0], [0.25], [0.0, 0.5, 1.0]]
    for _ in range(n_random):
        cases.append([float(v) for v in rng.random(int(rng.integers(1, 20)))])
    return [{"u": c} for c in cases]
